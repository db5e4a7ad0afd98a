package store

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"
)

// Bucket is one token bucket of a limit shared through the database (TakeTokens): it holds at
// most Burst tokens and gains PerS a second.
type Bucket struct {
	Key         string
	PerS, Burst float64
}

// TakeTokens takes one token from each bucket, all or none, in one transaction that locks their
// rows (in key order, so concurrent callers cannot deadlock). When a bucket holds less than one
// token nothing is taken and waitS is the seconds until it holds one. Every process using the
// database shares the buckets.
func (s *Store) TakeTokens(ctx context.Context, buckets []Bucket, now time.Time) (waitS float64, ok bool, err error) {
	buckets = slices.Clone(buckets)
	slices.SortFunc(buckets, func(a, b Bucket) int { return strings.Compare(a.Key, b.Key) })
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, s.wrapErr("taking upload tokens in", err)
	}
	defer tx.Rollback() // a refusal rolls back: it costs no budget and adds no row
	lock := ""
	if s.dialect == postgresDialect {
		lock = " FOR UPDATE"
	}
	nowUS := toMicros(now)
	tokens := make([]float64, len(buckets))
	ats := make([]int64, len(buckets))
	for i, b := range buckets {
		if _, err := tx.ExecContext(ctx, `INSERT INTO token_buckets (key, tokens, at_us) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`,
			b.Key, b.Burst, nowUS); err != nil {
			return 0, false, s.wrapErr("taking upload tokens in", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT tokens, at_us FROM token_buckets WHERE key = $1`+lock, b.Key).Scan(&tokens[i], &ats[i]); err != nil {
			return 0, false, s.wrapErr("taking upload tokens in", err)
		}
		// Another server's clock may be ahead: time never runs backwards for a bucket.
		elapsedS := math.Max(0, float64(nowUS-ats[i])/1e6)
		tokens[i] = math.Min(b.Burst, tokens[i]+elapsedS*b.PerS)
		if tokens[i] < 1 {
			return math.Max(1, math.Ceil((1-tokens[i])/b.PerS)), false, nil
		}
	}
	for i, b := range buckets {
		if _, err := tx.ExecContext(ctx, `UPDATE token_buckets SET tokens = $1, at_us = $2 WHERE key = $3`,
			tokens[i]-1, max(nowUS, ats[i]), b.Key); err != nil {
			return 0, false, s.wrapErr("taking upload tokens in", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, false, s.wrapErr("taking upload tokens in", err)
	}
	return 0, true, nil
}

// PruneTokens deletes buckets untouched since before, which have refilled (a missing bucket
// starts full): it bounds the table.
func (s *Store) PruneTokens(ctx context.Context, before time.Time) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM token_buckets WHERE at_us < $1`, toMicros(before)); err != nil {
		return s.wrapErr("pruning upload tokens in", err)
	}
	return nil
}
