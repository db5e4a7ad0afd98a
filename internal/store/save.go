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
    score_iomark, score_pibenchmarks, source, search_text, name_id, record, flags, listed, arch)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
ON CONFLICT (id) DO NOTHING`

const insertTestsHead = `INSERT INTO tests (run_id, seq, name, op, bs_bytes, qd, jobs, iops, mb_per_s,
    lat_p50_us, lat_p99_us, lat_max_us, ci95_pct) VALUES `

const insertTestSQL = insertTestsHead + `($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

// SaveRun stores a run and its tests in one transaction: all of it or nothing. Saving a run
// whose id is already stored writes nothing and returns a *DuplicateError (errors.Is
// ErrDuplicate) when the stored record is the same JSON value, or an error wrapping ErrConflict
// when it differs. Bad input returns an error wrapping ErrInvalid.
func (s *Store) SaveRun(ctx context.Context, run Run, tests []Test) error {
	return s.SaveBatch(ctx, []BatchRun{{Run: run, Tests: tests}})[0]
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
