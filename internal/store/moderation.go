package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Moderation: the results server's operator hides a run, approves a flagged one, or returns it
// to the server's verdict (ModerationAuto). A run that stops or starts being listed leaves or
// joins run_counts and its name's count in the same transaction, so every count, list and
// ranking agrees at once.

// SetModeration sets the moderation of run id (ModerationAuto, ModerationHidden or
// ModerationApproved) and returns the run as it is now (without its record). An unknown id
// returns an error wrapping ErrNotFound.
func (s *Store) SetModeration(ctx context.Context, id, moderation string) (Run, error) {
	switch moderation {
	case ModerationAuto, ModerationHidden, ModerationApproved:
	default:
		return Run{}, fmt.Errorf("store: moderating run %s: %w: %q is not one of \"\", hidden, approved", id, ErrInvalid, moderation)
	}
	if checkID(id) != nil {
		return Run{}, fmt.Errorf("store: run %q: %w", id, ErrNotFound)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Run{}, s.wrapErr("moderating run "+id+" in", err)
	}
	defer tx.Rollback() // no-op after Commit
	lock := ""
	if s.dialect == postgresDialect {
		lock = " FOR UPDATE" // SQLite's write transaction (IMMEDIATE) already holds the database
	}
	run, err := scanRun(tx.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = $1`+lock, id), false)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, fmt.Errorf("store: run %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Run{}, s.wrapErr("moderating run "+id+" in", err)
	}
	var (
		nameID int64
		text   string
	)
	if err := tx.QueryRowContext(ctx, `SELECT name_id, search_text FROM runs WHERE id = $1`, id).Scan(&nameID, &text); err != nil {
		return Run{}, s.wrapErr("moderating run "+id+" in", err)
	}
	now := listed(run.Flags, moderation)
	listedNow := 0
	if now {
		listedNow = 1
	}
	if _, err := tx.ExecContext(ctx, `UPDATE runs SET moderation = $1, listed = $2 WHERE id = $3`, moderation, listedNow, id); err != nil {
		return Run{}, s.wrapErr("moderating run "+id+" in", err)
	}
	if now != run.Listed {
		delta := int64(1)
		if !now {
			delta = -1
		}
		if err := s.moveCount(ctx, tx, countKeyOf(run, nameID), text, delta); err != nil {
			return Run{}, err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE moderation_epoch SET epoch = epoch + 1 WHERE id = 1`); err != nil {
		return Run{}, s.wrapErr("moderating run "+id+" in", err)
	}
	if err := tx.Commit(); err != nil {
		return Run{}, s.wrapErr("moderating run "+id+" in", err)
	}
	run.Moderation, run.Listed = moderation, now
	return run, nil
}

// moveCount adds delta (1 or -1) to one run_counts row and to its name's count, dropping a row
// that reaches zero: run_counts holds only combinations some listed run has.
func (s *Store) moveCount(ctx context.Context, tx *sql.Tx, k countKey, nameText string, delta int64) error {
	if delta > 0 {
		if err := s.addCounts(ctx, tx, map[countKey]int64{k: delta}, map[int64]string{k.NameID: nameText}); err != nil {
			return err
		}
		return nil
	}
	const match = `device_key = $1 AND board = $2 AND source = $3 AND name_id = $4 AND device_class = $5
    AND vendor = $6 AND model = $7 AND link_bus = $8 AND capacity_bytes = $9`
	args := []any{k.DeviceKey, k.Board, k.Source, k.NameID, k.DeviceClass, k.Vendor, k.Model, k.LinkBus, k.CapacityBytes}
	if _, err := tx.ExecContext(ctx, `UPDATE run_counts SET runs = runs - 1 WHERE `+match, args...); err != nil {
		return s.wrapErr("counting runs in", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM run_counts WHERE runs <= 0 AND `+match, args...); err != nil {
		return s.wrapErr("counting runs in", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE search_names SET runs = runs - 1 WHERE id = $1`, k.NameID); err != nil {
		return s.wrapErr("counting runs in", err)
	}
	return nil
}

// Moderated returns the runs that are flagged or moderated (hidden or approved), newest first,
// without their records: what the operator reviews. limit 0 is DefaultLimit.
func (s *Store) Moderated(ctx context.Context, limit, offset int) ([]Run, error) {
	limit, err := checkPage(Filter{Limit: limit, Offset: offset})
	if err != nil {
		return nil, err
	}
	return s.listRuns(ctx, `SELECT `+runColumns+` FROM runs WHERE flags <> '' OR moderation <> ''
ORDER BY created_at_us DESC, id DESC LIMIT $1 OFFSET $2`, []any{limit, offset}, false)
}

// ModerationEpoch is a number every SetModeration raises: a reader keeping what it computed from
// listed runs drops it when the number moves.
func (s *Store) ModerationEpoch(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT epoch FROM moderation_epoch WHERE id = 1`).Scan(&n); err != nil {
		return 0, s.wrapErr("reading the moderation epoch of", err)
	}
	return n, nil
}
