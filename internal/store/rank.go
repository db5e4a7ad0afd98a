package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Decision is what the comparison model decided about a run (internal/compare), kept beside it
// in run_rank. The store never decides: the caller fills it.
type Decision struct {
	Version         int
	ModelKey        string
	ModelName       string
	Board           string // canonical board name; "" when not known
	Family          string
	DeviceClass     string
	LinkSetting     string
	SettingInferred string
	Ranked          bool
	Score           *float64 // PiBenchmarks score, points
	SeqReadMBPerS   *float64
	SeqReadMethod   string
	SeqWriteMBPerS  *float64
	SeqWriteMethod  string
	RandRead4kMBPS  *float64
	RandWrite4kMBPS *float64
	PriceUSD        *float64
	PriceSource     string
}

const upsertDecisionSQL = `INSERT INTO run_rank (run_id, version, model_key, model_name, board, family,
    device_class, link_setting, setting_inferred, ranked, score, seq_read_mb_per_s, seq_read_method,
    seq_write_mb_per_s, seq_write_method, rand_read_4k_mb_per_s, rand_write_4k_mb_per_s, price_usd, price_source)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
ON CONFLICT (run_id) DO UPDATE SET version = excluded.version, model_key = excluded.model_key,
    model_name = excluded.model_name, board = excluded.board, family = excluded.family,
    device_class = excluded.device_class, link_setting = excluded.link_setting,
    setting_inferred = excluded.setting_inferred, ranked = excluded.ranked, score = excluded.score,
    seq_read_mb_per_s = excluded.seq_read_mb_per_s, seq_read_method = excluded.seq_read_method,
    seq_write_mb_per_s = excluded.seq_write_mb_per_s, seq_write_method = excluded.seq_write_method,
    rand_read_4k_mb_per_s = excluded.rand_read_4k_mb_per_s, rand_write_4k_mb_per_s = excluded.rand_write_4k_mb_per_s,
    price_usd = excluded.price_usd, price_source = excluded.price_source`

func decisionArgs(runID string, d *Decision) []any {
	ranked := 0
	if d.Ranked {
		ranked = 1
	}
	return []any{runID, d.Version, d.ModelKey, d.ModelName, d.Board, d.Family, d.DeviceClass, d.LinkSetting,
		d.SettingInferred, ranked, nullFloat(d.Score), nullFloat(d.SeqReadMBPerS), d.SeqReadMethod,
		nullFloat(d.SeqWriteMBPerS), d.SeqWriteMethod, nullFloat(d.RandRead4kMBPS), nullFloat(d.RandWrite4kMBPS),
		nullFloat(d.PriceUSD), d.PriceSource}
}

// SetDecision stores (or replaces) the decision of a stored run.
func (s *Store) SetDecision(ctx context.Context, runID string, d Decision) error {
	if _, err := s.db.ExecContext(ctx, upsertDecisionSQL, decisionArgs(runID, &d)...); err != nil {
		return s.wrapErr("saving the ranking decision of run "+runID+" in", err)
	}
	return nil
}

const decisionColumns = `k.version, k.model_key, k.model_name, k.board, k.family, k.device_class, k.link_setting,
    k.setting_inferred, k.ranked, k.score, k.seq_read_mb_per_s, k.seq_read_method, k.seq_write_mb_per_s,
    k.seq_write_method, k.rand_read_4k_mb_per_s, k.rand_write_4k_mb_per_s, k.price_usd, k.price_source`

// RankRow is one listed run of a family as rankings read it.
type RankRow struct {
	RunID     string
	Source    string
	DeviceKey string
	Decision
}

// RankRows returns the decisions of every listed, rankable run of a board family (the
// rankings' population), read in one indexed query.
func (s *Store) RankRows(ctx context.Context, family string) ([]RankRow, error) {
	return s.rankRows(ctx, "reading rankings from", `WHERE k.family = $1 AND k.ranked = 1 AND r.listed = 1`, family)
}

// FamilyCounts returns how many listed, ranked runs each board family has (families without
// one are absent): a leaderboard's family tabs, without reading the runs.
func (s *Store) FamilyCounts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	if err := queryMap(ctx, s, s.db, "counting ranked results in", `SELECT k.family, COUNT(*) FROM run_rank k JOIN runs r ON r.id = k.run_id
WHERE k.ranked = 1 AND r.listed = 1 GROUP BY k.family`, nil, out); err != nil {
		return nil, err
	}
	return out, nil
}

// PopulationRows returns the decisions of every listed, ranked run of one board family, device
// class and link setting: the population a result is placed among, by one indexed query
// (run_rank_family) rather than the whole family.
func (s *Store) PopulationRows(ctx context.Context, family, class, setting string) ([]RankRow, error) {
	return s.rankRows(ctx, "reading a ranking's population from",
		`WHERE k.family = $1 AND k.ranked = 1 AND k.device_class = $2 AND k.link_setting = $3 AND r.listed = 1`, family, class, setting)
}

// ModelRows returns the decisions of every listed run of one drive model, newest first.
func (s *Store) ModelRows(ctx context.Context, modelKey string, limit int) ([]RankRow, error) {
	return s.rankRows(ctx, "reading a drive model's results from",
		`WHERE k.model_key = $1 AND r.listed = 1 ORDER BY r.created_at_us DESC, r.id DESC LIMIT $2`, modelKey, limit)
}

// rankRows reads runs with their decisions; tail is the query's WHERE clause and order.
func (s *Store) rankRows(ctx context.Context, what, tail string, args ...any) ([]RankRow, error) {
	return queryAll(ctx, s, s.db, what, `SELECT r.id, r.source, r.device_key, `+decisionColumns+`
FROM run_rank k JOIN runs r ON r.id = k.run_id `+tail, args, func(rows *sql.Rows) (rr RankRow, err error) {
		dest := []any{&rr.RunID, &rr.Source, &rr.DeviceKey}
		d, done := scanDecisionInto(&dest)
		if err := rows.Scan(dest...); err != nil {
			return rr, err
		}
		done()
		rr.Decision = *d
		return rr, nil
	})
}

func scanDecisionInto(dest *[]any) (*Decision, func()) {
	d := &Decision{}
	var ranked int
	var score, sr, sw, rr, rw, price sql.NullFloat64
	*dest = append(*dest, &d.Version, &d.ModelKey, &d.ModelName, &d.Board, &d.Family, &d.DeviceClass, &d.LinkSetting,
		&d.SettingInferred, &ranked, &score, &sr, &d.SeqReadMethod, &sw, &d.SeqWriteMethod, &rr, &rw, &price, &d.PriceSource)
	return d, func() {
		d.Ranked = ranked == 1
		d.Score, d.SeqReadMBPerS, d.SeqWriteMBPerS = floatPtr(score), floatPtr(sr), floatPtr(sw)
		d.RandRead4kMBPS, d.RandWrite4kMBPS, d.PriceUSD = floatPtr(rr), floatPtr(rw), floatPtr(price)
	}
}

// Decisions returns the stored decisions of the runs named, by run id; a run without one is
// absent.
func (s *Store) Decisions(ctx context.Context, ids []string) (map[string]Decision, error) {
	out := map[string]Decision{}
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		in, args := placeholders(part, 0)
		err := s.queryRows(ctx, s.db, "reading ranking decisions from", `SELECT k.run_id, `+decisionColumns+` FROM run_rank k WHERE k.run_id IN (`+in+`)`, args, func(rows *sql.Rows) error {
			var id string
			dest := []any{&id}
			d, done := scanDecisionInto(&dest)
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			done()
			out[id] = *d
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Undecided returns up to limit runs (with their records) of sources other than published that
// have no decision or one older than version: the server re-decides them at start.
func (s *Store) Undecided(ctx context.Context, version, limit int) ([]Run, error) {
	return s.listRuns(ctx, `SELECT `+runColumns+`, record FROM runs WHERE source <> 'published' AND id NOT IN
    (SELECT run_id FROM run_rank WHERE version >= $1) ORDER BY id LIMIT $2`, []any{version, limit}, true)
}

// DeleteRun removes a stored run, its tests and its decision, and takes it out of the counts.
// It returns an error wrapping ErrNotFound when no run has that id.
func (s *Store) DeleteRun(ctx context.Context, id string) error {
	if checkID(id) != nil {
		return fmt.Errorf("store: run %q: %w", id, ErrNotFound)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrapErr("deleting run "+id+" from", err)
	}
	defer tx.Rollback() // no-op after Commit
	run, err := scanRun(tx.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = $1`, id), false)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: run %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return s.wrapErr("deleting run "+id+" from", err)
	}
	var (
		nameID int64
		text   string
	)
	if err := tx.QueryRowContext(ctx, `SELECT name_id, search_text FROM runs WHERE id = $1`, id).Scan(&nameID, &text); err != nil {
		return s.wrapErr("deleting run "+id+" from", err)
	}
	for _, q := range []string{`DELETE FROM run_rank WHERE run_id = $1`, `DELETE FROM run_deletions WHERE run_id = $1`, `DELETE FROM tests WHERE run_id = $1`, `DELETE FROM runs WHERE id = $1`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return s.wrapErr("deleting run "+id+" from", err)
		}
	}
	if run.Listed {
		if err := s.moveCount(ctx, tx, countKeyOf(run, nameID), text, -1); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE moderation_epoch SET epoch = epoch + 1 WHERE id = 1`); err != nil {
		return s.wrapErr("deleting run "+id+" from", err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrapErr("deleting run "+id+" from", err)
	}
	return nil
}

// ModelsOfDevice returns the drive model keys (at most two) the listed, rankable runs of one
// device key were decided to be.
func (s *Store) ModelsOfDevice(ctx context.Context, deviceKey string) ([]string, error) {
	return queryAll(ctx, s, s.db, "reading the drive model of "+deviceKey+" from", `SELECT DISTINCT k.model_key FROM run_rank k JOIN runs r ON r.id = k.run_id
WHERE r.device_key = $1 AND k.ranked = 1 AND r.listed = 1 LIMIT 2`, []any{deviceKey}, scanValue[string])
}
