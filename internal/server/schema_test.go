package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// TestSchemaOneRecordsStillAccepted: a record as iomark made them before warnings had codes
// (schema 1, warnings as bare sentences) is accepted, and its result page shows the
// sentences; a schema 2 record's warnings show their message.
func TestSchemaOneRecordsStillAccepted(t *testing.T) {
	ts := startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1})
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
