package store

import (
	"context"
	"errors"
	"testing"
)

func TestDeleteByToken(t *testing.T) { onEachBackend(t, testDeleteByToken) }

// A run saved with a token's hash is deleted (hidden, and recorded as deleted) by that hash
// only; a duplicate save keeps the first hash; a run without one cannot be deleted by token.
func testDeleteByToken(t *testing.T, dsn string) {
	ctx := context.Background()
	s := openT(t, dsn)
	run, tests := sampleRun("del-1", t0, "Samsung", "Evo")
	run.Source = SourceSubmitted
	other, otherTests := sampleRun("del-2", t0, "Samsung", "Pro")
	run.DeleteTokenSHA256 = "aa"
	errs := s.SaveBatch(ctx, []BatchRun{{Run: run, Tests: tests}, {Run: other, Tests: otherTests}})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The same record again, with another hash: a duplicate, and the first hash stays.
	run.DeleteTokenSHA256 = "bb"
	if errs := s.SaveBatch(ctx, []BatchRun{{Run: run, Tests: tests}}); !errors.As(errs[0], new(*DuplicateError)) {
		t.Fatalf("saving again: %v, want a duplicate", errs[0])
	}
	if _, err := s.DeleteByToken(ctx, "del-1", "bb"); !errors.Is(err, ErrBadToken) {
		t.Errorf("the duplicate's hash deleted the run: %v", err)
	}
	if _, err := s.DeleteByToken(ctx, "del-2", "aa"); !errors.Is(err, ErrBadToken) {
		t.Errorf("a run saved without a token: %v, want ErrBadToken", err)
	}
	if _, err := s.DeleteByToken(ctx, "nope", "aa"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown run: %v, want ErrNotFound", err)
	}
	if n, _ := s.CountRuns(ctx, Filter{}); n != 2 {
		t.Fatalf("%d runs listed before the deletion, want 2", n)
	}
	at, err := s.DeleteByToken(ctx, "del-1", "aa")
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.DeleteByToken(ctx, "del-1", "aa")
	if err != nil || !again.Equal(at) {
		t.Errorf("deleting again: %v at %v, want the first time %v", err, again, at)
	}
	got, _, err := s.GetRun(ctx, "del-1")
	if err != nil || got.Moderation != ModerationHidden {
		t.Errorf("the deleted run: moderation %q, %v; want hidden", got.Moderation, err)
	}
	if n, _ := s.CountRuns(ctx, Filter{}); n != 1 {
		t.Errorf("%d runs listed after the deletion, want 1", n)
	}
	del, err := s.DeletedAt(ctx, []string{"del-1", "del-2"})
	if err != nil || len(del) != 1 || !del["del-1"].Equal(at) {
		t.Errorf("DeletedAt = %v, %v", del, err)
	}
	sub := Submission{Server: "https://r.example", ResultID: "del-1", RunID: "del-1", DeleteToken: "tok", URL: "https://r.example/result/del-1", SubmittedAt: t0}
	if err := s.SaveSubmission(ctx, sub); err != nil {
		t.Fatal(err)
	}
	if back, err := s.FindSubmission(ctx, sub.Server, "del-1"); err != nil || back != sub {
		t.Errorf("FindSubmission = %+v, %v; want %+v", back, err, sub)
	}
	if _, err := s.FindSubmission(ctx, "https://other.example", "del-1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another server's submission: %v", err)
	}
}
