package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/iomark/iomark/internal/profile"
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

// Two generated results in three carry the quick profile's score, as the server computes it
// from their tests; the third has none, so the leaderboard ranks it by its sequential read.
func TestGeneratedScores(t *testing.T) {
	g := gen{drives: 50}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 6 {
		r := g.record(i, rng)
		want := i%3 != 2
		if got := r.Scores.Iomark != nil; got != want {
			t.Fatalf("result %d (%s): scored %v, want %v", i, r.Profile, got, want)
		}
		if !want {
			continue
		}
		s, ok := profile.IomarkScore(r.Tests)
		if !ok || s != *r.Scores.Iomark || s <= 0 {
			t.Fatalf("result %d: score %v, the profile's formula gives %v (%v)", i, *r.Scores.Iomark, s, ok)
		}
	}
}
