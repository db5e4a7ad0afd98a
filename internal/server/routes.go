package server

import (
	"net/http"
	"reflect"
	"slices"
	"sync"

	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/store"
)

// The server's routes, and for each /api/v1 route what the OpenAPI document says of it: its
// parameters (whose schemas check.go enforces before the handler runs, params.go), its request
// body, its answer's Go type and every status it can give. openapi.go writes the document from
// this table alone, so the routes, the document and the checks cannot drift.

// route is one method and path the server answers.
type route struct {
	method, pattern string
	handler         http.HandlerFunc
	op              *operation // API routes only
	params          []param    // pages: the same parameters as their API twin
}

// operation is an API route as the OpenAPI document describes it.
type operation struct {
	id, summary string
	params      []param
	upload      bool         // the request body is one result record (the upload schema)
	ok          int          // the success status (200 or 201)
	resp        reflect.Type // the success body's Go type; nil: any JSON object
	statuses    []int        // other statuses it can give, besides those every operation can
	links       map[string]link
}

// link is an OpenAPI link from a success answer to another operation (stateful tests follow it).
type link struct {
	operationID string
	parameters  map[string]string
}

// Statuses every API operation can give: too many requests from the address (429), the server
// busy, full or shutting down (503), an internal error (500). All carry a JSON error body, and
// 429 and 503 a Retry-After.
var everyStatus = []int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusServiceUnavailable}

// healthzPath is the health check's path, where monitors and load balancers look for it.
const healthzPath = "/healthz"

// param is one query or path parameter. repeated ones (?drive=A&drive=B) have an array schema.
type param struct {
	name, in, desc string
	required       bool
	schema         *Schema
	example        any // for the document (schemathesis's examples phase): a value every server has
}

func (p param) repeated() bool { return p.schema.Type == "array" }

// Bounds of the query parameters (check.go enforces them, parseList relies on them).
const (
	maxParamText = 1024 // code points; stored names are far shorter (limits.go), so each has a link
	maxPage      = 500  // with maxPer rows a page, the deepest page starts before maxOffset
	maxPer       = 200
	defaultPer   = 25
	maxCompare   = 4 // drives and results each
)

// noNUL: text parameters name things the store compares exactly, and no stored name holds NUL.
const noNUL = `^[^\x00]*$`

func textParam(name, desc string, required bool) param {
	s := &Schema{Type: "string", MaxLength: intp(maxParamText), Pattern: noNUL}
	if required {
		s.MinLength = intp(1)
	}
	return param{name: name, in: "query", desc: desc, required: required, schema: s}
}

func testParam(name, desc string) param {
	return param{name: name, in: "query", desc: desc, schema: &Schema{Type: "string", Pattern: testNamePattern}}
}

func repeatedText(name, desc string, n int) param {
	return param{name: name, in: "query", desc: desc, schema: &Schema{Type: "array", MaxItems: intp(n),
		Items: &Schema{Type: "string", MaxLength: intp(maxParamText), Pattern: noNUL}}}
}

var idParam = param{name: "id", in: "path", desc: "result (run) id", required: true,
	schema: &Schema{Type: "string", MinLength: intp(1), MaxLength: intp(128)}}

func listParamsDoc() []param {
	sorts := make([]any, 0, len(store.RunSorts))
	for k := range store.RunSorts {
		sorts = append(sorts, k)
	}
	slices.SortFunc(sorts, func(a, b any) int {
		if a.(string) < b.(string) {
			return -1
		}
		return 1
	})
	return []param{
		{name: "page", in: "query", desc: "1-based page", schema: &Schema{Type: "integer", Minimum: floatp(1), Maximum: floatp(maxPage)}},
		{name: "per_page", in: "query", desc: "rows per page", schema: &Schema{Type: "integer", Minimum: floatp(1), Maximum: floatp(maxPer)}},
		{name: "sort", in: "query", desc: "column to sort by; over more than 10,000 results only date is offered (the answer's pager says what was applied)", schema: &Schema{Type: "string", Enum: sorts}},
		{name: "order", in: "query", desc: "asc or desc", schema: &Schema{Type: "string", Enum: []any{"asc", "desc"}}},
	}
}

// examples are values every server holds: those of the first published reference result,
// which SeedPublished stores at every start.
var examples = sync.OnceValue(func() struct{ id, key, board string } {
	var ex struct{ id, key, board string }
	results, err := refdata.Load()
	if err != nil || len(results) == 0 {
		return ex
	}
	run, _, err := publishedRecord(results[0])
	if err != nil {
		return ex
	}
	ex.id, ex.key = run.ID, run.DeviceKey()
	if run.Host != nil {
		ex.board = run.Host.Model
	}
	return ex
})

// withExample sets a parameter's example (a repeated one's as a list).
func withExample(p param, v string) param {
	if v == "" {
		return p
	}
	p.example = v
	if p.repeated() {
		p.example = []string{v}
	}
	return p
}

func (s *Server) routes() []route {
	ex := examples()
	list := listParamsDoc()
	search := append([]param{
		textParam("q", "brand/model words; each must start a word of the brand or model", false),
		textParam("class", "device class, exact", false),
		textParam("board", "board, exact", false),
		textParam("source", "local, submitted or published", false),
		textParam("link", "bus the drive is attached by (the hop next to it), exact: sd, mmc, usb, pcie, sata…", false),
		{name: "capacity_gb", in: "query", desc: "labelled capacity in GB (10^9 bytes); matches 85 % to 102 % of it",
			schema: &Schema{Type: "number", ExclusiveMinimum: floatp(0), Maximum: floatp(1e6)}},
	}, list...)
	families := make([]any, 0, len(refdata.Families()))
	for _, f := range refdata.Families() {
		families = append(families, f)
	}
	home := []param{{name: "family", in: "query", desc: "board family whose leaderboard to show (default: the first with results)", schema: &Schema{Type: "string", Enum: families}},
		textParam("board", "board, exact: only its results rank", false),
		textParam("class", "device class, exact: only this class, with more drives", false),
		textParam("link", "bus the drive is attached by, exact", false)}
	model := []param{withExample(textParam("key", "drive model key, as rankings link to it", true), "model:samsung evo plus:32GB")}
	drive := append([]param{withExample(textParam("key", "device key", true), ex.key), testParam("test", "test to chart (404 when the drive has none)")}, list...)
	board := append([]param{withExample(textParam("name", "board, exact", true), ex.board)}, list...)
	compare := []param{withExample(repeatedText("drive", "device key, repeated: medians of its results; a value without a colon is part of a name, whose matching drives the answer's found lists", maxCompare), ex.key),
		withExample(repeatedText("result", "result id, repeated", maxCompare), ex.id)}
	value := []param{withExample(repeatedText("drive", "device key, repeated; a value without a colon is part of a name, whose matching drives the answer's found lists", maxValueDrives), ex.key),
		{name: "price", in: "query", desc: "price of the drive at the same position, repeated; a drive without one is listed unpriced",
			schema: &Schema{Type: "array", MaxItems: intp(maxValueDrives), Items: &Schema{Type: "number", ExclusiveMinimum: floatp(0), Maximum: floatp(1e9)}}},
		testParam("mb_test", "test whose MB/s is priced"), testParam("iops_test", "test whose IOPS is priced")}
	get := func(id, summary string, params []param, resp any, statuses ...int) *operation {
		var t reflect.Type
		if resp != nil {
			t = reflect.TypeOf(resp)
		}
		if len(params) > 0 {
			statuses = append([]int{http.StatusBadRequest}, statuses...)
		}
		return &operation{id: id, summary: summary, params: params, ok: http.StatusOK, resp: t, statuses: statuses}
	}
	submit := &operation{id: "submitResult", summary: "Upload one result record exactly as `iomark run --json` prints it (at most 1 MiB, Content-Type application/json). 201 once stored; 200 with duplicate true when the same record was stored before",
		upload: true, ok: http.StatusCreated, resp: reflect.TypeOf(submitted{}),
		statuses: []int{http.StatusOK, http.StatusBadRequest, http.StatusRequestTimeout, http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType},
		links: map[string]link{
			"GetResult":    {operationID: "getResult", parameters: map[string]string{"id": "$response.body#/id"}},
			"GetResultRaw": {operationID: "getResultRaw", parameters: map[string]string{"id": "$response.body#/id"}},
		}}
	return []route{
		{method: "GET", pattern: "/{$}", handler: s.asPage(view(homePage), s.homeData), params: home},
		{method: "GET", pattern: "/search", handler: s.asPage(view(searchPage), s.searchData), params: search},
		{method: "GET", pattern: "/drive", handler: s.drivePage, params: drive},
		{method: "GET", pattern: "/model", handler: s.asPage(view(modelPage), s.modelData), params: model},
		{method: "GET", pattern: "/result/{id}", handler: s.asPage(view(resultPage), s.resultData), params: []param{idParam}},
		{method: "GET", pattern: "/result/{id}/raw", handler: s.resultRaw, params: []param{idParam}},
		{method: "GET", pattern: "/board", handler: s.asPage(view(boardPage), s.boardData), params: board},
		{method: "GET", pattern: "/compare", handler: s.asPage(view(comparePage), s.compareData), params: compare},
		{method: "GET", pattern: "/value", handler: s.asPage(view(valuePage), s.valueData), params: value},
		{method: "GET", pattern: "/static/{file}", handler: s.static},

		{method: "GET", pattern: "/api/v1/home", handler: s.asAPI(s.homeData),
			op: get("getHome", "The leaderboard of one board family (drives ranked per class by score, filtered by board, class and link) and the latest results", home, HomeData{})},
		{method: "GET", pattern: "/api/v1/search", handler: s.asAPI(s.searchData),
			op: get("search", "Results and drives whose brand or model match q", search, SearchData{})},
		{method: "GET", pattern: "/api/v1/drive", handler: s.asAPI(s.driveData),
			op: get("getDrive", "All results of one drive: per test and per board/link medians and spread, distribution", drive, DriveData{}, http.StatusNotFound)},
		{method: "GET", pattern: "/api/v1/model", handler: s.asAPI(s.modelData),
			op: get("getModel", "One drive model (maker, product line, capacity): its results split by board family and link setting, each group's medians and place in its family's ranking", model, ModelData{}, http.StatusNotFound)},
		{method: "POST", pattern: "/api/v1/results", handler: s.submitAPI, op: submit},
		{method: "GET", pattern: "/api/v1/results/{id}", handler: s.asAPI(s.resultData),
			op: get("getResult", "One result: record, flags, whether it counts, published source, throughput series (410 when the operator hid it)", []param{withExample(idParam, ex.id)}, ResultData{}, http.StatusNotFound, http.StatusGone)},
		{method: "DELETE", pattern: "/api/v1/results/{id}", handler: s.deleteAPI,
			op: &operation{id: "deleteResult", summary: "Delete one of your results: give the delete_token its upload was answered with as Authorization: Bearer TOKEN. The result leaves every page, list and ranking (its pages answer 410); deleting again answers the same",
				params: []param{idParam}, ok: http.StatusOK, resp: reflect.TypeOf(Deleted{}),
				statuses: []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}}},
		{method: "GET", pattern: "/api/v1/results/{id}/raw", handler: s.resultRaw,
			op: get("getResultRaw", "The stored record JSON, byte for byte, as a download", []param{withExample(idParam, ex.id)}, nil, http.StatusNotFound, http.StatusGone)},
		{method: "GET", pattern: "/api/v1/board", handler: s.asAPI(s.boardData),
			op: get("getBoard", "One board: its drives ranked per class, its results", board, BoardData{}, http.StatusNotFound)},
		{method: "GET", pattern: "/api/v1/compare", handler: s.asAPI(s.compareData),
			op: get("compare", "Up to 4 drives (medians) and up to 4 results side by side, one row per test", compare, CompareData{}, http.StatusNotFound, http.StatusGone)},
		{method: "GET", pattern: "/api/v1/value", handler: s.asAPI(s.valueData),
			op: get("getValue", "Price per MB/s and per IOPS from user-supplied prices", value, ValueData{}, http.StatusNotFound)},
		{method: "GET", pattern: healthzPath, handler: s.healthz,
			op: get("getHealth", "Whether the server's database answers: 200 when it does, 503 with Retry-After when not. Never rate-limited or queued; answers within 2 s", nil, Health{})},
		{method: "GET", pattern: "/api/v1/openapi.json", handler: s.openAPI,
			op: get("getOpenAPI", "This document", nil, nil)},
	}
}
