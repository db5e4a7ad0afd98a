package server

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/iomark/iomark/internal/record"
)

// apiSchemas are the schemas of the API, built once from the Go types: the upload schema
// (record.Run bounded by limits.go) that uploads are checked against and the OpenAPI document
// publishes, and the response schemas (openapi.go). missing lists numeric fields of the upload
// without a range (a test fails on any).
type apiSchemaSet struct {
	comps   components
	upload  *Schema
	missing []string
	err     error
}

var (
	apiSchemasOnce sync.Once
	apiSchemaValue *apiSchemaSet
)

// apiSchemas builds the schemas once. (A function, not a sync.OnceValue variable: building reads
// the route table, whose handlers refer back to the schemas.)
func apiSchemas() *apiSchemaSet {
	apiSchemasOnce.Do(func() { apiSchemaValue = buildSchemas() })
	return apiSchemaValue
}

func buildSchemas() *apiSchemaSet {
	set := &apiSchemaSet{comps: components{}}
	set.upload, set.missing = schemaFor[record.Run](set.comps, true, uploadLimits, "Upload")
	addResponseSchemas(set.comps)
	set.err = set.comps.compile()
	return set
}

// decodeUpload reads one record from an upload body: checked against the upload schema as it
// streams (one JSON object, known fields only, every field in range), then decoded.
func decodeUpload(body []byte) (*record.Run, error) {
	set := apiSchemas()
	if set.err != nil {
		return nil, fmt.Errorf("server: the upload schema does not compile: %w", set.err)
	}
	normal, err := checkAndNormalize(set.comps, set.upload, body)
	if err != nil {
		return nil, err
	}
	// What is private never reaches the store, whatever the client sent (record.PrivateFields).
	if normal, _, err = record.ScrubJSON(normal); err != nil {
		return nil, bad("", "not a result record: %v", err)
	}
	var run record.Run
	if err := json.Unmarshal(normal, &run); err != nil {
		return nil, bad("", "not a result record: %v", err)
	}
	return &run, nil
}
