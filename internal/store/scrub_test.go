package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestScrubMigration(t *testing.T) { onEachBackend(t, testScrubMigration) }

// Uploaded rows stored before the server dropped private fields lose them when the scrub
// migration runs; local rows keep theirs.
func testScrubMigration(t *testing.T, dsn string) {
	ctx := context.Background()
	s := openT(t, dsn)
	p, err := s.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, scrubVersion-1); err != nil {
		t.Fatalf("migrating down below the scrub: %v", err)
	}
	private := `{"id":"%s","target":{"path":"/home/alice/bench","kind":"dir"},` +
		`"mount":{"mount_point":"/media/alice/CARD","source":"/dev/sda1","options":"rw,uid=1000,username=alice"},` +
		`"tests":[{"name":"a","network":{"peer":"192.0.2.9","mb_per_s":11}}],"findings":[{"id":"x","message":"/media/alice/CARD is slow"}]}`
	for i, id := range []string{"up1", "up2", "local1"} {
		run, tests := sampleRun(id, t0.Add(time.Duration(i)*time.Second), "Samsung", "Evo")
		run.Record = []byte(strings.Replace(private, "%s", id, 1))
		run.Source = SourceSubmitted
		if id == "local1" {
			run.Source = SourceLocal
		}
		if err := s.SaveRun(ctx, run, tests); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("migrating up through the scrub: %v", err)
	}
	for _, id := range []string{"up1", "up2"} {
		run, _, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rec := string(run.Record)
		for _, gone := range []string{"alice", "192.0.2.9", "/dev/sda1", "uid="} {
			if strings.Contains(rec, gone) {
				t.Errorf("uploaded run %s still holds %q: %s", id, gone, rec)
			}
		}
		if !strings.Contains(rec, `"kind":"dir"`) || !strings.Contains(rec, `"mb_per_s":11`) {
			t.Errorf("uploaded run %s lost what is published: %s", id, rec)
		}
	}
	local, _, err := s.GetRun(ctx, "local1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(local.Record), "/home/alice/bench") {
		t.Errorf("the local run lost its own path: %s", local.Record)
	}
}
