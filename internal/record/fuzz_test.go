package record

import (
	"encoding/json"
	"testing"
)

// FuzzDecode: any input decodes to a record or an error, never a panic, and a decoded
// record's warnings survive a round trip in schema 2's shape.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"schema_version": 2, "id": "r", "warnings": [{"code": "few-runs", "message": "m"}]}`,
		`{"schema_version": 1, "warnings": ["a sentence", "another"]}`,
		`{"warnings": [null, "", {"code": ""}]}`,
		`{"schema_version": 99}`, `[]`, `"x"`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data)
		if err != nil {
			return
		}
		raw, err := json.Marshal(r.Warnings)
		if err != nil {
			t.Fatalf("re-encoding warnings %+v: %v", r.Warnings, err)
		}
		var back []Warning
		if err := json.Unmarshal(raw, &back); err != nil || len(back) != len(r.Warnings) {
			t.Fatalf("warnings %s do not decode back: %v", raw, err)
		}
		for i := range back {
			if back[i] != r.Warnings[i] {
				t.Fatalf("warning %d: %+v became %+v", i, r.Warnings[i], back[i])
			}
		}
	})
}
