package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// A server caps its connections (OpenWith): no query may hold one connection while it waits for
// another, or requests holding every connection wait for each other forever. With one
// connection, every kind of read and write still completes: among them a text search for a word
// in more than maxNameIDs names, which PostgreSQL lists by walking an index in a transaction of
// its own (walkPostgres).
func TestOneConnectionSuffices(t *testing.T) { onEachBackend(t, testOneConnection) }

func testOneConnection(t *testing.T, dsn string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := OpenWith(ctx, dsn, Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var batch []BatchRun
	for i := range maxNameIDs + 100 {
		r, tests := sampleRun(fmt.Sprintf("one-%05d", i), t0.Add(time.Duration(i)*time.Second), "Brand", fmt.Sprintf("Common %d", i))
		batch = append(batch, BatchRun{r, tests})
	}
	for i, err := range s.SaveBatch(ctx, batch) {
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"a word in every name, newest first", func() error {
			runs, err := s.SortedRuns(ctx, Filter{Text: "common", Limit: 10}, "date", true)
			if err == nil && (len(runs) != 10 || runs[0].ID != fmt.Sprintf("one-%05d", maxNameIDs+99)) {
				err = fmt.Errorf("%d runs, first %v", len(runs), runs)
			}
			return err
		}},
		{"the same on a board", func() error {
			_, err := s.SortedRuns(ctx, Filter{Text: "common", Board: "Raspberry Pi 4 Model B", Limit: 10}, "date", true)
			return err
		}},
		{"count and summary", func() error {
			if _, err := s.CountRuns(ctx, Filter{Text: "common"}); err != nil {
				return err
			}
			_, err := s.Summarize(ctx, Filter{Text: "brand"})
			return err
		}},
		{"figures", func() error {
			return s.EachFigure(ctx, Filter{Text: "common 7"}, func(*Figure) error { return nil })
		}},
		{"moderation", func() error {
			if _, err := s.SetModeration(ctx, "one-00007", ModerationHidden); err != nil {
				return err
			}
			_, err := s.Moderated(ctx, 0, 0)
			return err
		}},
		{"a run by id", func() error { _, _, err := s.GetRun(ctx, "one-00008"); return err }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s with one connection: %v", st.name, err)
		}
	}
}
