package store

import (
	"context"
	"testing"
)

// Every migration since 2 can be undone and redone on a database holding runs, and the kept
// tables then say again what runs says.
func TestMigrationsDownAndUp(t *testing.T) { onEachBackend(t, testMigrationsDownAndUp) }

func testMigrationsDownAndUp(t *testing.T, dsn string) {
	ctx := context.Background()
	s := openT(t, dsn)
	for i := range 12 {
		r, tests := variedRun(i)
		if err := s.SaveRun(ctx, r, tests); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 2); err != nil {
		t.Fatalf("migrating down to version 2: %v", err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("migrating up again: %v", err)
	}
	checkCounts(t, s)
	if n, err := s.CountRuns(ctx, Filter{Text: "samsung"}); err != nil || n != 3 {
		t.Errorf(`CountRuns("samsung") after down and up = %d, %v; want 3 (runs 0, 4, 8)`, n, err)
	}
}
