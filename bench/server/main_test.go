package main

import (
	"path/filepath"
	"testing"
)

// A small run of the whole benchmark: fill, ingest through the API, every page. It fails if any
// upload or page request fails (run checks each status), so a page the benchmark names that
// the server no longer serves, or answers with an error, is caught before a long run.
func TestSmallRun(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "bench.db")
	if err := run(dsn, 600, 100, 4, 4, 50, 5, false); err != nil {
		t.Fatal(err)
	}
	// Again on the same database: the fill is skipped and ingest continues with new ids.
	if err := run(dsn, 600, 100, 4, 8, 50, 5, false); err != nil {
		t.Fatalf("second run on the filled database: %v", err)
	}
}
