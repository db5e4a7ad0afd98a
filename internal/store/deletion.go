package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Deletion by the uploader: a run saved with a deletion token's hash (BatchRun) can be deleted
// by whoever holds the token. A deleted run is hidden (moderation.go: every list, count and
// ranking drops it at once, its pages answer 410) and run_deletions records when, which the
// operator's review shows. The store compares hashes; the token itself is never stored.

// ErrBadToken: the deletion token does not match the run's, or the run has none.
var ErrBadToken = errors.New("the deletion token does not match")

// DeleteByToken hides run id when tokenSHA256 is the hash it was saved with, and returns when
// it was deleted (the first time, if it was deleted before). An unknown id wraps ErrNotFound.
func (s *Store) DeleteByToken(ctx context.Context, id, tokenSHA256 string) (time.Time, error) {
	if checkID(id) != nil {
		return time.Time{}, fmt.Errorf("store: run %q: %w", id, ErrNotFound)
	}
	var want string
	var deletedUS int64
	err := s.db.QueryRowContext(ctx, `SELECT token_sha256, deleted_at_us FROM run_deletions WHERE run_id = $1`, id).Scan(&want, &deletedUS)
	if errors.Is(err, sql.ErrNoRows) {
		if _, _, gerr := s.GetRun(ctx, id); errors.Is(gerr, ErrNotFound) {
			return time.Time{}, fmt.Errorf("store: run %q: %w", id, ErrNotFound)
		}
		return time.Time{}, fmt.Errorf("store: run %q: %w", id, ErrBadToken)
	}
	if err != nil {
		return time.Time{}, s.wrapErr("reading the deletion token of run "+id+" in", err)
	}
	if subtle.ConstantTimeCompare([]byte(want), []byte(tokenSHA256)) != 1 {
		return time.Time{}, fmt.Errorf("store: run %q: %w", id, ErrBadToken)
	}
	at := time.Now().UTC().Truncate(time.Microsecond) // as stored
	if deletedUS != 0 {
		at = fromMicros(deletedUS)
	} else if _, err := s.db.ExecContext(ctx, `UPDATE run_deletions SET deleted_at_us = $1 WHERE run_id = $2 AND deleted_at_us = 0`, toMicros(at), id); err != nil {
		return time.Time{}, s.wrapErr("deleting run "+id+" in", err)
	}
	// Marked first, hidden second: a failure between leaves a run the operator sees as deleted
	// and a retry completes; never a hidden run without its reason.
	if _, err := s.SetModeration(ctx, id, ModerationHidden); err != nil {
		return time.Time{}, err
	}
	return at, nil
}

// DeletedAt returns when the uploader deleted each of ids that was deleted (the operator's
// review).
func (s *Store) DeletedAt(ctx context.Context, ids []string) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	for _, id := range ids {
		var us int64
		err := s.db.QueryRowContext(ctx, `SELECT deleted_at_us FROM run_deletions WHERE run_id = $1 AND deleted_at_us <> 0`, id).Scan(&us)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, s.wrapErr("reading deletions in", err)
		}
		out[id] = fromMicros(us)
	}
	return out, nil
}

// Submission is one upload of a local run to a results server, with what the server answered.
type Submission struct {
	Server, ResultID, RunID, DeleteToken, URL string
	SubmittedAt                               time.Time
}

// SaveSubmission keeps an upload's deletion token in the local database (replacing an older one
// for the same server and result).
func (s *Store) SaveSubmission(ctx context.Context, sub Submission) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM submissions WHERE server = $1 AND result_id = $2`, sub.Server, sub.ResultID); err != nil {
		return s.wrapErr("keeping the submission of "+sub.ResultID+" in", err)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO submissions (server, result_id, run_id, delete_token, url, submitted_at_us) VALUES ($1, $2, $3, $4, $5, $6)`,
		sub.Server, sub.ResultID, sub.RunID, sub.DeleteToken, sub.URL, toMicros(sub.SubmittedAt)); err != nil {
		return s.wrapErr("keeping the submission of "+sub.ResultID+" in", err)
	}
	return nil
}

// FindSubmission returns the kept upload of resultID to server; ErrNotFound when there is none.
func (s *Store) FindSubmission(ctx context.Context, server, resultID string) (Submission, error) {
	sub := Submission{Server: server, ResultID: resultID}
	var us int64
	err := s.db.QueryRowContext(ctx, `SELECT run_id, delete_token, url, submitted_at_us FROM submissions WHERE server = $1 AND result_id = $2`,
		server, resultID).Scan(&sub.RunID, &sub.DeleteToken, &sub.URL, &us)
	if errors.Is(err, sql.ErrNoRows) {
		return sub, fmt.Errorf("store: no upload of %s to %s is kept here: %w", resultID, server, ErrNotFound)
	}
	if err != nil {
		return sub, s.wrapErr("reading submissions in", err)
	}
	sub.SubmittedAt = fromMicros(us)
	return sub, nil
}
