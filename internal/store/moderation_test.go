package store

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// Flagged and moderated runs: kept and readable by id, but out of every list, count, grouping
// and figure until approved; moderation moves a run in and out of the kept counts at once.

func TestModeration(t *testing.T) { onEachBackend(t, testModeration) }

var someFlags = json.RawMessage(`[{"id":"above-link-ceiling","message":"990000 MB/s"}]`)

func testModeration(t *testing.T, dsn string) {
	ctx := context.Background()
	s := openT(t, dsn)
	var batch []BatchRun
	for i := range 12 {
		r, tests := variedRun(i)
		r.DeviceKey = "key-same"
		r.Board = "Raspberry Pi 4 Model B"
		if i%4 == 0 {
			r.Flags = someFlags // runs 0, 4, 8
		}
		batch = append(batch, BatchRun{r, tests})
	}
	for i, err := range s.SaveBatch(ctx, batch) {
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	checkCounts(t, s)

	listedIDs := func() []string {
		t.Helper()
		runs, err := s.ListRuns(ctx, Filter{Limit: MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range runs {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
		return ids
	}
	seen := func(view string, want int) {
		t.Helper()
		checkCounts(t, s)
		if ids := listedIDs(); len(ids) != want {
			t.Errorf("%s: %d listed runs %v, want %d", view, len(ids), ids, want)
		}
		for _, c := range []struct {
			name string
			n    func() (int, error)
		}{
			{"CountRuns", func() (int, error) { return s.CountRuns(ctx, Filter{}) }},
			{"CountRuns by text", func() (int, error) { return s.CountRuns(ctx, Filter{DeviceKey: "key-same"}) }},
			{"Summarize", func() (int, error) { sm, err := s.Summarize(ctx, Filter{}); return sm.Runs, err }},
			{"Drives", func() (int, error) {
				d, err := s.Drives(ctx, Filter{})
				switch len(d) {
				case 0:
					return 0, err
				case 1:
					return d[0].Runs, err
				}
				return -1, err
			}},
			{"Boards", func() (int, error) {
				b, err := s.Boards(ctx, 0)
				n := 0
				for _, g := range b {
					n += g.Runs
				}
				return n, err
			}},
			{"Figures (2 per run)", func() (int, error) {
				f, err := s.Figures(ctx, Filter{DeviceKey: "key-same"})
				return len(f) / 2, err
			}},
			{"sorted by score", func() (int, error) {
				r, err := s.SortedRuns(ctx, Filter{Limit: MaxLimit, DeviceKey: "key-same"}, "score", true)
				return len(r), err
			}},
			{"text search", func() (int, error) {
				r, err := s.SortedRuns(ctx, Filter{Limit: MaxLimit, Text: "pro"}, "date", true)
				n, _ := s.CountRuns(ctx, Filter{Text: "pro"})
				if len(r) != n {
					return -1, err
				}
				all, err := s.CountRuns(ctx, Filter{})
				return all, err
			}},
		} {
			if n, err := c.n(); err != nil || n != want {
				t.Errorf("%s: %s = %d, %v; want %d", view, c.name, n, err, want)
			}
		}
	}
	seen("3 of 12 flagged", 9)

	// A flagged run is still there by id, with its flags.
	got, _, err := s.GetRun(ctx, "run-0004")
	if err != nil || got.Listed || string(got.Flags) != string(someFlags) || got.Moderation != ModerationAuto {
		t.Fatalf("flagged run read back: listed %v flags %s moderation %q, %v", got.Listed, got.Flags, got.Moderation, err)
	}
	if runs, err := s.Moderated(ctx, 0, 0); err != nil || len(runs) != 3 || runs[0].ID != "run-0008" {
		t.Fatalf("Moderated = %d runs (first %v), %v; want the 3 flagged, newest first", len(runs), runs, err)
	}

	// Approving lists it; hiding a listed one unlists it; auto returns each to the flags' verdict.
	epoch, err := s.ModerationEpoch(ctx)
	if err != nil || epoch != 0 {
		t.Fatalf("epoch before any moderation = %d, %v", epoch, err)
	}
	defer func() {
		if e, err := s.ModerationEpoch(ctx); err != nil || e != 29 {
			t.Errorf("epoch after 29 moderations = %d, %v", e, err)
		}
	}()
	if r, err := s.SetModeration(ctx, "run-0004", ModerationApproved); err != nil || !r.Listed {
		t.Fatalf("approve: listed %v, %v", r.Listed, err)
	}
	seen("one flagged run approved", 10)
	if r, err := s.SetModeration(ctx, "run-0005", ModerationHidden); err != nil || r.Listed {
		t.Fatalf("hide: listed %v, %v", r.Listed, err)
	}
	seen("and one hidden", 9)
	if _, err := s.SetModeration(ctx, "run-0005", ModerationHidden); err != nil {
		t.Fatalf("hiding twice: %v", err)
	}
	seen("hidden twice", 9)
	if runs, err := s.Moderated(ctx, 0, 0); err != nil || len(runs) != 4 {
		t.Fatalf("Moderated = %d runs, %v; want 3 flagged and 1 hidden", len(runs), err)
	}
	for _, id := range []string{"run-0004", "run-0005"} {
		if _, err := s.SetModeration(ctx, id, ModerationAuto); err != nil {
			t.Fatal(err)
		}
	}
	seen("back to auto", 9)
	// Every run of one count row hidden: the row goes, the drive leaves the groupings.
	for i := range 12 {
		if _, err := s.SetModeration(ctx, "run-"+pad4(i), ModerationHidden); err != nil {
			t.Fatal(err)
		}
	}
	seen("all hidden", 0)
	var rows int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM run_counts`).Scan(&rows); err != nil || rows != 0 {
		t.Errorf("run_counts holds %d rows with every run hidden, %v; want none", rows, err)
	}
	for i := range 12 {
		if _, err := s.SetModeration(ctx, "run-"+pad4(i), ModerationAuto); err != nil {
			t.Fatal(err)
		}
	}
	seen("all back", 9)

	if _, err := s.SetModeration(ctx, "no-such-run", ModerationHidden); !errors.Is(err, ErrNotFound) {
		t.Errorf("moderating an unknown id: %v, want ErrNotFound", err)
	}
	if _, err := s.SetModeration(ctx, "run-0001", "deleted"); !errors.Is(err, ErrInvalid) {
		t.Errorf("an unknown moderation: %v, want ErrInvalid", err)
	}
	bad, tests := variedRun(50)
	for _, flags := range []string{`{"a":1}`, `[]`, `[1`, "\"x\""} {
		bad.Flags = json.RawMessage(flags)
		if err := s.SaveRun(ctx, bad, tests); !errors.Is(err, ErrInvalid) {
			t.Errorf("flags %s: %v, want ErrInvalid", flags, err)
		}
	}
}

func pad4(i int) string {
	return string([]byte{'0' + byte(i/1000%10), '0' + byte(i/100%10), '0' + byte(i/10%10), '0' + byte(i%10)})
}

// OpenWith caps the connections a store opens.
func TestOpenWithCapsConnections(t *testing.T) {
	s, err := OpenWith(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "r.db"), Options{MaxConns: 3, CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := s.db.Stats().MaxOpenConnections; n != 3 {
		t.Errorf("MaxOpenConnections = %d, want 3", n)
	}
	var kib int64
	if err := s.db.QueryRow(`PRAGMA cache_size`).Scan(&kib); err != nil || kib != -1024 {
		t.Errorf("cache_size = %d, %v; want -1024 (1 MiB)", kib, err)
	}
	if _, err := OpenWith(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "r.db"), Options{MaxConns: -1}); err == nil {
		t.Error("a negative cap was taken")
	}
}
