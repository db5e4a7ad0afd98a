package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/iomark/iomark/internal/server"
)

// A small run of the whole benchmark: fill, ingest through the API, every page. It fails if any
// upload or page request fails (run checks each status), so a page the benchmark names that
// the server no longer serves, or answers with an error, is caught before a long run.
func TestSmallRun(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "bench.db")
	c := config{dsn: dsn, n: 600, viaHTTP: 100, workers: 4, uploaders: 4, drives: 50, requests: 5, memoryMiB: server.DefaultMemoryMiB}
	if err := run(c); err != nil {
		t.Fatal(err)
	}
	// Again on the same database: the fill is skipped and ingest continues with new ids.
	c.uploaders = 8
	if err := run(c); err != nil {
		t.Fatalf("second run on the filled database: %v", err)
	}
}

// TestMain lets the test binary be the server process of a sweep, as the command is.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		main()
		return
	}
	os.Exit(m.Run())
}

// A small sweep: the server process starts, answers every page from a few clients at once, and
// its peak resident set is read.
func TestSmallSweep(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "bench.db")
	c := config{dsn: dsn, n: 300, viaHTTP: 0, workers: 2, drives: 30, memoryMiB: 64, sweep: []int{2, 4}, perClient: 3}
	if err := run(c); err != nil {
		t.Fatal(err)
	}
}
