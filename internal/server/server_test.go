package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/testkit/pg"
	"github.com/iomark/iomark/internal/upload"
)

// newDSN gives each test an empty database of the back end under test.
type newDSN func(t *testing.T) string

func sqliteDSN(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "results.db") }

func TestServerSQLite(t *testing.T) { runSuite(t, sqliteDSN) }

func TestServerPostgres(t *testing.T) { runSuite(t, postgresDSN(t)) }

// postgresDSN starts one PostgreSQL for a suite and gives each of its tests an empty database there.
func postgresDSN(t *testing.T) newDSN {
	srv := pg.Start(t)
	return func(t *testing.T) string { return pg.NewDatabase(t, srv) }
}

// runSuite is the server suite every back end must pass unchanged.
func runSuite(t *testing.T, dsn newDSN) {
	for _, tt := range []struct {
		name string
		fn   func(t *testing.T, ts *testServer)
	}{
		{"SubmitAndShow", testSubmitAndShow},
		{"Duplicates", testDuplicates},
		{"BadInput", testBadInput},
		{"Escaping", testEscaping},
		{"Published", testPublished},
		{"SortAndPage", testSortAndPage},
		{"CompareAndValue", testCompareAndValue},
		{"FlagsAboveCeiling", testFlagsAboveCeiling},
		{"SustainedShown", testSustainedShown},
		{"SubmitClient", testSubmitClient},
		{"Poisoning", testPoisoning},
		{"ResponsesMatchDocument", testResponsesMatchDocument},
		{"Contract", testContract},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, startServer(t, dsn(t), Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1}))
		})
	}
	// Tests that start their server with options of their own.
	runOnDatabases(t, dsn, []databaseTest{
		{"AbusePrefixes", testAbusePrefixes},
		{"HiddenLeavesAtOnce", testHiddenLeavesAtOnce},
		{"Gate", testGate},
		{"DiskFull", testDiskFull},
	})
}

// databaseTest is a subtest that starts its own server on the database it is given.
type databaseTest struct {
	name string
	fn   func(t *testing.T, dsn string)
}

// runOnDatabases runs each test as a subtest on an empty database of its own.
func runOnDatabases(t *testing.T, dsn newDSN, tests []databaseTest) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, dsn(t)) })
	}
}

type testServer struct {
	*httptest.Server
	st *store.Store
}

func startServer(t *testing.T, dsn string, opts Options) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// As iomark serve does without --base-url: permalinks name the address the server listens on.
	ts := httptest.NewUnstartedServer(nil)
	if opts.BaseURL == "" {
		opts.BaseURL = "http://" + ts.Listener.Addr().String()
	}
	s, err := New(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return &testServer{ts, st}
}

// sampleRecord is a record shaped as `iomark run --json` prints it. The figures are placeholders
// for server tests, not measurements.
func sampleRecord(id, vendor, model, board string, seqMBPerS float64) *record.Run {
	pct := seqMBPerS / 45 * 100
	return &record.Run{SchemaVersion: record.SchemaVersion, ID: id,
		CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), ToolVersion: "test", Profile: "quick",
		Host:          &probe.Board{Model: board, Revision: "c03114"},
		Device:        &probe.Device{Name: "mmcblk0", Class: probe.ClassMicroSD, Vendor: vendor, Model: model, CapacityBytes: 63864569856, SerialHash: "0123456789abcdef"},
		SD:            &probe.SD{Type: "SD", ManfID: 3, OEMID: "SD", Name: model, Timing: "DDR50", ClockHz: 50_000_000, BusWidthBits: 4},
		Link:          []probe.Hop{{Bus: "sd", Name: "mmc0", SpeedMbps: 400, CeilingMBPerS: 45, CeilingBasis: "SDR104 at 100 MHz"}},
		CeilingMBPerS: 45,
		Tests: []record.Test{
			{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, MBPerS: seqMBPerS, IOPS: seqMBPerS, Primary: "mb_per_s", Runs: 3, CI95Pct: 1.5, CeilingPct: &pct,
				Series: []engine.Point{{TS: 1, MBPerS: seqMBPerS}, {TS: 2, MBPerS: seqMBPerS - 1}}},
			{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, IOPS: 2600, MBPerS: 10.65, Primary: "iops", Runs: 3,
				LatUS: record.Latency{P50: 380, P99: 900, Max: 2000}},
		},
		Findings: []record.Finding{{ID: "sd-bus-slow", Severity: record.SeverityWarn, Message: "card runs below its bus mode"}},
	}
}

func encode(t *testing.T, r *record.Run) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (ts *testServer) post(t *testing.T, body []byte) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(ts.URL+"/api/v1/results", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// startUnlimited is a server without rate limits on a new SQLite database.
func startUnlimited(t *testing.T) *testServer {
	t.Helper()
	return startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1})
}

// startSeededServer is startUnlimited's server once it holds the published results.
func startSeededServer(t *testing.T) *testServer {
	t.Helper()
	ts := startUnlimited(t)
	if _, err := SeedPublished(context.Background(), ts.st); err != nil {
		t.Fatal(err)
	}
	return ts
}

// mustPost uploads r and fails the test unless the server stores it (201).
func (ts *testServer) mustPost(t *testing.T, r *record.Run) {
	t.Helper()
	if c, out := ts.post(t, encode(t, r)); c != 201 {
		t.Fatalf("POST %s: %d %v", r.ID, c, out)
	}
}

func (ts *testServer) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, b := fetch(t, ts.URL+path)
	return resp.StatusCode, string(b)
}

// fetch GETs url; see roundTrip.
func fetch(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return roundTrip(t, req)
}

// retryLater reports whether resp is a 503 with Retry-After: busy, full or without its
// database, and saying when to try again.
func retryLater(resp *http.Response) bool {
	return resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != ""
}

// roundTrip sends req and returns the answer with its body read and closed; a request that
// gets no answer fails the test.
func roundTrip(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

func (ts *testServer) getJSON(t *testing.T, path string, v any) int {
	t.Helper()
	code, body := ts.get(t, path)
	if code == http.StatusOK {
		if err := json.Unmarshal([]byte(body), v); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, body)
		}
	}
	return code
}

func testSubmitAndShow(t *testing.T, ts *testServer) {
	rec := sampleRecord("run-1", "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 40)
	raw := encode(t, rec)
	code, out := ts.post(t, raw)
	if code != http.StatusCreated || out["id"] != "run-1" || out["url"] != ts.URL+"/result/run-1" {
		t.Fatalf("POST = %d %v", code, out)
	}
	var search SearchData
	if c := ts.getJSON(t, "/api/v1/search?q=sandisk+sn64", &search); c != 200 || len(search.List) != 1 || len(search.Drives) != 1 {
		t.Fatalf("search = %d %+v", c, search)
	}
	key := search.Drives[0].DeviceKey
	if key != rec.DeviceKey() {
		t.Errorf("drive key %q, want %q", key, rec.DeviceKey())
	}
	var drive DriveData
	if c := ts.getJSON(t, "/api/v1"+strings.TrimPrefix(drivePath(key), ""), &drive); c != 200 {
		t.Fatalf("drive = %d", c)
	}
	if drive.Results != 1 || drive.Tests[0].MBPerS.Median == 0 || len(drive.Chart.Counts) == 0 || len(drive.Groups) != 2 {
		t.Errorf("drive data %+v", drive)
	}
	for _, page := range []string{"/", "/search?q=sandisk", drivePath(key), "/result/run-1", boardPath(rec.Host.Model), "/compare", "/value"} {
		if c, body := ts.get(t, page); c != 200 || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s = %d", page, c)
		}
	}
	_, body := ts.get(t, "/result/run-1")
	for _, want := range []string{"seq-read-1m", "SDR104 at 100 MHz", "card runs below its bus mode", `id="sustained"`, "/result/run-1/raw"} {
		if !strings.Contains(body, want) {
			t.Errorf("result page lacks %q", want)
		}
	}
	// The raw download is the stored record, byte for byte.
	resp, got := fetch(t, ts.URL+"/result/run-1/raw")
	if !bytes.Equal(got, raw) || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("raw = %s (%s), want the uploaded record", got, resp.Header.Get("Content-Disposition"))
	}
	if c, _ := ts.get(t, "/api/v1/results/run-1/raw"); c != 200 {
		t.Errorf("API raw = %d", c)
	}
	var res ResultData
	if c := ts.getJSON(t, "/api/v1/results/run-1", &res); c != 200 || res.Record.ID != "run-1" || len(res.Series) != 2 {
		t.Errorf("result API = %d %+v", c, res)
	}
	var home HomeData
	if c := ts.getJSON(t, "/api/v1/home", &home); c != 200 || len(home.Latest) == 0 || home.Latest[0].ID != "run-1" {
		t.Errorf("home = %d %+v", c, home)
	}
	for _, path := range []string{"/result/nope", "/api/v1/results/nope", "/drive?key=nope", "/api/v1/board?name=nope", "/nope", "/api/v1/nope"} {
		if c, _ := ts.get(t, path); c != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, c)
		}
	}
}

func testDuplicates(t *testing.T, ts *testServer) {
	raw := encode(t, sampleRecord("dup", "Samsung", "EVO", "Pi 5", 80))
	if c, _ := ts.post(t, raw); c != http.StatusCreated {
		t.Fatalf("first POST = %d", c)
	}
	c, out := ts.post(t, raw)
	if c != http.StatusOK || out["duplicate"] != true || out["id"] != "dup" {
		t.Errorf("resubmission = %d %v, want 200 duplicate", c, out)
	}
	other := sampleRecord("dup", "Samsung", "EVO", "Pi 5", 81)
	if c, out := ts.post(t, encode(t, other)); c != http.StatusConflict || out["error"] == nil {
		t.Errorf("different record, same id = %d %v, want 409", c, out)
	}
}

func testBadInput(t *testing.T, ts *testServer) {
	good := func() *record.Run { return sampleRecord("bad-1", "A", "B", "Pi", 10) }
	mutate := func(f func(r *record.Run)) []byte {
		r := good()
		f(r)
		return encode(t, r)
	}
	huge := bytes.Repeat([]byte(" "), MaxBodyBytes+10)
	for _, tt := range []struct {
		name  string
		body  []byte
		code  int
		field string
	}{
		{"empty", nil, 400, ""},
		{"array", []byte(`[1]`), 400, ""},
		{"not json", []byte(`{"id":`), 400, ""},
		{"two values", append(encode(t, good()), []byte(`{}`)...), 400, ""},
		{"too large", append([]byte(`{"id":"x","pad":"`), append(huge, []byte(`"}`)...)...), 413, ""},
		{"wrong type", []byte(`{"schema_version":"one"}`), 400, "schema_version"},
		{"newer schema", mutate(func(r *record.Run) { r.SchemaVersion = 99 }), 400, "schema_version"},
		{"bad id", mutate(func(r *record.Run) { r.ID = "../etc" }), 400, "id"},
		{"negative MB/s", mutate(func(r *record.Run) { r.Tests[0].MBPerS = -1 }), 400, "tests[0].mb_per_s"},
		{"absurd IOPS", mutate(func(r *record.Run) { r.Tests[1].IOPS = 1e12 }), 400, "tests[1].iops"},
		{"qd", mutate(func(r *record.Run) { r.Tests[1].QD = 1 << 20 }), 400, "tests[1].qd"},
		{"raw serial", mutate(func(r *record.Run) { r.Device.SerialHash = "SN-1234-RAW" }), 400, "device.serial_hash"},
		{"long text", mutate(func(r *record.Run) { r.Device.Model = strings.Repeat("x", 2000) }), 400, "device.model"},
		{"bad test name", mutate(func(r *record.Run) { r.Tests[0].Name = "<b>" }), 400, "tests[0].name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, out := ts.post(t, tt.body)
			if c != tt.code {
				t.Fatalf("status %d, want %d (%v)", c, tt.code, out)
			}
			msg, _ := out["error"].(string)
			if msg == "" || strings.Contains(msg, "goroutine") || strings.Contains(msg, ".go:") {
				t.Errorf("error message %q: want a clear message, no trace", msg)
			}
			if tt.field != "" && out["field"] != tt.field {
				t.Errorf("field %v, want %s (%s)", out["field"], tt.field, msg)
			}
		})
	}
	if n, _ := ts.st.CountRuns(context.Background(), store.Filter{}); n != 0 {
		t.Errorf("%d runs stored from bad input", n)
	}
	for _, path := range []string{"/api/v1/search?sort=bogus", "/api/v1/search?page=0", "/api/v1/search?per_page=100000", "/api/v1/search?order=up", "/api/v1/search?page=100000&per_page=200",
		"/api/v1/drive", "/api/v1/compare?drive=a&drive=b&drive=c&drive=d&drive=e", "/api/v1/value?drive=a&price=-1", "/api/v1/value?drive=a&price=nan", "/search?q=%ff"} {
		if c, body := ts.get(t, path); c != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want 400: %s", path, c, body)
		}
	}
}

func testEscaping(t *testing.T, ts *testServer) {
	rec := sampleRecord("xss", "<script>alert(1)</script>", "<script>alert(2)</script>", "<img src=x onerror=alert(3)>", 20)
	if c, out := ts.post(t, encode(t, rec)); c != http.StatusCreated {
		t.Fatalf("POST = %d %v", c, out)
	}
	for _, page := range []string{"/", "/search?q=script", "/result/xss", drivePath(rec.DeviceKey()), boardPath(rec.Host.Model),
		"/compare?drive=" + url.QueryEscape(rec.DeviceKey()) + "&drive=" + url.QueryEscape(rec.DeviceKey()), "/search?q=%3Cscript%3Ealert(9)%3C/script%3E"} {
		c, body := ts.get(t, page)
		if c != 200 {
			t.Errorf("GET %s = %d", page, c)
			continue
		}
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("GET %s: markup from the record reached the page unescaped", page)
		}
		if page == "/result/xss" && !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("the model name is not shown as text")
		}
	}
}

func testPublished(t *testing.T, ts *testServer) {
	n, err := SeedPublished(context.Background(), ts.st)
	if err != nil || n == 0 {
		t.Fatalf("SeedPublished = %d, %v", n, err)
	}
	if again, err := SeedPublished(context.Background(), ts.st); err != nil || again != 0 {
		t.Errorf("second SeedPublished = %d, %v; want 0 (idempotent)", again, err)
	}
	var search SearchData
	if c := ts.getJSON(t, "/api/v1/search?source=published&per_page=200", &search); c != 200 || search.Pager.Total != n {
		t.Fatalf("published results = %d %d, want %d", c, search.Pager.Total, n)
	}
	id := search.List[0].ID
	_, body := ts.get(t, "/result/"+id)
	if !strings.Contains(body, "Published result") || !strings.Contains(body, "As printed") {
		t.Errorf("published result page does not show its source")
	}
	_, body = ts.get(t, "/")
	if !strings.Contains(body, `class="published"`) {
		t.Errorf("home does not mark published results")
	}
}

func testSortAndPage(t *testing.T, ts *testServer) {
	for i, v := range []string{"Kingston", "Lexar", "Samsung", "SanDisk", "Transcend"} {
		r := sampleRecord(fmt.Sprintf("s%d", i), v, "Card", "Pi 4", float64(10+i))
		r.CreatedAt = r.CreatedAt.Add(time.Duration(i) * time.Hour)
		if c, _ := ts.post(t, encode(t, r)); c != 201 {
			t.Fatal(c)
		}
	}
	var narrowed SearchData
	ts.getJSON(t, "/api/v1/search?capacity_gb=64&link=sd", &narrowed)
	if narrowed.Pager.Total != 5 {
		t.Errorf("64 GB on sd: %d results, want the 5 cards of 63.9e9 bytes", narrowed.Pager.Total)
	}
	for _, q := range []string{"capacity_gb=32", "capacity_gb=128", "link=usb"} {
		ts.getJSON(t, "/api/v1/search?"+q, &narrowed)
		if narrowed.Pager.Total != 0 {
			t.Errorf("%s: %d results, want none", q, narrowed.Pager.Total)
		}
	}
	if c, _ := ts.get(t, "/api/v1/search?capacity_gb=-1"); c != 400 {
		t.Errorf("negative capacity: %d", c)
	}
	var page SearchData
	ts.getJSON(t, "/api/v1/search?sort=vendor&order=asc&per_page=2&page=2", &page)
	if len(page.List) != 2 || page.List[0].Vendor != "Samsung" || page.Pager.Total != 5 || page.Pager.Pages != 3 || page.Pager.Next == "" || page.Pager.Prev == "" {
		t.Fatalf("page 2 = %+v", page)
	}
	var next SearchData
	ts.getJSON(t, "/api/v1"+page.Pager.Next, &next)
	if len(next.List) != 1 || next.List[0].Vendor != "Transcend" {
		t.Errorf("next page %+v", next.List)
	}
	_, body := ts.get(t, "/search?sort=date&order=desc")
	if i, j := strings.Index(body, "Transcend"), strings.Index(body, "Kingston"); i < 0 || j < 0 || i > j {
		t.Errorf("newest first: Transcend should come before Kingston")
	}
}

func testCompareAndValue(t *testing.T, ts *testServer) {
	a := sampleRecord("c1", "SanDisk", "Extreme", "Pi 4", 40)
	b := sampleRecord("c2", "Samsung", "PRO Plus", "Pi 4", 20)
	for _, r := range []*record.Run{a, b} {
		if c, _ := ts.post(t, encode(t, r)); c != 201 {
			t.Fatal(c)
		}
	}
	var cmp CompareData
	if c := ts.getJSON(t, "/api/v1/compare?drive="+url.QueryEscape(a.DeviceKey())+"&drive="+url.QueryEscape(b.DeviceKey()), &cmp); c != 200 || len(cmp.Columns) != 2 || len(cmp.Rows) != 2 {
		t.Fatalf("compare drives = %d %+v", c, cmp)
	}
	if cmp.Rows[0].Cells[0] == nil || cmp.Rows[0].Cells[1] == nil {
		t.Fatalf("cells %+v", cmp.Rows[0])
	}
	if c := ts.getJSON(t, "/api/v1/compare?result=c1&result=c2", &cmp); c != 200 || cmp.Kind != "result" || len(cmp.Columns) != 2 {
		t.Errorf("compare results = %d %+v", c, cmp)
	}
	var val ValueData
	if c := ts.getJSON(t, "/api/v1/value?drive="+url.QueryEscape(a.DeviceKey())+"&price=20&drive="+url.QueryEscape(b.DeviceKey())+"&price=10&mb_test=seq-read-1m&iops_test=rand-read-4k-qd1", &val); c != 200 || len(val.Rows) != 2 {
		t.Fatalf("value = %d %+v", c, val)
	}
	if got := *val.Rows[0].PricePerMBPerS; got != 0.5 {
		t.Errorf("price per MB/s = %v, want 20/40 = 0.5", got)
	}
	if got := *val.Rows[1].PricePerIOPS; got != 10.0/2600 {
		t.Errorf("price per IOPS = %v, want 10/2600", got)
	}
	if c, _ := ts.get(t, "/value?drive="+url.QueryEscape(a.DeviceKey())+"&price=20"); c != 200 {
		t.Errorf("value page = %d", c)
	}
}

func testSustainedShown(t *testing.T, ts *testServer) {
	rec := sampleRecord("sus", "Samsung", "T7", "Pi 5", 30)
	rec.Tests[0].Sustained = &record.Sustained{CliffFound: true, CliffAtBytes: 12e9, CliffAtS: 30, BeforeMBPerS: 400, AfterMBPerS: 120, DropPct: 70, WrittenBytes: 40e9}
	ts.mustPost(t, rec)
	_, body := ts.get(t, "/result/sus")
	for _, want := range []string{"Sustained write: seq-read-1m", "400.0 MB/s", "120.0 MB/s", "1 MiB"} {
		if !strings.Contains(body, want) {
			t.Errorf("result page lacks %q", want)
		}
	}
}

func testFlagsAboveCeiling(t *testing.T, ts *testServer) {
	rec := sampleRecord("fast", "Fake", "Card", "Pi 4", 90) // DDR50 at 50 MHz on 4 bits carries 45 MB/s
	c, out := ts.post(t, encode(t, rec))
	if c != 201 {
		t.Fatalf("a figure above the ceiling must be kept: %d %v", c, out)
	}
	if fl, _ := out["flags"].([]any); len(fl) != 1 || out["listed"] != false {
		t.Errorf("flags = %v, listed %v; want one above-ceiling, not listed", out["flags"], out["listed"])
	}
	_, body := ts.get(t, "/result/fast")
	if !strings.Contains(body, "above-ceiling") || !strings.Contains(body, "Not counted") {
		t.Errorf("result page does not show the flag and that the result is not counted")
	}
}

func testSubmitClient(t *testing.T, ts *testServer) {
	rec := encode(t, sampleRecord("cli-1", "SanDisk", "Ultra", "Pi 3", 20))
	var obj map[string]any
	_ = json.Unmarshal(rec, &obj)
	obj["host"].(map[string]any)["hostname"] = "secret-box"
	obj["hostname"] = "secret-box"
	obj["target"] = map[string]any{"path": "/home/alice-secret/bench", "kind": "dir"}
	obj["mount"] = map[string]any{"mount_point": "/media/alice-secret/CARD", "fstype": "ext4", "options": "rw"}
	withHost, _ := json.Marshal(obj)
	id, link, err := upload.Submit(context.Background(), ts.URL, withHost)
	if err != nil || id != "cli-1" || link != ts.URL+"/result/cli-1" {
		t.Fatalf("Submit = %q %q %v", id, link, err)
	}
	if _, _, err := upload.Submit(context.Background(), ts.URL, withHost); err != nil {
		t.Errorf("resubmitting: %v, want success (idempotent)", err)
	}
	run, _, err := ts.st.GetRun(context.Background(), "cli-1")
	if err != nil || bytes.Contains(run.Record, []byte("secret-box")) {
		t.Errorf("stored record holds the hostname: %s (%v)", run.Record, err)
	}
	if bytes.Contains(run.Record, []byte("alice-secret")) || !bytes.Contains(run.Record, []byte(`"ext4"`)) {
		t.Errorf("stored record holds a path naming the user, or lost the mount: %s", run.Record)
	}
	_, _, err = upload.Submit(context.Background(), ts.URL, []byte(`{"id":"x"}`))
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("bad record: err = %v", err)
	}
	if _, _, err := upload.Submit(context.Background(), "ftp://x", rec); err == nil {
		t.Error("an ftp URL was accepted")
	}
	if upload.MaxRecordBytes != MaxBodyBytes {
		t.Errorf("the upload client sends records up to %d bytes, the server takes %d", upload.MaxRecordBytes, MaxBodyBytes)
	}
}

func TestHistogram(t *testing.T) {
	d := histogram("t", []float64{1, 2, 3, 4})
	if fmt.Sprint(d.Counts) != "[2 2]" || len(d.Edges) != 3 {
		t.Errorf("histogram %+v", d)
	}
	d = histogram("t", []float64{5, 5, 5})
	if fmt.Sprint(d.Counts) != "[3]" {
		t.Errorf("equal values %+v", d)
	}
	st := statsOf([]float64{4, 1, 3, 2})
	if st.Median != 2.5 || st.Min != 1 || st.Max != 4 || st.Count != 4 {
		t.Errorf("stats %+v", st)
	}
}

// TestNoStackTraceToClients makes every handler panic (no store) and checks the answer is a
// plain 500 with no trace, as JSON under /api/ and as a page elsewhere.
func TestNoStackTraceToClients(t *testing.T) {
	s, err := New(nil, Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, path := range []string{"/api/v1/home", "/", "/api/v1/search?q=x"} {
		resp, body := fetch(t, ts.URL+path)
		if resp.StatusCode != 500 || strings.Contains(string(body), "goroutine") || strings.Contains(string(body), ".go:") || !strings.Contains(string(body), "internal error") {
			t.Errorf("GET %s = %d %q", path, resp.StatusCode, body)
		}
	}
}

// TestConcurrentUploadsShareCommits uploads from many clients at once: every upload is answered
// and stored exactly once, duplicates among them included.
func TestConcurrentUploadsShareCommits(t *testing.T) {
	ts := startUnlimited(t)
	const clients, each = 8, 20
	codes := make(chan int, clients*each)
	done := make(chan struct{})
	for c := range clients {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				// Clients 0 and 1 upload the same runs: one gets 201, the other 200.
				id := fmt.Sprintf("cc%d-%d", c, i)
				if c < 2 {
					id = fmt.Sprintf("shared-%d", i)
				}
				resp, err := http.Post(ts.URL+"/api/v1/results", "application/json",
					bytes.NewReader(encode(t, sampleRecord(id, "V", "M", "Pi", 10))))
				if err != nil {
					codes <- 0
					continue
				}
				resp.Body.Close()
				codes <- resp.StatusCode
			}
		}()
	}
	for range clients {
		<-done
	}
	close(codes)
	n := map[int]int{}
	for c := range codes {
		n[c]++
	}
	if n[201] != (clients-1)*each || n[200] != each {
		t.Errorf("answers %v, want %d created and %d duplicates", n, (clients-1)*each, each)
	}
	if got, _ := ts.st.CountRuns(context.Background(), store.Filter{}); got != (clients-1)*each {
		t.Errorf("%d runs stored, want %d", got, (clients-1)*each)
	}
}

func TestUploadAfterCloseAnswers503(t *testing.T) {
	st, err := store.Open(context.Background(), sqliteDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(st, Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	s.Close()
	resp, err := http.Post(ts.URL+"/api/v1/results", "application/json", bytes.NewReader(encode(t, sampleRecord("late", "V", "M", "Pi", 1))))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !retryLater(resp) {
		t.Errorf("upload after Close = %s", resp.Status)
	}
}
