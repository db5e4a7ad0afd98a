package server

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/record"
)

// Every number of an upload has a range, every serial hash the hash's pattern, every limit names
// a field, every pattern compiles.
func TestUploadSchemaBoundsEveryNumber(t *testing.T) {
	set := apiSchemas()
	if set.err != nil {
		t.Fatal(set.err)
	}
	if len(set.missing) > 0 {
		sort.Strings(set.missing)
		t.Errorf("limits.go and record.Run disagree (add a range for each number and serialPattern for each serial hash, drop limits of gone fields):\n%s", strings.Join(set.missing, "\n"))
	}
}

// docs/result-record.md names every top-level and per-test key of the record the server
// accepts, and no other: the page, the Go type and the schema agree.
func TestResultRecordDocAgrees(t *testing.T) {
	doc, err := os.ReadFile("../../docs/result-record.md")
	if err != nil {
		t.Fatal(err)
	}
	set := apiSchemas()
	top := set.comps[strings.TrimPrefix(set.upload.Ref, refPrefix)]
	test := set.comps.resolve(top.Properties["tests"].Items)
	tables := strings.Split(string(doc), "\n| key |")
	if len(tables) < 3 {
		t.Fatal("docs/result-record.md: want a key table for the record and one for a test")
	}
	keysOf := func(table string) []string {
		var out []string
		for _, line := range strings.Split(table, "\n")[2:] {
			if !strings.HasPrefix(line, "| ") {
				break
			}
			first := strings.Split(line, "|")[1]
			for _, m := range regexp.MustCompile("`([a-z0-9_]+)`").FindAllStringSubmatch(first, -1) {
				out = append(out, m[1])
			}
		}
		sort.Strings(out)
		return out
	}
	for _, c := range []struct {
		name   string
		table  string
		schema *Schema
	}{{"record", tables[1], top}, {"test", tables[2], test}} {
		var props []string
		for k := range c.schema.Properties {
			props = append(props, k)
		}
		sort.Strings(props)
		if got := keysOf(c.table); !slices.Equal(got, props) {
			t.Errorf("%s keys: docs/result-record.md lists %v\nthe schema (record.Run) has %v", c.name, got, props)
		}
	}
}

func sampleBody(t *testing.T, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(encode(t, sampleRecord("chk-1", "SanDisk", "Ultra", "Pi 4", 20)), &m); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckUpload(t *testing.T) {
	schemaV := fmt.Sprintf(`"schema_version":%d`, record.SchemaVersion)
	test0 := func(m map[string]any) map[string]any { return m["tests"].([]any)[0].(map[string]any) }
	for _, c := range []struct {
		name   string
		body   []byte
		field  string // "" with ok
		ok     bool
		errSub string
	}{
		{"a record as iomark prints it", sampleBody(t, nil), "", true, ""},
		{"nil slices are null", encode(t, &record.Run{SchemaVersion: 1, ID: "x", CreatedAt: time.Now(), Profile: "quick"}), "", true, ""},
		{"unknown field", sampleBody(t, func(m map[string]any) { m["hostname"] = "box" }), "hostname", false, "not a field"},
		{"unknown nested field", sampleBody(t, func(m map[string]any) { m["host"].(map[string]any)["hostname"] = "box" }), "host.hostname", false, "not a field"},
		{"missing id", sampleBody(t, func(m map[string]any) { delete(m, "id") }), "id", false, "missing"},
		{"reserved id", sampleBody(t, func(m map[string]any) { m["id"] = "published-geerling-1" }), "id", false, "reserved"},
		{"a newer schema", sampleBody(t, func(m map[string]any) { m["schema_version"] = record.SchemaVersion + 1 }), "schema_version", false, "out of range"},
		{"schema version written 2.0 (a whole number)", []byte(strings.Replace(string(sampleBody(t, nil)), schemaV, schemaV+".0", 1)), "", true, ""},
		{"schema version 2.5", []byte(strings.Replace(string(sampleBody(t, nil)), schemaV, schemaV+".5", 1)), "schema_version", false, "whole number"},
		{"a huge whole number", sampleBody(t, func(m map[string]any) { test0(m)["bytes"] = json.Number("1000000000000000001") }), "tests[0].bytes", false, "out of range"},
		{"negative CPUs", sampleBody(t, func(m map[string]any) { m["host"].(map[string]any)["cpus"] = -1 }), "host.cpus", false, "out of range"},
		{"price -1e308", sampleBody(t, func(m map[string]any) { m["price_usd"] = -1e308 }), "price_usd", false, "out of range"},
		{"cpu_pct 1e308", sampleBody(t, func(m map[string]any) { test0(m)["cpu_pct"] = 1e308 }), "tests[0].cpu_pct", false, "out of range"},
		{"nr_requests -5", sampleBody(t, func(m map[string]any) { m["queue"] = map[string]any{"nr_requests": -5} }), "queue.nr_requests", false, "out of range"},
		{"overflowing number", []byte(strings.Replace(string(sampleBody(t, nil)), `"duration_s":0`, `"duration_s":1e400`, 1)), "duration_s", false, "out of range"},
		{"bad date", sampleBody(t, func(m map[string]any) { m["created_at"] = "yesterday" }), "created_at", false, "RFC 3339"},
		{"null where a number goes", sampleBody(t, func(m map[string]any) { m["duration_s"] = nil }), "duration_s", false, "expected number"},
		{"null for a whole object", sampleBody(t, func(m map[string]any) { m["host"] = nil }), "host", false, "expected"},
		{"a name too long for a link", sampleBody(t, func(m map[string]any) { m["host"].(map[string]any)["model"] = strings.Repeat("é", 129) }), "host.model", false, "129 characters"},
		{"a bad primary", sampleBody(t, func(m map[string]any) { test0(m)["primary"] = "bananas" }), "tests[0].primary", false, "not one of"},
		{"a raw serial", sampleBody(t, func(m map[string]any) { m["device"].(map[string]any)["serial_hash"] = "SN123" }), "device.serial_hash", false, "form"},
		{"a key twice", []byte(`{"id":"a","id":"b"}`), "id", false, "twice"},
		{"an array", []byte(`[1]`), "", false, "expected object"},
		{"two values", append(sampleBody(t, nil), '{', '}'), "", false, "more than one"},
		{"truncated", sampleBody(t, nil)[:40], "", false, ""},
		{"not UTF-8", []byte("{\"id\":\"\xff\"}"), "", false, "UTF-8"},
		{"too many tests", sampleBody(t, func(m map[string]any) {
			var tests []any
			for range maxTests + 1 {
				tests = append(tests, map[string]any{"name": "t"})
			}
			m["tests"] = tests
		}), "tests", false, "more than 500"},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, err := decodeUpload(c.body)
			if c.ok {
				if err != nil || run == nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			fe, isField := err.(*fieldError)
			if !isField {
				t.Fatalf("err = %v (%T), want a *fieldError", err, err)
			}
			if fe.Field != c.field && c.field != "" || !strings.Contains(fe.Error(), c.errSub) {
				t.Errorf("err = %q (field %q), want field %q and %q", fe.Error(), fe.Field, c.field, c.errSub)
			}
		})
	}
}

// Whatever the body, checking does not panic, and a body it accepts decodes as a record.
func FuzzCheckUpload(f *testing.F) {
	f.Add([]byte(`{"schema_version":1,"id":"a","created_at":"2026-01-01T00:00:00Z","profile":"quick","tests":[{"name":"t","mb_per_s":1}]}`))
	f.Add([]byte(`{"id":["x"]}`))
	f.Add([]byte(`{"tests":[{"series":[{"t_s":1},{"t_s":"2"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		set := apiSchemas()
		normal, err := checkAndNormalize(set.comps, set.upload, body)
		if err != nil {
			return
		}
		var run record.Run
		if err := json.Unmarshal(normal, &run); err != nil {
			t.Errorf("accepted %q (written again %q) but it does not decode: %v", body, normal, err)
		}
		var a, b any
		if json.Unmarshal(body, &a) != nil || json.Unmarshal(normal, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("writing %q again changed its value: %q", body, normal)
		}
	})
}

// TestSchemaOneRecordsStillAccepted: a record as iomark made them before warnings had codes
// (schema 1, warnings as bare sentences) is accepted, and its result page shows the
// sentences; a schema 2 record's warnings show their message.
func TestSchemaOneRecordsStillAccepted(t *testing.T) {
	ts := startUnlimited(t)
	var v1 map[string]any
	if err := json.Unmarshal(encode(t, sampleRecord("v1", "SanDisk", "Ultra", "Pi 4", 40)), &v1); err != nil {
		t.Fatal(err)
	}
	v1["schema_version"] = 1
	v1["warnings"] = []string{"seq-read-1m: measured 2 times (wanted at least 3) within its 11s budget"}
	body, _ := json.Marshal(v1)
	if code, out := ts.post(t, body); code != 201 {
		t.Fatalf("schema 1 record: %d %v", code, out)
	}
	v2 := sampleRecord("v2", "SanDisk", "Ultra", "Pi 4", 40)
	v2.Warnings = []record.Warning{{Code: "few-runs", Message: "rand-read-4k-qd1: measured 2 times (wanted at least 3)"}}
	if code, out := ts.post(t, encode(t, v2)); code != 201 {
		t.Fatalf("schema 2 record: %d %v", code, out)
	}
	for id, want := range map[string]string{"v1": "measured 2 times (wanted at least 3) within its 11s budget", "v2": "rand-read-4k-qd1: measured 2 times"} {
		code, page := ts.get(t, "/result/"+id)
		if code != 200 || !strings.Contains(page, want) || strings.Contains(page, "{few-runs") {
			t.Errorf("result page of %s (%d) lacks the warning %q", id, code, want)
		}
	}
	v3 := sampleRecord("v3", "SanDisk", "Ultra", "Pi 4", 40)
	v3.SchemaVersion = record.SchemaVersion + 1
	if code, _ := ts.post(t, encode(t, v3)); code != 400 {
		t.Errorf("a schema newer than the server knows: %d, want 400", code)
	}
}
