package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// runColumns are read in the order scanRun expects; record is appended when wanted.
const runColumns = `id, created_at_us, tool_version, profile, board, board_revision, device_class,
    vendor, model, capacity_bytes, link_bus, link_speed_mbps, device_key, score_iomark,
    score_pibenchmarks, source, flags, moderation, listed, arch`

// GetRun returns a run with its record and its tests in their saved order, or an error
// wrapping ErrNotFound.
func (s *Store) GetRun(ctx context.Context, id string) (Run, []Test, error) {
	if checkID(id) != nil {
		// No run can have that id; asking PostgreSQL would fail on invalid UTF-8 instead.
		return Run{}, nil, fmt.Errorf("store: run %q: %w", id, ErrNotFound)
	}
	row := s.db.QueryRowContext(ctx, `SELECT `+runColumns+`, record FROM runs WHERE id = $1`, id)
	run, err := scanRun(row, true)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, nil, fmt.Errorf("store: run %q: %w; `iomark history` lists the stored runs", id, ErrNotFound)
	}
	if err != nil {
		return Run{}, nil, s.wrapErr("reading run "+id+" from", err)
	}
	tests, err := queryAll(ctx, s, s.db, "reading the tests of run "+id+" from", `SELECT name, op, bs_bytes, qd, jobs, iops, mb_per_s,
    lat_p50_us, lat_p99_us, lat_max_us, ci95_pct FROM tests WHERE run_id = $1 ORDER BY seq`, []any{id}, func(rows *sql.Rows) (Test, error) {
		t := Test{RunID: id}
		var ci sql.NullFloat64
		err := rows.Scan(&t.Name, &t.Op, &t.BS, &t.QD, &t.Jobs, &t.IOPS, &t.MBPerS,
			&t.LatP50US, &t.LatP99US, &t.LatMaxUS, &ci)
		t.CI95Pct = floatPtr(ci)
		return t, err
	})
	if err != nil {
		return Run{}, nil, err
	}
	return run, tests, nil
}

// ListRuns returns the listed runs f selects, newest first (ties by id, descending). Record is left nil
// unless f.WithRecord.
func (s *Store) ListRuns(ctx context.Context, f Filter) ([]Run, error) {
	return s.SortedRuns(ctx, f, "date", true)
}

type scanner interface{ Scan(dest ...any) error }

func scanRun(sc scanner, withRecord bool) (Run, error) {
	var (
		r            Run
		createdUS    int64
		iomark, pibm sql.NullFloat64
		record       string
		flags        string
		listed       int
	)
	dest := []any{&r.ID, &createdUS, &r.ToolVersion, &r.Profile, &r.Board, &r.BoardRevision,
		&r.DeviceClass, &r.Vendor, &r.Model, &r.CapacityBytes, &r.LinkBus, &r.LinkSpeedMbps,
		&r.DeviceKey, &iomark, &pibm, &r.Source, &flags, &r.Moderation, &listed, &r.Arch}
	if withRecord {
		dest = append(dest, &record)
	}
	if err := sc.Scan(dest...); err != nil {
		return Run{}, err
	}
	r.CreatedAt = fromMicros(createdUS)
	r.ScoreIomark = floatPtr(iomark)
	r.ScorePibenchmarks = floatPtr(pibm)
	if flags != "" {
		r.Flags = json.RawMessage(flags)
	}
	r.Listed = listed == 1
	if withRecord {
		r.Record = json.RawMessage(record)
	}
	return r, nil
}
