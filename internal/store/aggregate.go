package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
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
	// The headline figures the comparison model stored (run_rank); runs without one come last.
	"pibenchmarks":  rankSort("score"),
	"seq_read":      rankSort("seq_read_mb_per_s"),
	"seq_write":     rankSort("seq_write_mb_per_s"),
	"rand_read_4k":  rankSort("rand_read_4k_mb_per_s"),
	"rand_write_4k": rankSort("rand_write_4k_mb_per_s"),
}

// rankSort sorts by a column of the run's decision; both databases take the subquery.
func rankSort(col string) string {
	return "(SELECT k." + col + " FROM run_rank k WHERE k.run_id = runs.id)"
}

// nullableSorts are the orders whose value a run may lack: those runs come last either way.
var nullableSorts = map[string]bool{"score": true, "pibenchmarks": true, "seq_read": true, "seq_write": true,
	"rand_read_4k": true, "rand_write_4k": true}

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
	from, index := `runs`, ""
	if sort == "date" && strings.TrimSpace(f.Text) != "" {
		var keys []string
		if index, keys, err = s.textListIndex(ctx, f, where, args, limit+f.Offset); err != nil {
			return nil, err
		}
		if index == "none" {
			return nil, nil
		}
		if keys != nil {
			in, keyArgs := placeholders(keys, len(args))
			where += ` AND device_key IN (` + in + `)`
			args = append(args, keyArgs...)
		}
		if s.dialect == sqliteDialect {
			from += ` INDEXED BY ` + index
		}
	}
	// Only listed runs (migration 00008); said after the index is picked, which reads run_counts, where every
	// run is listed. Every index lists walk holds listed runs only, so this costs nothing.
	where = listedOnly(where, "")
	cols := runColumns
	if f.WithRecord {
		cols += ", record"
	}
	order := runOrder(sort, col, desc)
	if s.dialect == postgresDialect && (index == "runs_created" || index == "runs_board") && usesNameSubquery(where) {
		return s.walkPostgres(ctx, cols, where, args, order, limit, f)
	}
	q := `SELECT ` + cols + ` FROM ` + from
	if sort == "date" {
		// Ids first, from the index alone (migration 00005 puts every filtered column in the
		// date, board and name indexes), then the rows of the page only: a filter that passes
		// thousands of runs to list twenty then reads twenty rows, not thousands.
		q = `SELECT id FROM ` + from
	}
	q += ` WHERE ` + where
	q += ` ORDER BY ` + order + fmt.Sprintf(` LIMIT $%d OFFSET $%d`, len(args)+1, len(args)+2)
	args = append(args, limit, f.Offset)
	if sort == "date" {
		q = `SELECT ` + cols + ` FROM runs WHERE id IN (` + q + `) ORDER BY ` + order
	}
	return s.listRuns(ctx, q, args, f.WithRecord)
}

// runOrder is the ORDER BY of SortedRuns by sort, whose column is col. col comes from RunSorts,
// never from the caller. By date the order is exactly that of the runs_created index (either
// direction), so the database can walk it and stop at the page; only the values a run may
// lack need the NULLs-last term.
func runOrder(sort, col string, desc bool) string {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	switch {
	case sort == "date":
		return `created_at_us` + dir + `, id` + dir
	case nullableSorts[sort]:
		return `CASE WHEN ` + col + ` IS NULL THEN 1 ELSE 0 END, ` + col + dir + `, created_at_us DESC, id DESC`
	default:
		return col + dir + `, created_at_us DESC, id DESC`
	}
}

func (s *Store) listRuns(ctx context.Context, q string, args []any, withRecord bool) ([]Run, error) {
	return queryAll(ctx, s, s.db, "listing runs in", q, args, func(rows *sql.Rows) (Run, error) {
		return scanRun(rows, withRecord)
	})
}

// listedOnly adds "listed = 1" (of the runs table, named by prefix) to a WHERE clause of runs.
// The literal 1 matters: it is how both databases see that the partial indexes of migration 00008
// hold every row the query may return.
func listedOnly(where, prefix string) string {
	if where == "" {
		return prefix + "listed = 1"
	}
	return prefix + "listed = 1 AND " + where
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
	var out []Figure
	err := s.EachFigure(ctx, f, func(fg *Figure) error {
		out = append(out, *fg)
		return nil
	}, names...)
	return out, err
}

// EachFigure calls fn with each figure Figures would return, in that order, without keeping
// them: a caller summarising many figures holds only what it keeps. fn must not keep fg, which
// the next row overwrites; an error from fn stops the reading and is returned.
func (s *Store) EachFigure(ctx context.Context, f Filter, fn func(fg *Figure) error, names ...string) error {
	limit := f.Limit
	if limit <= 0 || limit > MaxFigures {
		limit = MaxFigures
	}
	where, args, none, err := s.filterWhere(ctx, f)
	if err != nil {
		return fmt.Errorf("store: reading figures: %w", err)
	}
	if none {
		return nil
	}
	conds := []string{listedOnly(where, "r.")}
	if len(names) > 0 {
		ph := make([]string, len(names))
		for i, n := range names {
			if err := checkText("test name", n); err != nil {
				return fmt.Errorf("store: reading figures: %w", err)
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
	q += ` WHERE ` + strings.Join(conds, " AND ")
	args = append(args, limit)
	q += fmt.Sprintf(` ORDER BY r.created_at_us DESC, r.id DESC, t.seq LIMIT $%d`, len(args))
	var fg Figure
	var stop error // fn's own, returned as it is
	err = s.queryRows(ctx, s.db, "reading figures from", q, args, func(rows *sql.Rows) error {
		if err := rows.Scan(&fg.RunID, &fg.DeviceKey, &fg.DeviceClass, &fg.Vendor, &fg.Model, &fg.Board,
			&fg.LinkBus, &fg.LinkSpeedMbps, &fg.Source, &fg.Test, &fg.IOPS, &fg.MBPerS); err != nil {
			return err
		}
		stop = fn(&fg)
		return stop
	})
	if stop != nil {
		return stop
	}
	return err
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
	return queryAll(ctx, s, s.db, "grouping runs by board in", `SELECT board, SUM(runs) AS n FROM run_counts WHERE board <> ''
GROUP BY board ORDER BY n DESC, board LIMIT $1`, []any{limit}, func(rows *sql.Rows) (g Group, err error) {
		err = rows.Scan(&g.Key, &g.Runs)
		return g, err
	})
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
	return queryAll(ctx, s, s.db, "grouping runs by drive in", q, args, scanDrive)
}

// scanDrive scans a drive's row of run_counts: its key, class, vendor, model and runs.
func scanDrive(rows *sql.Rows) (g Group, err error) {
	err = rows.Scan(&g.Key, &g.DeviceClass, &g.Vendor, &g.Model, &g.Runs)
	return g, err
}

// Summary is what a search shows besides its page of runs: how many runs match and the drives
// they are of.
type Summary struct {
	Runs   int
	Drives []Group // every matching drive, the most runs first (ties by key)
}

// Keys returns the device keys of the summary's drives (and "" when some matching runs have
// none), or an empty slice when there are more than maxIndexKeys: a Filter's MatchedKeys.
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
	if len(keys) > maxIndexKeys {
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
	err = s.queryRows(ctx, s.db, "summarizing runs in", q+` GROUP BY device_key`, args, func(rows *sql.Rows) error {
		g, err := scanDrive(rows)
		if err != nil {
			return err
		}
		sm.Runs += g.Runs
		if g.Key != "" {
			sm.Drives = append(sm.Drives, g)
		}
		return nil
	})
	if err != nil {
		return Summary{}, err
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

// HasSource reports whether any listed run of that source is stored.
func (s *Store) HasSource(ctx context.Context, source string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM runs WHERE listed = 1 AND source = $1 LIMIT 1`, source).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, s.wrapErr("reading "+source+" runs in", err)
	}
	return true, nil
}
