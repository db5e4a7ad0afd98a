package runstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// ShortID is a run id as people type it: its last 12 hex digits, random in a UUIDv7 and so
// unique enough in one database (Find accepts any unique end or start of an id).
func ShortID(id string) string {
	if len(id) > 12 {
		return id[len(id)-12:]
	}
	return id
}

// Load finds a saved run as Find does and decodes its record.
func Load(ctx context.Context, st *store.Store, ref string) (*record.Run, error) {
	row, err := Find(ctx, st, ref)
	if err != nil {
		return nil, err
	}
	return record.Decode(row.Record)
}

// Find returns a saved run, its record as stored, by its full id or a unique end of it (what
// `iomark history` prints) or start of it (as one copies from a record, or as git takes
// commit ids); "" or "latest" is the newest complete run (Latest).
func Find(ctx context.Context, st *store.Store, ref string) (store.Run, error) {
	ref = strings.TrimSpace(strings.ToLower(ref))
	if ref == "" || ref == "latest" {
		run, _, err := Latest(ctx, st)
		return run, err
	}
	if run, _, err := st.GetRun(ctx, ref); err == nil {
		return run, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.Run{}, fmt.Errorf("reading run %s: %w", ref, err)
	}
	var match []store.Run
	for offset := 0; ; offset += store.MaxLimit {
		runs, err := st.ListRuns(ctx, store.Filter{Limit: store.MaxLimit, Offset: offset})
		if err != nil {
			return store.Run{}, fmt.Errorf("reading the results database: %w", err)
		}
		for _, r := range runs {
			if strings.HasSuffix(r.ID, ref) || strings.HasPrefix(r.ID, ref) {
				match = append(match, r)
			}
		}
		if len(runs) < store.MaxLimit {
			break
		}
	}
	switch len(match) {
	case 0:
		return store.Run{}, fmt.Errorf("no saved run matches %q: `iomark history` lists them", ref)
	case 1:
		run, _, err := st.GetRun(ctx, match[0].ID)
		if err != nil {
			return store.Run{}, fmt.Errorf("reading run %s: %w", match[0].ID, err)
		}
		return run, nil
	}
	return store.Run{}, fmt.Errorf("%q matches %d runs: give more of the id", ref, len(match))
}

// Earlier are the saved runs of the same drive before run, newest first.
func Earlier(ctx context.Context, st *store.Store, run *record.Run) ([]*record.Run, error) {
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

// Save keeps a record in st with its indexed columns (Row); source is store.SourceLocal,
// SourceSubmitted or SourcePublished.
func Save(ctx context.Context, st *store.Store, r *record.Run, source string) error {
	row, tests, err := Row(r, source)
	if err != nil {
		return err
	}
	if err := st.SaveRun(ctx, row, tests); err != nil {
		return fmt.Errorf("saving run %s: %w", r.ID, err)
	}
	return nil
}

// Recent are up to limit saved complete runs, newest first, whatever their drive: the local
// history `iomark compare` places a run among. A record this iomark cannot read is skipped.
func Recent(ctx context.Context, st *store.Store, limit int) ([]*record.Run, error) {
	rows, err := st.ListRuns(ctx, store.Filter{Limit: min(limit, store.MaxLimit), WithRecord: true})
	if err != nil {
		return nil, fmt.Errorf("reading the results database: %w", err)
	}
	var out []*record.Run
	for _, r := range rows {
		rec, err := record.Decode(r.Record)
		if err != nil || rec.Interrupted {
			continue
		}
		out = append(out, rec)
	}
	return out, nil
}

// Latest returns the newest complete run, and the interrupted runs saved after it (newest
// first), which "latest" passes over: an interrupted run misses tests or has shortened ones,
// so it is not what a bare submit, compare or export should take. Asked by id, such a run is
// still found.
func Latest(ctx context.Context, st *store.Store) (store.Run, []store.Run, error) {
	var skipped []store.Run
	for offset := 0; ; offset += store.MaxLimit {
		runs, err := st.ListRuns(ctx, store.Filter{Limit: store.MaxLimit, Offset: offset, WithRecord: true})
		if err != nil {
			return store.Run{}, nil, fmt.Errorf("reading the results database: %w", err)
		}
		for _, r := range runs {
			if !Interrupted(r.Record) {
				return r, skipped, nil
			}
			skipped = append(skipped, r)
		}
		if len(runs) < store.MaxLimit {
			break
		}
	}
	if len(skipped) > 0 {
		return store.Run{}, skipped, fmt.Errorf("every saved run was interrupted (the newest is %s): name one to use it anyway, or `iomark run` again", ShortID(skipped[0].ID))
	}
	return store.Run{}, nil, errors.New("no runs saved yet: `iomark run` measures the current directory and saves the result")
}

// Interrupted reports whether a record as stored says its run was interrupted.
func Interrupted(raw []byte) bool {
	var r struct {
		Interrupted bool `json:"interrupted"`
	}
	return json.Unmarshal(raw, &r) == nil && r.Interrupted
}
