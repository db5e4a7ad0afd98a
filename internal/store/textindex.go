package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"
)

// How SortedRuns lists a text search newest first: which index to walk (textListIndex, from the
// kept counts) and, on PostgreSQL, how to make it walk (walkPostgres). docs/decisions.md
// ("Search lists at a million results") has the measurements behind it.

// walkPostgres lists a text search for a word in very many names (postgresNameSubquery) by
// walking an index newest first (runs_created, or runs_board when the search names a board:
// PostgreSQL picks). PostgreSQL estimates the subquery at a couple of names whatever the word,
// so left alone it reads every match and sorts them; sorting is turned off for the one
// statement that finds the page's ids (and parallel workers, which cost more than they bring
// on a small page), then the rows of those ids are read.
func (s *Store) walkPostgres(ctx context.Context, cols, where string, args []any, order string, limit int, f Filter) ([]Run, error) {
	ids, err := s.walkIDs(ctx, where, args, order, limit, f)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return s.listRuns(ctx, `SELECT `+cols+` FROM runs WHERE id = ANY($1) ORDER BY `+order, []any{ids}, f.WithRecord)
}

// walkIDs finds the page's ids in a transaction of its own, ended before the rows are read: a
// caller holding one connection must never wait for a second (a server caps its connections,
// and eight requests each holding one would wait for each other forever).
func (s *Store) walkIDs(ctx context.Context, where string, args []any, order string, limit int, f Filter) ([]string, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, s.wrapErr("listing runs in", err)
	}
	defer tx.Rollback() // read only: nothing to keep
	if _, err := tx.ExecContext(ctx, `SET LOCAL enable_sort = off; SET LOCAL max_parallel_workers_per_gather = 0`); err != nil {
		return nil, s.wrapErr("listing runs in", err)
	}
	q := `SELECT id FROM runs WHERE ` + where + ` ORDER BY ` + order +
		fmt.Sprintf(` LIMIT $%d OFFSET $%d`, len(args)+1, len(args)+2)
	ids, err := queryAll(ctx, s, tx, "listing runs in", q, append(args, limit, f.Offset), scanValue[string])
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// textListIndex picks the index that lists the newest want runs matching a text search while
// passing the fewest index entries (every filtered column is in the first three, so an entry
// passed costs little, but a million of them cost a lot):
//   - runs_created, all runs newest first: about want·total/matched entries, so a word in most
//     names ("bench", a popular brand) finds its page at once;
//   - runs_board, one board's runs newest first, when the search names a board: about
//     want·board/matched, never more than the board's runs;
//   - runs_name, every run carrying a matching name, then sorted: cheap for a rare word;
//   - runs_device_key, every run of the few drives that have matches (keys), then sorted: cheap
//     for a rare combination of filters, say a common word on one board at one capacity;
//   - none: nothing matches, nothing to read.
//
// run_counts and search_names.runs give every number without reading runs. Neither database's
// planner can weigh this (neither knows how many runs a word matches): SQLite walked a board's
// whole history for a rare word, PostgreSQL read every run of a common one and sorted them.
func (s *Store) textListIndex(ctx context.Context, f Filter, where string, args []any, want int) (index string, keys []string, err error) {
	total, err := s.totalRuns(ctx)
	if err != nil {
		return "", nil, err
	}
	matched := f.Matched
	if matched <= 0 {
		if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(runs), 0) FROM run_counts WHERE `+where, args...).Scan(&matched); err != nil {
			return "", nil, s.wrapErr("counting runs in", err)
		}
		if matched == 0 {
			return "none", nil, nil
		}
	}
	walk := func(runs int) float64 { // entries passed walking runs newest first
		return min(float64(runs), float64(want)*float64(runs)/float64(matched))
	}
	index, cost := "runs_created", walk(total)
	if f.Board != "" {
		boardRuns, err := s.boardRuns(ctx, f.Board)
		if err != nil {
			return "", nil, err
		}
		if c := walk(boardRuns); c < cost {
			index, cost = "runs_board", c
		}
	}
	if cost <= float64(matched) {
		return index, nil, nil // any other way passes at least the matches
	}
	var nameRuns int
	q := `SELECT COALESCE(SUM(runs), 0) FROM search_names
WHERE id IN (SELECT rowid FROM search_names_fts WHERE search_names_fts MATCH $1)`
	if s.dialect == postgresDialect {
		q = `SELECT COALESCE(SUM(runs), 0) FROM search_names WHERE search @@ to_tsquery('simple', $1)`
	}
	if err := s.db.QueryRowContext(ctx, q, s.searchQuery(searchTerms(f.Text))).Scan(&nameRuns); err != nil {
		return "", nil, s.wrapErr("counting runs in", err)
	}
	if float64(nameRuns) < cost {
		index, cost = "runs_name", float64(nameRuns)
	}
	keys = f.MatchedKeys
	if keys == nil {
		if keys, err = s.matchingKeys(ctx, where, args); err != nil {
			return "", nil, err
		}
	}
	keyRuns, err := s.keyRuns(ctx, keys)
	if err != nil {
		return "", nil, err
	}
	// runs_device_key holds no filtered column: each entry passed costs a row read.
	if len(keys) > 0 && 2*float64(keyRuns) < cost {
		return "runs_device_key", keys, nil
	}
	return index, nil, nil
}

// maxIndexKeys bounds the drives a runs_device_key walk names in its query.
const maxIndexKeys = 50

// matchingKeys returns the device keys of the runs matching where, or an empty slice when there
// are more than maxIndexKeys.
func (s *Store) matchingKeys(ctx context.Context, where string, args []any) ([]string, error) {
	keys, err := queryAll(ctx, s, s.db, "counting runs in", `SELECT DISTINCT device_key FROM run_counts WHERE `+where+
		fmt.Sprintf(` LIMIT %d`, maxIndexKeys+1), args, scanValue[string])
	if err != nil {
		return nil, err
	}
	if len(keys) > maxIndexKeys {
		return []string{}, nil
	}
	return keys, nil
}

// keyRuns is how many runs the device keys have in all.
func (s *Store) keyRuns(ctx context.Context, keys []string) (int, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	in, args := placeholders(keys, 0)
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(runs), 0) FROM run_counts WHERE device_key IN (`+in+`)`, args...).Scan(&n); err != nil {
		return 0, s.wrapErr("counting runs in", err)
	}
	return n, nil
}

// placeholders returns "$k+1, $k+2, …" for values and the values as arguments.
func placeholders(values []string, k int) (string, []any) {
	ph := make([]string, len(values))
	args := make([]any, len(values))
	for i, v := range values {
		ph[i] = fmt.Sprintf("$%d", k+i+1)
		args[i] = v
	}
	return strings.Join(ph, ", "), args
}

// totalRuns is how many runs are stored and boardRuns how many one board has, each read at most
// once per sizesAge: plans only need their size, and summing run_counts on every search would
// cost more than the walk saves.
func (s *Store) totalRuns(ctx context.Context) (int, error) {
	return s.sizes.get("\x00total", func() (int, error) { return s.CountRuns(ctx, Filter{}) })
}

func (s *Store) boardRuns(ctx context.Context, board string) (int, error) {
	return s.sizes.get(board, func() (int, error) { return s.CountRuns(ctx, Filter{Board: board}) })
}

const (
	sizesAge = 10 * time.Second
	maxSizes = 1000 // boards come from requests
)

// sizes keeps counts the plans use for sizesAge.
type sizes struct {
	mu sync.Mutex
	m  map[string]sizeReading
}

type sizeReading struct {
	n  int
	at time.Time
}

func (z *sizes) get(key string, read func() (int, error)) (int, error) {
	z.mu.Lock()
	r, ok := z.m[key]
	z.mu.Unlock()
	if ok && time.Since(r.at) < sizesAge {
		return r.n, nil
	}
	n, err := read()
	if err != nil {
		return 0, err
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.m == nil || len(z.m) >= maxSizes {
		z.m = map[string]sizeReading{}
	}
	z.m[key] = sizeReading{n, time.Now()}
	return n, nil
}

func checkPage(f Filter) (int, error) {
	switch {
	case f.Limit < 0 || f.Offset < 0:
		return 0, fmt.Errorf("store: listing runs: %w: negative limit or offset", ErrInvalid)
	case f.Limit == 0:
		return DefaultLimit, nil
	case f.Limit > MaxLimit:
		return 0, fmt.Errorf("store: listing runs: %w: limit %d is above the maximum %d; page with Offset", ErrInvalid, f.Limit, MaxLimit)
	}
	return f.Limit, nil
}
