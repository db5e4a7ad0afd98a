package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Saving many runs in one transaction ("group commit"): a server receiving uploads at once
// pays one commit, and one fsync, for all of them instead of one each.

// BatchRun is one run of SaveBatch.
type BatchRun struct {
	Run   Run
	Tests []Test
}

// errBatchItem marks a run that ended its batch's transaction, so SaveBatch knows which one to
// report and retry the others without it.
type errBatchItem struct {
	i   int
	err error
}

func (e *errBatchItem) Error() string { return e.err.Error() }

// SaveBatch saves runs in one transaction and returns one error per run, as SaveRun would:
// nil, a *DuplicateError, or errors wrapping ErrConflict or ErrInvalid. Each run is all or
// nothing. When the database fails one run, the batch is retried without it, so one bad run
// never costs the others; when the commit itself fails every run not yet answered gets that
// error. A run is stored if and only if its error is nil (or it was a duplicate before).
func (s *Store) SaveBatch(ctx context.Context, runs []BatchRun) []error {
	errs := make([]error, len(runs))
	pending := make([]int, 0, len(runs))
	for i, r := range runs {
		if err := validateRun(r.Run, r.Tests); err != nil {
			errs[i] = fmt.Errorf("store: saving run: %w", err)
			continue
		}
		pending = append(pending, i)
	}
	oneByOne := false
	for len(pending) > 0 {
		answers, err := s.saveBatchTx(ctx, runs, pending, oneByOne)
		if errors.Is(err, errSaveOneByOne) && !oneByOne {
			oneByOne = true
			continue
		}
		var item *errBatchItem
		if errors.As(err, &item) {
			errs[item.i] = item.err
			pending = without(pending, item.i)
			continue
		}
		for _, i := range pending {
			if err != nil {
				errs[i] = err
			} else {
				errs[i] = answers[i]
			}
		}
		break
	}
	return errs
}

// saveBatchTx inserts the pending runs in one transaction. Per-run answers (duplicates,
// conflicts) come back in the map; a failing statement aborts with an *errBatchItem. Tests go
// in a few multi-row statements, or with oneByOne one statement each, so that a failing test
// names its run (SaveBatch asks for that when the multi-row insert fails).
func (s *Store) saveBatchTx(ctx context.Context, runs []BatchRun, pending []int, oneByOne bool) (map[int]error, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.wrapErr("saving runs in", err)
	}
	defer tx.Rollback() // no-op after Commit
	// Runs go in by id, so two transactions saving the same ids lock them in the same order.
	order := slices.Clone(pending)
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(runs[a].Run.ID, runs[b].Run.ID) })
	texts := make([]string, len(order))
	for j, i := range order {
		texts[j] = searchText(runs[i].Run.Vendor, runs[i].Run.Model)
	}
	names, err := s.nameIDs(ctx, tx, texts)
	if err != nil {
		return nil, err
	}
	insertRun, err := tx.PrepareContext(ctx, insertRunSQL) // once per batch, not per run
	if err != nil {
		return nil, s.wrapErr("saving runs in", err)
	}
	defer insertRun.Close()
	answers := map[int]error{}
	counts := map[countKey]int64{}
	nameTexts := map[int64]string{}
	var testRows [][]any
	for j, i := range order {
		run, tests := runs[i].Run, runs[i].Tests
		nameID := names[texts[j]]
		res, err := insertRun.ExecContext(ctx,
			run.ID, toMicros(run.CreatedAt), run.ToolVersion, run.Profile, run.Board, run.BoardRevision,
			run.DeviceClass, run.Vendor, run.Model, run.CapacityBytes, run.LinkBus, run.LinkSpeedMbps,
			run.DeviceKey, nullFloat(run.ScoreIomark), nullFloat(run.ScorePibenchmarks), run.Source,
			texts[j], nameID, string(run.Record), string(run.Flags), listedInt(run.Flags), run.Arch)
		if err != nil {
			return nil, &errBatchItem{i, s.wrapErr("saving run "+run.ID+" in", err)}
		}
		n, err := res.RowsAffected()
		if err != nil {
			return nil, &errBatchItem{i, s.wrapErr("saving run "+run.ID+" in", err)}
		}
		if n == 0 {
			// Stored before, or earlier in this batch (visible inside the transaction).
			answers[i] = s.duplicate(ctx, tx, run)
			continue
		}
		if err := s.saveRunSides(ctx, tx, run); err != nil {
			return nil, &errBatchItem{i, err}
		}
		if len(run.Flags) == 0 { // only listed runs count (migration 00008)
			counts[countKeyOf(run, nameID)]++
			nameTexts[nameID] = texts[j]
		}
		for seq, t := range tests {
			row := []any{run.ID, seq, t.Name, t.Op, t.BS, t.QD, t.Jobs, t.IOPS, t.MBPerS,
				t.LatP50US, t.LatP99US, t.LatMaxUS, nullFloat(t.CI95Pct)}
			if !oneByOne {
				testRows = append(testRows, row)
				continue
			}
			if _, err := tx.ExecContext(ctx, insertTestSQL, row...); err != nil {
				return nil, &errBatchItem{i, s.wrapErr(fmt.Sprintf("saving test %s of run %s in", t.Name, run.ID), err)}
			}
		}
	}
	if err := insertRows(ctx, tx, insertTestsHead, "", testRows); err != nil {
		return nil, errSaveOneByOne
	}
	if err := s.addCounts(ctx, tx, counts, nameTexts); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, s.wrapErr("committing runs to", err)
	}
	return answers, nil
}

// saveRunSides saves what a new run carries beside its row: the ranking decision and the
// deletion token's hash.
func (s *Store) saveRunSides(ctx context.Context, tx *sql.Tx, run Run) error {
	if run.Decision != nil {
		if _, err := tx.ExecContext(ctx, upsertDecisionSQL, decisionArgs(run.ID, run.Decision)...); err != nil {
			return s.wrapErr("saving the ranking decision of run "+run.ID+" in", err)
		}
	}
	if h := run.DeleteTokenSHA256; h != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO run_deletions (run_id, token_sha256) VALUES ($1, $2)`, run.ID, h); err != nil {
			return s.wrapErr("saving the deletion token of run "+run.ID+" in", err)
		}
	}
	return nil
}

// errSaveOneByOne: the tests of a batch, inserted together, failed; SaveBatch saves it again
// test by test to find the run at fault.
var errSaveOneByOne = errors.New("store: saving tests together failed")

// listedInt is the listed column of a run saved with those flags (moderation starts empty).
func listedInt(flags json.RawMessage) int {
	if listed(flags, ModerationAuto) {
		return 1
	}
	return 0
}

func without(list []int, v int) []int {
	out := list[:0:0]
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}
