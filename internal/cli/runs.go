package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// loadRun finds a saved run by its full id or a unique suffix of it (what `iomark history`
// prints); "" or "latest" is the newest run.
func loadRun(ctx context.Context, st *store.Store, ref string) (*record.Run, error) {
	ref = strings.TrimSpace(strings.ToLower(ref))
	if ref == "" || ref == "latest" {
		runs, err := st.ListRuns(ctx, store.Filter{Limit: 1, WithRecord: true})
		if err != nil {
			return nil, fmt.Errorf("reading the results database: %w", err)
		}
		if len(runs) == 0 {
			return nil, errors.New("no runs saved yet: `iomark run` measures the current directory and saves the result")
		}
		return record.Decode(runs[0].Record)
	}
	if run, _, err := st.GetRun(ctx, ref); err == nil {
		return record.Decode(run.Record)
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("reading run %s: %w", ref, err)
	}
	var match []store.Run
	for offset := 0; ; offset += store.MaxLimit {
		runs, err := st.ListRuns(ctx, store.Filter{Limit: store.MaxLimit, Offset: offset})
		if err != nil {
			return nil, fmt.Errorf("reading the results database: %w", err)
		}
		for _, r := range runs {
			if strings.HasSuffix(r.ID, ref) {
				match = append(match, r)
			}
		}
		if len(runs) < store.MaxLimit {
			break
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("no saved run matches %q: `iomark history` lists them", ref)
	case 1:
		run, _, err := st.GetRun(ctx, match[0].ID)
		if err != nil {
			return nil, fmt.Errorf("reading run %s: %w", match[0].ID, err)
		}
		return record.Decode(run.Record)
	}
	return nil, fmt.Errorf("%q matches %d runs: give more of the id", ref, len(match))
}

// earlierRuns are the saved runs of the same drive before run, newest first.
func earlierRuns(ctx context.Context, st *store.Store, run *record.Run) ([]*record.Run, error) {
	key := run.DeviceKey()
	if key == "" {
		return nil, nil
	}
	rows, err := st.ListRuns(ctx, store.Filter{Limit: store.MaxLimit, DeviceKey: key, WithRecord: true})
	if err != nil {
		return nil, fmt.Errorf("reading the results database: %w", err)
	}
	var out []*record.Run
	for _, r := range rows {
		if r.ID == run.ID || !r.CreatedAt.Before(run.CreatedAt) {
			continue
		}
		rec, err := record.Decode(r.Record)
		if err != nil {
			continue // a record this iomark cannot read is not compared
		}
		out = append(out, rec)
	}
	return out, nil
}
