package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/iomark/iomark/internal/health"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite openapi.json from the routes and types")

// openapi.json is the document the server serves, for readers of the repository. After changing
// a route, a parameter or a type the API sends: go test ./internal/server -run TestOpenAPIFile -update
func TestOpenAPIFile(t *testing.T) {
	doc := openAPIDoc()
	if *update {
		if err := os.WriteFile("openapi.json", doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file, doc) {
		t.Error("openapi.json differs from the served document: go test ./internal/server -run TestOpenAPIFile -update")
	}
	// Every reference leads to a schema.
	var tree any
	if err := json.Unmarshal(doc, &tree); err != nil {
		t.Fatal(err)
	}
	schemas := tree.(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any)
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				if _, ok := schemas[strings.TrimPrefix(ref, refPrefix)]; !ok {
					t.Errorf("$ref %s leads nowhere", ref)
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(tree)
}

// openAPI is the part of the document the tests read.
type openAPI struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		OperationID string `json:"operationId"`
		Responses   map[string]struct {
			Content map[string]struct {
				Schema *Schema `json:"schema"`
			} `json:"content"`
		} `json:"responses"`
	} `json:"paths"`
}

// Every API route is in the document, every documented operation is served, and the document
// says 3.1.
func TestOpenAPIRoutes(t *testing.T) {
	ts := startUnlimited(t)
	var doc openAPI
	if c := ts.getJSON(t, "/api/v1/openapi.json", &doc); c != 200 || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %d %q", c, doc.OpenAPI)
	}
	var documented, served []string
	for path, ops := range doc.Paths {
		for m := range ops {
			documented = append(documented, strings.ToUpper(m)+" "+path)
		}
	}
	for _, r := range (&Server{}).routes() {
		if r.op != nil {
			served = append(served, r.method+" "+r.pattern)
		}
		if (strings.HasPrefix(r.pattern, "/api/") || r.pattern == healthzPath) != (r.op != nil) {
			t.Errorf("route %s: an /api/ route (or the health check) must have its operation, and only those", r.pattern)
		}
	}
	sort.Strings(documented)
	sort.Strings(served)
	if fmt.Sprint(documented) != fmt.Sprint(served) {
		t.Errorf("OpenAPI paths and routes differ:\ndocumented %v\nserved     %v", documented, served)
	}
}

// Every answer the API gives to a set of requests has a status its operation documents and a
// body valid against the documented schema of that status: the response schemas say what is
// sent. (scripts/test.sh runs schemathesis for the generated requests.)
func testResponsesMatchDocument(t *testing.T, ts *testServer) {
	if _, err := SeedPublished(t.Context(), ts.st); err != nil {
		t.Fatal(err)
	}
	for i, speed := range []float64{20, 30, 40, 60} {
		r := sampleRecord(fmt.Sprintf("doc-%d", i), "SanDisk", fmt.Sprintf("Card %d", i%2), "Raspberry Pi 4 Model B", speed)
		ts.mustPost(t, r)
	}
	// A drive that reports health without a critical-warning field: the record leaves
	// critical_warnings out (omitzero), and the response schema must not require it
	// (schemathesis found a document that did).
	h := sampleRecord("doc-health", "SanDisk", "Card 0", "Raspberry Pi 4 Model B", 30)
	read := uint64(182280)
	h.Health = &health.Health{Source: health.SourceATA, DataReadBytes: &read}
	ts.mustPost(t, h)
	key := url.QueryEscape(sampleRecord("x", "SanDisk", "Card 0", "", 1).DeviceKey())
	var doc openAPI
	if err := json.Unmarshal(openAPIDoc(), &doc); err != nil {
		t.Fatal(err)
	}
	set := apiSchemas()
	for _, c := range []struct{ method, path, op string }{
		{"GET", "/api/v1/home", "/api/v1/home"},
		{"GET", "/api/v1/search?q=sandisk&sort=score&order=desc&per_page=2&page=2", "/api/v1/search"},
		{"GET", "/api/v1/search?source=published&capacity_gb=64", "/api/v1/search"},
		{"GET", "/api/v1/search?page=0", "/api/v1/search"},
		{"GET", "/api/v1/drive?key=" + key, "/api/v1/drive"},
		{"GET", "/api/v1/drive?key=" + key + "&test=nope", "/api/v1/drive"},
		{"GET", "/api/v1/drive?key=none", "/api/v1/drive"},
		{"GET", "/api/v1/board?name=Raspberry+Pi+4+Model+B", "/api/v1/board"},
		{"GET", "/api/v1/board", "/api/v1/board"},
		{"GET", "/api/v1/results/doc-1", "/api/v1/results/{id}"},
		{"GET", "/api/v1/results/doc-health", "/api/v1/results/{id}"},
		{"GET", "/api/v1/results/nope", "/api/v1/results/{id}"},
		{"GET", "/api/v1/results/doc-1/raw", "/api/v1/results/{id}/raw"},
		{"GET", "/api/v1/compare?drive=" + key + "&result=doc-3", "/api/v1/compare"},
		{"GET", "/api/v1/compare", "/api/v1/compare"},
		{"GET", "/api/v1/value?drive=" + key + "&price=12.5", "/api/v1/value"},
		{"GET", "/api/v1/value?drive=" + key, "/api/v1/value"},
		{"GET", "/api/v1/openapi.json", "/api/v1/openapi.json"},
		{"POST", "/api/v1/results", "/api/v1/results"},
	} {
		var body []byte
		req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
		if c.method == "POST" {
			body = encode(t, sampleRecord("doc-1", "SanDisk", "Card 1", "Raspberry Pi 4 Model B", 30)) // a duplicate: 200
			req, _ = http.NewRequest(c.method, ts.URL+c.path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
		}
		resp, got := roundTrip(t, req)
		op := doc.Paths[c.op][strings.ToLower(c.method)]
		documented, ok := op.Responses[strconv.Itoa(resp.StatusCode)]
		if !ok {
			t.Errorf("%s %s answered %d, which %s does not document", c.method, c.path, resp.StatusCode, op.OperationID)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: Content-Type %q", c.method, c.path, ct)
		}
		schema := documented.Content["application/json"].Schema
		if err := checkJSON(set.comps, schema, got); err != nil {
			t.Errorf("%s %s (%d): the body does not match its documented schema: %v\n%.400s", c.method, c.path, resp.StatusCode, err, got)
		}
		if resp.StatusCode >= 400 && !slices.Contains([]int{400, 404, 410}, resp.StatusCode) {
			t.Errorf("%s %s: %d", c.method, c.path, resp.StatusCode)
		}
	}
}
