package refdata

import (
	"bytes"
	"os"
	"testing"
)

// sourceCSV is published-results.csv as the repository holds it.
func sourceCSV(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("published-results.csv")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEmbeddedCSVIsTheSource: the binary's gzipped copy holds exactly the CSV in the
// repository.
func TestEmbeddedCSVIsTheSource(t *testing.T) {
	embedded, err := publishedCSV()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(embedded, sourceCSV(t)) {
		t.Fatal("published-results.csv.gz does not hold published-results.csv: run go generate ./internal/refdata")
	}
}
