package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const insertRunSQL = `INSERT INTO runs (id, created_at_us, tool_version, profile, board, board_revision,
    device_class, vendor, model, capacity_bytes, link_bus, link_speed_mbps, device_key,
    score_iomark, score_pibenchmarks, source, search_text, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
ON CONFLICT (id) DO NOTHING`

const insertTestSQL = `INSERT INTO tests (run_id, seq, name, op, bs_bytes, qd, jobs, iops, mb_per_s,
    lat_p50_us, lat_p99_us, lat_max_us, ci95_pct)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

// SaveRun stores a run and its tests in one transaction: all of it or nothing. Saving a run
// whose id is already stored writes nothing and returns a *DuplicateError (errors.Is
// ErrDuplicate) when the stored record is the same JSON value, or an error wrapping ErrConflict
// when it differs. Bad input returns an error wrapping ErrInvalid.
func (s *Store) SaveRun(ctx context.Context, run Run, tests []Test) error {
	if err := validateRun(run, tests); err != nil {
		return fmt.Errorf("store: saving run: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrapErr("saving a run in", err)
	}
	defer tx.Rollback() // no-op after Commit

	res, err := tx.ExecContext(ctx, insertRunSQL,
		run.ID, toMicros(run.CreatedAt), run.ToolVersion, run.Profile, run.Board, run.BoardRevision,
		run.DeviceClass, run.Vendor, run.Model, run.CapacityBytes, run.LinkBus, run.LinkSpeedMbps,
		run.DeviceKey, nullFloat(run.ScoreIomark), nullFloat(run.ScorePibenchmarks), run.Source,
		searchText(run.Vendor, run.Model), string(run.Record))
	if err != nil {
		return s.wrapErr("saving run "+run.ID+" in", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.wrapErr("saving run "+run.ID+" in", err)
	}
	if n == 0 {
		return s.duplicate(ctx, tx, run)
	}
	stmt, err := tx.PrepareContext(ctx, insertTestSQL)
	if err != nil {
		return s.wrapErr("saving run "+run.ID+" in", err)
	}
	defer stmt.Close()
	for i, t := range tests {
		if _, err := stmt.ExecContext(ctx, run.ID, i, t.Name, t.Op, t.BS, t.QD, t.Jobs, t.IOPS,
			t.MBPerS, t.LatP50US, t.LatP99US, t.LatMaxUS, nullFloat(t.CI95Pct)); err != nil {
			return s.wrapErr(fmt.Sprintf("saving test %s of run %s in", t.Name, run.ID), err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrapErr("committing run "+run.ID+" to", err)
	}
	return nil
}

// duplicate tells a resubmission of the stored run from a different run under the same id.
func (s *Store) duplicate(ctx context.Context, tx *sql.Tx, run Run) error {
	var (
		record    string
		createdUS int64
		source    string
	)
	err := tx.QueryRowContext(ctx, `SELECT record, created_at_us, source FROM runs WHERE id = $1`, run.ID).
		Scan(&record, &createdUS, &source)
	if errors.Is(err, sql.ErrNoRows) {
		// Deleted between our insert and this read: report it as the conflict it is.
		return fmt.Errorf("store: saving run %s: %w (it changed while saving; retry)", run.ID, ErrConflict)
	}
	if err != nil {
		return s.wrapErr("reading stored run "+run.ID+" from", err)
	}
	if !sameRecord([]byte(record), run.Record) {
		return fmt.Errorf("store: saving run %s: %w; a run id must be unique, so give the new run another id", run.ID, ErrConflict)
	}
	return &DuplicateError{ID: run.ID, CreatedAt: fromMicros(createdUS), Source: source}
}

func toMicros(t time.Time) int64    { return t.UnixMicro() }
func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

func nullFloat(p *float64) sql.NullFloat64 {
	if p == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *p, Valid: true}
}

func floatPtr(n sql.NullFloat64) *float64 {
	if !n.Valid {
		return nil
	}
	v := n.Float64
	return &v
}
