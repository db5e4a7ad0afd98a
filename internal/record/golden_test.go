package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenRecords: a record of every schema version the decoder reads decodes and encodes
// back byte for byte as the JSON exporter writes it (indented, one newline), so the JSON shape
// of a record does not move when its types do. testdata/SOURCES.md says where each comes from.
func TestGoldenRecords(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "records", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden records (%v)", err)
	}
	versions := map[int]bool{}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Decode(want)
			if err != nil {
				t.Fatal(err)
			}
			versions[r.SchemaVersion] = true
			if prefix := fmt.Sprintf("schema%d-", r.SchemaVersion); !strings.HasPrefix(filepath.Base(file), prefix) {
				t.Errorf("schema %d record not named %s…", r.SchemaVersion, prefix)
			}
			assertEncodes(t, r, want)
		})
	}
	for v := 1; v <= SchemaVersion; v++ {
		if !versions[v] {
			t.Errorf("no golden record of schema %d", v)
		}
	}
}

// TestGoldenHealth: what drives reported (decoded from the health package's fixtures) encodes
// back byte for byte, the attribute tables included, which no golden record carries.
func TestGoldenHealth(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "health", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden health reports (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var h Health
			if err := json.Unmarshal(want, &h); err != nil {
				t.Fatal(err)
			}
			assertEncodes(t, &h, want)
		})
	}
}

func assertEncodes(t *testing.T, v any, want []byte) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("encodes differently from line %d: got %q, want %q", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("encodes to %d lines, want %d", len(gl), len(wl))
	}
}
