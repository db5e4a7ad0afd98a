package store

import (
	"context"
	"errors"
	"testing"
)

func TestSaveBatch(t *testing.T) { onEachBackend(t, testSaveBatch) }

func testSaveBatch(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	pre, preTests := sampleRun("pre", t0, "V", "Stored before")
	if err := s.SaveRun(ctx, pre, preTests); err != nil {
		t.Fatal(err)
	}
	item := func(id, model string) BatchRun {
		r, tests := sampleRun(id, t0, "V", model)
		return BatchRun{r, tests}
	}
	invalid := item("bad", "x")
	invalid.Run.Source = "nowhere"
	conflict := item("pre", "Another record")
	runs := []BatchRun{item("a", "A"), item("a", "A"), invalid, item("pre", "Stored before"), conflict, item("b", "B")}
	errs := s.SaveBatch(ctx, runs)
	var dup *DuplicateError
	switch {
	case errs[0] != nil:
		t.Errorf("new run: %v", errs[0])
	case !errors.As(errs[1], &dup) || dup.ID != "a":
		t.Errorf("same run twice in a batch: %v, want a duplicate", errs[1])
	case !errors.Is(errs[2], ErrInvalid):
		t.Errorf("invalid run: %v", errs[2])
	case !errors.Is(errs[3], ErrDuplicate):
		t.Errorf("run stored before: %v", errs[3])
	case !errors.Is(errs[4], ErrConflict):
		t.Errorf("other record under a stored id: %v", errs[4])
	case errs[5] != nil:
		t.Errorf("new run after the others: %v", errs[5])
	}
	for _, id := range []string{"a", "b"} {
		if _, tests, err := s.GetRun(ctx, id); err != nil || len(tests) != 2 {
			t.Errorf("run %s: %v, %d tests", id, err, len(tests))
		}
	}
	if n, _ := s.CountRuns(ctx, Filter{}); n != 3 {
		t.Errorf("%d runs stored, want pre, a, b", n)
	}

	// A run the database itself refuses costs only that run.
	if err := installRefuseTrigger(ctx, s, "refused"); err != nil {
		t.Fatal(err)
	}
	refused := item("refused", "R")
	refused.Tests[1].Name = "refused" // the trigger refuses a test of this name
	errs = s.SaveBatch(ctx, []BatchRun{item("c", "C"), refused, item("d", "D")})
	if errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Errorf("batch with a refused run: %v", errs)
	}
	for id, want := range map[string]bool{"c": true, "refused": false, "d": true} {
		_, tests, err := s.GetRun(ctx, id)
		if (err == nil) != want || want && len(tests) != 2 {
			t.Errorf("run %s stored = %v (%v), want %v", id, err == nil, err, want)
		}
	}
}
