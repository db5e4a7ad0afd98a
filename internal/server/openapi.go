package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"sync"
)

// The OpenAPI 3.1 document of /api/v1, written from the route table (routes.go) and the
// schemas of the Go types the API takes and sends (schema.go, limits.go): every operation with
// every status it can answer, its parameters with the bounds the server checks, the upload's
// schema with the bounds it checks, and the schema of each answer. openapi.json beside this
// file is a copy for readers; a test keeps it equal to what is served.

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPIDoc())
}

// addResponseSchemas adds the schema of every API answer's type, and of the error body.
func addResponseSchemas(c components) {
	schemaForType(c, reflect.TypeFor[apiError](), false, nil, "")
	for _, r := range (&Server{}).routes() {
		if r.op != nil && r.op.resp != nil {
			schemaForType(c, r.op.resp, false, nil, "")
		}
	}
}

var (
	openAPIOnce  sync.Once
	openAPIBytes []byte
)

// openAPIDoc is the document, written once.
func openAPIDoc() []byte {
	openAPIOnce.Do(func() { openAPIBytes = buildOpenAPI() })
	return openAPIBytes
}

func buildOpenAPI() []byte {
	set := apiSchemas()
	paths := map[string]map[string]any{}
	for _, r := range (&Server{}).routes() {
		if r.op == nil {
			continue
		}
		path := paths[r.pattern]
		if path == nil {
			path = map[string]any{}
			paths[r.pattern] = path
		}
		path[map[string]string{"GET": "get", "POST": "post", "DELETE": "delete"}[r.method]] = operationDoc(r.op)
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "iomark results API", "version": "1",
			"description": "Results of iomark storage benchmarks by drive and board. Figures in MB/s are 10^6 bytes per second. " +
				"Every page of the site has its data here. Results the server doubts (figures above what the drive's class and link can carry, " +
				"figures that contradict each other) or that its operator hid are stored but not listed: no list, count, median, ranking or " +
				"sort order includes them. Errors are JSON {error, field}; 429 and 503 carry Retry-After (seconds)."},
		"paths":      paths,
		"components": map[string]any{"schemas": set.comps},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("server: the OpenAPI document does not marshal: " + err.Error()) // types only: a test catches it
	}
	return append(b, '\n')
}

func operationDoc(op *operation) map[string]any {
	o := map[string]any{"operationId": op.id, "summary": op.summary}
	var params []map[string]any
	for _, p := range op.params {
		pd := map[string]any{"name": p.name, "in": p.in, "description": p.desc, "schema": p.schema}
		if p.required {
			pd["required"] = true
		}
		if p.example != nil {
			pd["example"] = p.example
		}
		if p.repeated() {
			pd["style"], pd["explode"] = "form", true
		}
		params = append(params, pd)
	}
	if params != nil {
		o["parameters"] = params
	}
	if op.upload {
		o["requestBody"] = map[string]any{"required": true, "description": "one result record as `iomark run --json` prints it",
			"content": map[string]any{"application/json": map[string]any{"schema": apiSchemas().upload}}}
	}
	responses := map[string]any{}
	success := map[string]any{"type": "object"} // the raw record and this document: any object
	if op.resp != nil {
		success = map[string]any{"$ref": refPrefix + componentName(op.resp)}
	}
	ok := func(desc string) map[string]any {
		d := map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": success}}}
		if op.links != nil {
			links := map[string]any{}
			for name, l := range op.links {
				links[name] = map[string]any{"operationId": l.operationID, "parameters": l.parameters}
			}
			d["links"] = links
		}
		return d
	}
	responses[strconv.Itoa(op.ok)] = ok(http.StatusText(op.ok))
	statuses := append(append([]int{}, op.statuses...), everyStatus...)
	sort.Ints(statuses)
	for _, code := range statuses {
		if code == http.StatusOK { // a second success (a duplicate upload): the same body
			responses["200"] = ok("the same record was stored before (duplicate is true)")
			continue
		}
		d := map[string]any{"description": statusDoc[code],
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": refPrefix + "ApiError"}}}}
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			d["headers"] = map[string]any{"Retry-After": map[string]any{"required": true, "description": "seconds to wait",
				"schema": map[string]any{"type": "string", "pattern": "^[0-9]+$"}}}
		}
		responses[strconv.Itoa(code)] = d
	}
	o["responses"] = responses
	return o
}

// statusDoc says when each error status is given.
var statusDoc = map[int]string{
	http.StatusBadRequest:            "a parameter or the record breaks its schema; field names it",
	http.StatusNotFound:              "nothing has that key, name or id",
	http.StatusConflict:              "another record is stored under this id",
	http.StatusGone:                  "the site's operator hid this result",
	http.StatusRequestEntityTooLarge: "the body is over 1 MiB",
	http.StatusUnsupportedMediaType:  "the body is not Content-Type application/json (UTF-8)",
	http.StatusTooManyRequests:       "too many requests or uploads from this address or network, or uploads to the server; retry after Retry-After",
	http.StatusInternalServerError:   "an internal error (the server log has it)",
	http.StatusServiceUnavailable:    "the server is busy, shutting down, or its disk is full; retry after Retry-After",
}
