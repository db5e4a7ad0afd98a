package health

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadHex reads a fixture written by testdata/mkfixtures.py: "OFFSET: hex bytes" lines, "#"
// comments.
func loadHex(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		_, rest, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s: bad line %q", name, line)
		}
		b, err := hex.DecodeString(strings.ReplaceAll(rest, " ", ""))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, b...)
	}
	return out
}

// ataFixture splits a fixture into its sectors.
func ataFixture(t testing.TB, name string) ataAnswers {
	b := loadHex(t, "ata/"+name+".hex")
	if len(b)%512 != 0 || len(b) < 3*512 {
		t.Fatalf("%s: %d bytes", name, len(b))
	}
	a := ataAnswers{identify: b[:512], data: b[512:1024], thresholds: b[1024:1536]}
	if len(b) >= 4*512 {
		a.sct = b[1536:2048]
	}
	return a
}
