package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Queries the results server needs besides GetRun: counts for paging, sorted lists, per-test
// figures for medians and spreads, and groupings by drive and board. Medians and spreads are
// computed by the caller from Figures: SQLite has no percentile function, and both back ends
// must answer alike. Counts and groupings read run_counts (counts.go), lists read runs.

// RunSorts are the orders SortedRuns accepts, by name, with the column each sorts by.
var RunSorts = map[string]string{
	"date":     "created_at_us",
	"vendor":   "vendor",
	"model":    "model",
	"board":    "board",
	"class":    "device_class",
	"capacity": "capacity_bytes",
	"link":     "link_speed_mbps",
	"score":    "score_iomark",
	"source":   "source",
}

// Narrow selects runs further than Filter, by what the search page offers besides text: the
// bus the drive is attached by and a capacity range. Functions take at most one.
type Narrow struct {
	LinkBus          string // exact match, e.g. usb, sd, pcie
	MinCapacityBytes int64  // 0: no lower bound
	MaxCapacityBytes int64  // 0: no upper bound
}

// filterWhere builds the WHERE clause of f (without the keyword) and its arguments, numbered
// from 1. none is true when f can match nothing (a text query of punctuation only).
func (s *Store) filterWhere(ctx context.Context, f Filter, narrow ...Narrow) (where string, args []any, none bool, err error) {
	var conds []string
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if len(narrow) > 1 {
		return "", nil, false, fmt.Errorf("%w: more than one Narrow", ErrInvalid)
	}
	for _, n := range narrow {
		if err := checkText("link bus", n.LinkBus); err != nil {
			return "", nil, false, err
		}
		if n.LinkBus != "" {
			conds = append(conds, "link_bus = "+arg(n.LinkBus))
		}
		if n.MinCapacityBytes < 0 || n.MaxCapacityBytes < 0 {
			return "", nil, false, fmt.Errorf("%w: negative capacity bound", ErrInvalid)
		}
		if n.MinCapacityBytes > 0 {
			conds = append(conds, "capacity_bytes >= "+arg(n.MinCapacityBytes))
		}
		if n.MaxCapacityBytes > 0 {
			conds = append(conds, "capacity_bytes <= "+arg(n.MaxCapacityBytes))
		}
	}
	for _, eq := range []struct{ col, val string }{
		{"device_key", f.DeviceKey},
		{"board", f.Board},
		{"device_class", f.DeviceClass},
		{"source", f.Source},
	} {
		if err := checkText(eq.col, eq.val); err != nil {
			return "", nil, false, err
		}
		if eq.val != "" {
			conds = append(conds, eq.col+" = "+arg(eq.val))
		}
	}
	if strings.TrimSpace(f.Text) != "" {
		// No checkText: searchTerms keeps only letters and digits (invalid bytes separate words).
		terms := searchTerms(f.Text)
		if len(terms) == 0 {
			return "", nil, true, nil
		}
		cond, arg0, err := s.searchCondition(ctx, s.searchQuery(terms))
		if err != nil {
			return "", nil, false, err
		}
		if arg0 == nil {
			return "", nil, true, nil
		}
		conds = append(conds, fmt.Sprintf(cond, arg(arg0)))
	}
	return strings.Join(conds, " AND "), args, false, nil
}

// CountRuns returns how many runs f selects (Limit and Offset are ignored). It reads
// run_counts, which holds every column a Filter or Narrow selects by, so it is exact and does
// not grow with the runs.
func (s *Store) CountRuns(ctx context.Context, f Filter, narrow ...Narrow) (int, error) {
	where, args, none, err := s.filterWhere(ctx, f, narrow...)
	if err != nil {
		return 0, fmt.Errorf("store: counting runs: %w", err)
	}
	if none {
		return 0, nil
	}
	q := `SELECT COALESCE(SUM(runs), 0) FROM run_counts`
	if where != "" {
		q += ` WHERE ` + where
	}
	var n int
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, s.wrapErr("counting runs in", err)
	}
	return n, nil
}

// MaxSortedRuns is the most runs SortedRuns sorts other than by date: those orders have no
// index to walk, so every match is read and sorted (seconds for a word in a sixth of a million
// runs), where by date the page is found at once.
const MaxSortedRuns = 10000

// SortedRuns is ListRuns in another order: sort names a key of RunSorts ("" is "date"), desc
// reverses it. Runs without the sorted value (no score) come last either way; ties are broken
// newest first. Orders other than by date refuse (ErrInvalid) when more than MaxSortedRuns
// runs match.
func (s *Store) SortedRuns(ctx context.Context, f Filter, sort string, desc bool, narrow ...Narrow) ([]Run, error) {
	if sort == "" {
		sort = "date"
	}
	col, ok := RunSorts[sort]
	if !ok {
		return nil, fmt.Errorf("store: listing runs: %w: unknown sort %q", ErrInvalid, sort)
	}
	limit, err := checkPage(f)
	if err != nil {
		return nil, err
	}
	where, args, none, err := s.filterWhere(ctx, f, narrow...)
	if err != nil {
		return nil, fmt.Errorf("store: listing runs: %w", err)
	}
	if none {
		return nil, nil
	}
	if sort != "date" {
		// Any other order reads and sorts every match; beyond MaxSortedRuns that takes seconds.
		n := f.Matched
		if n <= 0 {
			if n, err = s.CountRuns(ctx, f, narrow...); err != nil {
				return nil, err
			}
		}
		if n > MaxSortedRuns {
			return nil, fmt.Errorf("store: listing runs: %w: %d runs match; sorting by %s is offered for at most %d, so narrow the search or sort by date", ErrInvalid, n, sort, MaxSortedRuns)
		}
	}
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	from, plan := `runs`, ""
	if sort == "date" && strings.TrimSpace(f.Text) != "" {
		var keys []string
		if plan, keys, err = s.textListPlan(ctx, f, where, args, limit+f.Offset); err != nil {
			return nil, err
		}
		if plan == "none" {
			return nil, nil
		}
		if keys != nil {
			in, keyArgs := placeholders(keys, len(args))
			where += ` AND device_key IN (` + in + `)`
			args = append(args, keyArgs...)
		}
		if s.dialect == sqliteDialect {
			from += ` INDEXED BY ` + plan
		}
	}
	cols := runColumns
	if f.WithRecord {
		cols += ", record"
	}
	// col comes from RunSorts, never from the caller. By date the order is exactly that of the
	// runs_created index (either direction), so the database can walk it and stop at the page;
	// only the score can be NULL, and only it needs the NULLs-last term.
	var order string
	switch sort {
	case "date":
		order = `created_at_us` + dir + `, id` + dir
	case "score":
		order = `CASE WHEN ` + col + ` IS NULL THEN 1 ELSE 0 END, ` + col + dir + `, created_at_us DESC, id DESC`
	default:
		order = col + dir + `, created_at_us DESC, id DESC`
	}
	if s.dialect == postgresDialect && (plan == "runs_created" || plan == "runs_board") &&
		strings.Contains(where, strings.TrimSuffix(postgresNameSubquery, "%s))")) {
		return s.walkPostgres(ctx, cols, where, args, order, limit, f)
	}
	q := `SELECT ` + cols + ` FROM ` + from
	if sort == "date" {
		// Ids first, from the index alone (migration 00005 puts every filtered column in the
		// date, board and name indexes), then the rows of the page only: a filter that passes
		// thousands of runs to list twenty then reads twenty rows, not thousands.
		q = `SELECT id FROM ` + from
	}
	if where != "" {
		q += ` WHERE ` + where
	}
	q += ` ORDER BY ` + order + fmt.Sprintf(` LIMIT $%d OFFSET $%d`, len(args)+1, len(args)+2)
	args = append(args, limit, f.Offset)
	if sort == "date" {
		q = `SELECT ` + cols + ` FROM runs WHERE id IN (` + q + `) ORDER BY ` + order
	}
	return s.listRuns(ctx, q, args, f.WithRecord)
}

func (s *Store) listRuns(ctx context.Context, q string, args []any, withRecord bool) ([]Run, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.wrapErr("listing runs in", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		run, err := scanRun(rows, withRecord)
		if err != nil {
			return nil, s.wrapErr("listing runs in", err)
		}
		out = append(out, run)
	}
	return out, s.wrapErr("listing runs in", rows.Err())
}

// walkPostgres lists a text search for a word in very many names (postgresNameSubquery) by
// walking an index newest first (runs_created, or runs_board when the search names a board:
// PostgreSQL picks). PostgreSQL estimates the subquery at a couple of names whatever the word,
// so left alone it reads every match and sorts them; sorting is turned off for the one statement that finds the page's ids
// (and parallel workers, which cost more than they bring on a small page), then the rows of
// those ids are read.
func (s *Store) walkPostgres(ctx context.Context, cols, where string, args []any, order string, limit int, f Filter) ([]Run, error) {
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
	rows, err := tx.QueryContext(ctx, q, append(args, limit, f.Offset)...)
	if err != nil {
		return nil, s.wrapErr("listing runs in", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, s.wrapErr("listing runs in", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrapErr("listing runs in", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.listRuns(ctx, `SELECT `+cols+` FROM runs WHERE id = ANY($1) ORDER BY `+order, []any{ids}, f.WithRecord)
}

// textListPlan picks the index that lists the newest want runs matching a text search while
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
func (s *Store) textListPlan(ctx context.Context, f Filter, where string, args []any, want int) (plan string, keys []string, err error) {
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
	plan, cost := "runs_created", walk(total)
	if f.Board != "" {
		boardRuns, err := s.boardRuns(ctx, f.Board)
		if err != nil {
			return "", nil, err
		}
		if c := walk(boardRuns); c < cost {
			plan, cost = "runs_board", c
		}
	}
	if cost <= float64(matched) {
		return plan, nil, nil // any other way passes at least the matches
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
		plan, cost = "runs_name", float64(nameRuns)
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
	return plan, nil, nil
}

// maxPlanKeys bounds the drives a runs_device_key plan names in its query.
const maxPlanKeys = 50

// matchingKeys returns the device keys of the runs matching where, or an empty slice when there
// are more than maxPlanKeys.
func (s *Store) matchingKeys(ctx context.Context, where string, args []any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT device_key FROM run_counts WHERE `+where+
		fmt.Sprintf(` LIMIT %d`, maxPlanKeys+1), args...)
	if err != nil {
		return nil, s.wrapErr("counting runs in", err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, s.wrapErr("counting runs in", err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrapErr("counting runs in", err)
	}
	if len(keys) > maxPlanKeys {
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
// cost more than the plan saves.
func (s *Store) totalRuns(ctx context.Context) (int, error) {
	return s.sizes.get(ctx, "\x00total", func() (int, error) { return s.CountRuns(ctx, Filter{}) })
}

func (s *Store) boardRuns(ctx context.Context, board string) (int, error) {
	return s.sizes.get(ctx, board, func() (int, error) { return s.CountRuns(ctx, Filter{Board: board}) })
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

func (z *sizes) get(ctx context.Context, key string, read func() (int, error)) (int, error) {
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

// Figure is one test figure of one run, with the run columns that group it.
type Figure struct {
	RunID         string
	DeviceKey     string
	DeviceClass   string
	Vendor        string
	Model         string
	Board         string
	LinkBus       string
	LinkSpeedMbps int
	Source        string
	Test          string
	IOPS          float64
	MBPerS        float64
}

// MaxFigures bounds one Figures call.
const MaxFigures = 100000

// Figures returns the figures of the runs f selects (its Limit counts figures, up to
// MaxFigures; 0 means MaxFigures), restricted to the named tests when names is not empty,
// newest run first.
func (s *Store) Figures(ctx context.Context, f Filter, names ...string) ([]Figure, error) {
	limit := f.Limit
	if limit <= 0 || limit > MaxFigures {
		limit = MaxFigures
	}
	where, args, none, err := s.filterWhere(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("store: reading figures: %w", err)
	}
	if none {
		return nil, nil
	}
	var conds []string
	if where != "" {
		conds = append(conds, where)
	}
	if len(names) > 0 {
		ph := make([]string, len(names))
		for i, n := range names {
			if err := checkText("test name", n); err != nil {
				return nil, fmt.Errorf("store: reading figures: %w", err)
			}
			args = append(args, n)
			ph[i] = fmt.Sprintf("$%d", len(args))
		}
		conds = append(conds, "t.name IN ("+strings.Join(ph, ", ")+")")
	}
	// filterWhere names bare columns; only runs has them, except name (qualified above).
	q := `SELECT r.id, r.device_key, r.device_class, r.vendor, r.model, r.board, r.link_bus,
    r.link_speed_mbps, r.source, t.name, t.iops, t.mb_per_s
FROM runs r JOIN tests t ON t.run_id = r.id`
	if len(conds) > 0 {
		q += ` WHERE ` + strings.Join(conds, " AND ")
	}
	args = append(args, limit)
	q += fmt.Sprintf(` ORDER BY r.created_at_us DESC, r.id DESC, t.seq LIMIT $%d`, len(args))
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.wrapErr("reading figures from", err)
	}
	defer rows.Close()
	var out []Figure
	for rows.Next() {
		var fg Figure
		if err := rows.Scan(&fg.RunID, &fg.DeviceKey, &fg.DeviceClass, &fg.Vendor, &fg.Model, &fg.Board,
			&fg.LinkBus, &fg.LinkSpeedMbps, &fg.Source, &fg.Test, &fg.IOPS, &fg.MBPerS); err != nil {
			return nil, s.wrapErr("reading figures from", err)
		}
		out = append(out, fg)
	}
	return out, s.wrapErr("reading figures from", rows.Err())
}

// Group is a value of a column and how many runs have it.
type Group struct {
	Key         string // the device key or board
	DeviceClass string // drives only: the class most recently reported
	Vendor      string // drives only
	Model       string // drives only
	Runs        int
}

// Boards returns the boards with runs, the most runs first (ties by name), at most limit
// (0: DefaultLimit).
func (s *Store) Boards(ctx context.Context, limit int) ([]Group, error) {
	if limit <= 0 || limit > MaxLimit {
		limit = DefaultLimit
	}
	rows, err := s.db.QueryContext(ctx, `SELECT board, SUM(runs) AS n FROM run_counts WHERE board <> ''
GROUP BY board ORDER BY n DESC, board LIMIT $1`, limit)
	if err != nil {
		return nil, s.wrapErr("grouping runs by board in", err)
	}
	defer rows.Close()
	var out []Group
	for rows.Next() {
		var g Group
		if err := rows.Scan(&g.Key, &g.Runs); err != nil {
			return nil, s.wrapErr("grouping runs by board in", err)
		}
		out = append(out, g)
	}
	return out, s.wrapErr("grouping runs by board in", rows.Err())
}

// Drives returns the drives (device keys) of the runs f selects, the most runs first (ties by
// key), paged by f.Limit and f.Offset. Runs without a device key are not drives; they are
// listed as runs.
func (s *Store) Drives(ctx context.Context, f Filter, narrow ...Narrow) ([]Group, error) {
	limit, err := checkPage(f)
	if err != nil {
		return nil, err
	}
	where, args, none, err := s.filterWhere(ctx, f, narrow...)
	if err != nil {
		return nil, fmt.Errorf("store: grouping runs by drive: %w", err)
	}
	if none {
		return nil, nil
	}
	q := `SELECT device_key, MAX(device_class), MAX(vendor), MAX(model), SUM(runs) AS n FROM run_counts WHERE device_key <> ''`
	if where != "" {
		q += ` AND ` + where
	}
	args = append(args, limit, f.Offset)
	q += fmt.Sprintf(` GROUP BY device_key ORDER BY n DESC, device_key LIMIT $%d OFFSET $%d`, len(args)-1, len(args))
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.wrapErr("grouping runs by drive in", err)
	}
	defer rows.Close()
	var out []Group
	for rows.Next() {
		var g Group
		if err := rows.Scan(&g.Key, &g.DeviceClass, &g.Vendor, &g.Model, &g.Runs); err != nil {
			return nil, s.wrapErr("grouping runs by drive in", err)
		}
		out = append(out, g)
	}
	return out, s.wrapErr("grouping runs by drive in", rows.Err())
}

// Summary is what a search shows besides its page of runs: how many runs match and the drives
// they are of.
type Summary struct {
	Runs   int
	Drives []Group // every matching drive, the most runs first (ties by key)
}

// Keys returns the device keys of the summary's drives (and "" when some matching runs have
// none), or an empty slice when there are more than maxPlanKeys: a Filter's MatchedKeys.
func (sm Summary) Keys() []string {
	var keys []string
	n := 0
	for _, g := range sm.Drives {
		keys = append(keys, g.Key)
		n += g.Runs
	}
	if n < sm.Runs {
		keys = append(keys, "") // runs without a key are not drives, but are matches
	}
	if len(keys) > maxPlanKeys {
		return []string{}
	}
	return keys
}

// Summarize counts the runs f and narrow select and groups them by drive, in one reading of
// run_counts (CountRuns and Drives would read it twice).
func (s *Store) Summarize(ctx context.Context, f Filter, narrow ...Narrow) (Summary, error) {
	where, args, none, err := s.filterWhere(ctx, f, narrow...)
	if err != nil {
		return Summary{}, fmt.Errorf("store: summarizing runs: %w", err)
	}
	sm := Summary{Drives: []Group{}}
	if none {
		return sm, nil
	}
	q := `SELECT device_key, MAX(device_class), MAX(vendor), MAX(model), SUM(runs) AS n FROM run_counts`
	if where != "" {
		q += ` WHERE ` + where
	}
	rows, err := s.db.QueryContext(ctx, q+` GROUP BY device_key`, args...)
	if err != nil {
		return Summary{}, s.wrapErr("summarizing runs in", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g Group
		if err := rows.Scan(&g.Key, &g.DeviceClass, &g.Vendor, &g.Model, &g.Runs); err != nil {
			return Summary{}, s.wrapErr("summarizing runs in", err)
		}
		sm.Runs += g.Runs
		if g.Key != "" {
			sm.Drives = append(sm.Drives, g)
		}
	}
	if err := rows.Err(); err != nil {
		return Summary{}, s.wrapErr("summarizing runs in", err)
	}
	slices.SortFunc(sm.Drives, func(a, b Group) int {
		return cmp.Or(cmp.Compare(b.Runs, a.Runs), cmp.Compare(a.Key, b.Key))
	})
	return sm, nil
}

// CountDrives returns how many drives Drives would list without paging.
func (s *Store) CountDrives(ctx context.Context, f Filter, narrow ...Narrow) (int, error) {
	where, args, none, err := s.filterWhere(ctx, f, narrow...)
	if err != nil {
		return 0, fmt.Errorf("store: counting drives: %w", err)
	}
	if none {
		return 0, nil
	}
	q := `SELECT COUNT(DISTINCT device_key) FROM run_counts WHERE device_key <> ''`
	if where != "" {
		q += ` AND ` + where
	}
	var n int
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, s.wrapErr("counting drives in", err)
	}
	return n, nil
}

// HasSource reports whether any run of that source is stored.
func (s *Store) HasSource(ctx context.Context, source string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM runs WHERE source = $1 LIMIT 1`, source).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, s.wrapErr("reading "+source+" runs in", err)
	}
	return true, nil
}
