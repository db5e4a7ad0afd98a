package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iomark/iomark/internal/testkit/pg"
)

// The kept tables (search_names, run_counts) must always say what runs says: these tests save
// runs every way a server does (one by one, in batches, concurrently, with duplicates and
// failures), then compare the kept counts with counts read from runs, and the lists each query
// plan returns with lists computed here.

func TestCountsSQLite(t *testing.T) {
	testCounts(t, func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "results.db") })
}

func TestCountsPostgres(t *testing.T) {
	server := pg.Start(t)
	testCounts(t, func(t *testing.T) string { return pg.NewDatabase(t, server) })
}

func testCounts(t *testing.T, dsn newDSN) {
	t.Run("MatchRuns", func(t *testing.T) { testCountsMatchRuns(t, dsn(t)) })
	t.Run("ConcurrentBatches", func(t *testing.T) { testConcurrentBatches(t, dsn(t)) })
	t.Run("SearchPlans", func(t *testing.T) { testSearchPlans(t, dsn(t)) })
	t.Run("UpgradeFromVersion2", func(t *testing.T) { testUpgradeFromVersion2(t, dsn(t)) })
}

// variedRun is a run whose filtered columns vary with i.
func variedRun(i int) (Run, []Test) {
	vendors := []string{"Samsung", "SanDisk", "Kingston", ""}
	models := []string{"EVO Plus 64GB", "Extreme", "Canvas Go! Plus", "PRO Endurance", ""}
	boards := []string{"Raspberry Pi 4 Model B", "Raspberry Pi 5", ""}
	r, tests := sampleRun(fmt.Sprintf("run-%04d", i), t0.Add(time.Duration(i)*time.Second), vendors[i%4], models[i%5])
	r.Board = boards[i%3]
	r.Source = []string{SourceLocal, SourceSubmitted, SourcePublished}[i%3/2]
	r.DeviceClass = []string{"microsd", "usb-ssd"}[i%2]
	r.LinkBus = []string{"mmc", "usb"}[i%2]
	r.CapacityBytes = int64(32+i%3*32) * 1e9
	r.DeviceKey = fmt.Sprintf("key-%d", i%7)
	if i%11 == 0 {
		r.DeviceKey = "" // unidentified: a run, not a drive
	}
	return r, tests
}

// checkCounts compares run_counts with the same counts taken from the listed runs.
func checkCounts(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	read := func(q string) map[countKey]int64 {
		rows, err := s.db.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[countKey]int64{}
		for rows.Next() {
			var k countKey
			var n int64
			if err := rows.Scan(&k.DeviceKey, &k.Board, &k.Source, &k.NameID, &k.DeviceClass, &k.Vendor,
				&k.Model, &k.LinkBus, &k.CapacityBytes, &n); err != nil {
				t.Fatal(err)
			}
			out[k] = n
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	const cols = `device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes`
	kept := read(`SELECT ` + cols + `, runs FROM run_counts`)
	counted := read(`SELECT ` + cols + `, COUNT(*) FROM runs WHERE listed = 1 GROUP BY ` + cols)
	if diff := cmp.Diff(counted, kept); diff != "" {
		t.Errorf("run_counts differs from the runs (-counted +kept):\n%s", diff)
	}
	var stray int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs r LEFT JOIN search_names n ON n.id = r.name_id
WHERE n.id IS NULL OR n.search_text <> r.search_text`).Scan(&stray); err != nil {
		t.Fatal(err)
	}
	if stray != 0 {
		t.Errorf("%d runs point at no search name or another one", stray)
	}
	var wrong int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM search_names n
WHERE n.runs <> (SELECT COUNT(*) FROM runs r WHERE r.name_id = n.id AND r.listed = 1)`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 {
		t.Errorf("%d search names count their runs wrong", wrong)
	}
}

func testCountsMatchRuns(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	var all []Run
	for i := range 40 {
		r, tests := variedRun(i)
		if err := s.SaveRun(ctx, r, tests); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	var batch []BatchRun
	for i := 40; i < 100; i++ {
		r, tests := variedRun(i)
		batch = append(batch, BatchRun{r, tests})
		all = append(all, r)
	}
	dup, dupTests := variedRun(3) // stored already: counted once
	conflict, conflictTests := variedRun(4)
	conflict.Model = "Another"
	conflict.Record = []byte(`{"another": true}`)
	bad, badTests := variedRun(100)
	bad.Source = "nowhere"
	batch = append(batch, BatchRun{dup, dupTests}, BatchRun{conflict, conflictTests}, BatchRun{bad, badTests})
	errs := s.SaveBatch(ctx, batch)
	for i, err := range errs[:60] {
		if err != nil {
			t.Fatalf("batch run %d: %v", i, err)
		}
	}
	if !errors.Is(errs[60], ErrDuplicate) || !errors.Is(errs[61], ErrConflict) || !errors.Is(errs[62], ErrInvalid) {
		t.Fatalf("duplicate, conflict, invalid: %v; %v; %v", errs[60], errs[61], errs[62])
	}
	checkCounts(t, s)

	// Every count and grouping agrees with the runs counted here.
	for _, c := range []struct {
		f Filter
		n Narrow
	}{
		{Filter{}, Narrow{}},
		{Filter{Board: "Raspberry Pi 5"}, Narrow{}},
		{Filter{DeviceKey: "key-3"}, Narrow{}},
		{Filter{DeviceClass: "usb-ssd", Source: SourceSubmitted}, Narrow{}},
		{Filter{Text: "sams"}, Narrow{}},
		{Filter{Text: "plus"}, Narrow{LinkBus: "usb", MinCapacityBytes: 50e9}},
		{Filter{Text: "+++"}, Narrow{}},
	} {
		var want []Run
		drives := map[string]int{}
		for _, r := range all {
			if matches(r, c.f, c.n) {
				want = append(want, r)
				if r.DeviceKey != "" {
					drives[r.DeviceKey]++
				}
			}
		}
		n, err := s.CountRuns(ctx, c.f, c.n)
		if err != nil || n != len(want) {
			t.Errorf("CountRuns(%+v, %+v) = %d, %v; want %d", c.f, c.n, n, err, len(want))
		}
		nd, err := s.CountDrives(ctx, c.f, c.n)
		if err != nil || nd != len(drives) {
			t.Errorf("CountDrives(%+v, %+v) = %d, %v; want %d", c.f, c.n, nd, err, len(drives))
		}
		groups, err := s.Drives(ctx, c.f, c.n)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, g := range groups {
			got[g.Key] = g.Runs
		}
		if diff := cmp.Diff(drives, got); diff != "" && len(drives)+len(got) > 0 {
			t.Errorf("Drives(%+v, %+v) (-want +got):\n%s", c.f, c.n, diff)
		}
	}
}

// matches is Filter and Narrow's meaning, written out for the runs variedRun makes.
func matches(r Run, f Filter, n Narrow) bool {
	if f.Board != "" && r.Board != f.Board || f.DeviceKey != "" && r.DeviceKey != f.DeviceKey ||
		f.DeviceClass != "" && r.DeviceClass != f.DeviceClass || f.Source != "" && r.Source != f.Source ||
		n.LinkBus != "" && r.LinkBus != n.LinkBus || n.MinCapacityBytes > 0 && r.CapacityBytes < n.MinCapacityBytes ||
		n.MaxCapacityBytes > 0 && r.CapacityBytes > n.MaxCapacityBytes {
		return false
	}
	if f.Text == "" {
		return true
	}
	terms := searchTerms(f.Text)
	if len(terms) == 0 {
		return false
	}
	have := words(r.Vendor + " " + r.Model)
	for _, term := range terms {
		if !slices.ContainsFunc(have, func(w string) bool { return len(w) >= len(term) && w[:len(term)] == term }) {
			return false
		}
	}
	return true
}

// testConcurrentBatches saves overlapping batches from several goroutines at once, each in its
// own order, as a server's savers do: nothing may deadlock or fail, and the counts stay exact.
func testConcurrentBatches(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	const savers, rounds, perBatch, distinct = 4, 6, 25, 120
	var wg sync.WaitGroup
	errs := make(chan error, savers*rounds*perBatch)
	for w := range savers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range rounds {
				var batch []BatchRun
				for range perBatch {
					r, tests := variedRun(rng.IntN(distinct))
					batch = append(batch, BatchRun{r, tests})
				}
				for i, err := range s.SaveBatch(ctx, batch) {
					if err != nil && !errors.Is(err, ErrDuplicate) {
						errs <- fmt.Errorf("saver %d, run %s: %w", w, batch[i].Run.ID, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkCounts(t, s)
}

// testSearchPlans stores runs where one word is in most names and another in few, so a search
// for the first walks runs by date, one for the second reads its matches by name, and one on a
// board with few runs walks that board; every plan, and every page of it, must list exactly
// what a sort here lists.
func testSearchPlans(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	var batch []BatchRun
	var all []Run
	for i := range 600 {
		model := fmt.Sprintf("Common %d", i%40)
		if i%50 == 0 {
			model = "Rare " + model
		}
		r, tests := sampleRun(fmt.Sprintf("r%04d", i), t0.Add(time.Duration(i%97)*time.Minute), "V", model)
		r.Board = []string{"A", "B"}[i%2]
		r.CapacityBytes = 64e9
		if i%40 < 2 {
			r.CapacityBytes = 32e9 // two drives of the forty
		}
		batch = append(batch, BatchRun{r, tests})
		all = append(all, r)
	}
	other, otherTests := sampleRun("c-only", t0, "Other", "Drive")
	other.Board = "C"
	batch = append(batch, BatchRun{other, otherTests})
	for i, err := range s.SaveBatch(ctx, batch) {
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	small := Narrow{MaxCapacityBytes: 40e9}
	for _, c := range []struct {
		f     Filter
		n     Narrow
		index string
	}{
		{Filter{Text: "common", Limit: 20}, Narrow{}, "runs_created"},
		{Filter{Text: "common", Limit: 20, Offset: 280}, Narrow{}, "runs_created"},
		{Filter{Text: "common", Board: "B", Limit: 20, Offset: 7}, Narrow{}, "runs_board"}, // half the runs
		{Filter{Text: "common", Board: "C", Limit: 20}, Narrow{}, "none"},                  // C has one run, not of these
		{Filter{Text: "rare", Limit: 5}, Narrow{}, "runs_name"},
		{Filter{Text: "rare common", Limit: 20, Offset: 5}, Narrow{}, "runs_name"},
		{Filter{Text: "rare", Board: "A", Limit: 20}, Narrow{}, "runs_name"},
		{Filter{Text: "common", Limit: 20}, small, "runs_device_key"}, // a common word, two drives
		{Filter{Text: "common", Board: "A", Limit: 20, Offset: 3}, small, "runs_device_key"},
	} {
		{
			where, args, _, err := s.filterWhere(ctx, c.f, c.n)
			if err != nil {
				t.Fatal(err)
			}
			index, _, err := s.textListIndex(ctx, c.f, where, args, c.f.Limit+c.f.Offset)
			if err != nil || index != c.index {
				t.Errorf("textListIndex(%+v, %+v) = %v, %v; want %v", c.f, c.n, index, err, c.index)
			}
		}
		for _, desc := range []bool{true, false} {
			var want []string
			for _, r := range all {
				if matches(r, c.f, c.n) {
					want = append(want, r.ID)
				}
			}
			slices.SortFunc(want, func(a, b string) int {
				ra, rb := all[slices.IndexFunc(all, func(r Run) bool { return r.ID == a })], all[slices.IndexFunc(all, func(r Run) bool { return r.ID == b })]
				c := ra.CreatedAt.Compare(rb.CreatedAt)
				if c == 0 {
					c = cmpString(ra.ID, rb.ID)
				}
				if desc {
					c = -c
				}
				return c
			})
			want = want[min(c.f.Offset, len(want)):min(c.f.Offset+c.f.Limit, len(want))]
			runs, err := s.SortedRuns(ctx, c.f, "date", desc, c.n)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, ids(runs), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("SortedRuns(%+v, desc %v) (-want +got):\n%s", c.f, desc, diff)
			}
		}
	}
}

// Orders other than by date read every match: beyond MaxSortedRuns they are refused, by date
// never.
func TestSortedRunsRefusesLargeSorts(t *testing.T) {
	s := openT(t, "sqlite:"+filepath.Join(t.TempDir(), "results.db"))
	ctx := context.Background()
	r, tests := sampleRun("one", t0, "V", "M")
	if err := s.SaveRun(ctx, r, tests); err != nil {
		t.Fatal(err)
	}
	many := Filter{Text: "v", Matched: MaxSortedRuns + 1}
	if _, err := s.SortedRuns(ctx, many, "score", true); !errors.Is(err, ErrInvalid) {
		t.Errorf("sorting %d runs by score: %v; want ErrInvalid", many.Matched, err)
	}
	if runs, err := s.SortedRuns(ctx, many, "date", true); err != nil || len(runs) != 1 {
		t.Errorf("by date: %v, %v", ids(runs), err)
	}
	if runs, err := s.SortedRuns(ctx, Filter{Text: "v"}, "score", true); err != nil || len(runs) != 1 {
		t.Errorf("sorting one run by score: %v, %v", ids(runs), err)
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// testUpgradeFromVersion2 fills a database at schema version 2 (runs searched directly) and
// opens it with this iomark: the migrations must give every stored run its search name and
// count, and search must find them as before.
func testUpgradeFromVersion2(t *testing.T, dsn string) {
	ctx := context.Background()
	d, target, err := parseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var old *Store
	if d == postgresDialect {
		old, err = openPostgres(ctx, target)
	} else {
		old, err = openSQLite(ctx, target, sqliteCacheKiB)
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := old.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatalf("migrating to version 2: %v", err)
	}
	const insertV2 = `INSERT INTO runs (id, created_at_us, tool_version, profile, board, board_revision,
    device_class, vendor, model, capacity_bytes, link_bus, link_speed_mbps, device_key,
    score_iomark, score_pibenchmarks, source, search_text, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`
	for i := range 30 {
		r, _ := variedRun(i)
		if _, err := old.db.ExecContext(ctx, insertV2, r.ID, toMicros(r.CreatedAt), r.ToolVersion, r.Profile,
			r.Board, r.BoardRevision, r.DeviceClass, r.Vendor, r.Model, r.CapacityBytes, r.LinkBus,
			r.LinkSpeedMbps, r.DeviceKey, nullFloat(r.ScoreIomark), nullFloat(r.ScorePibenchmarks), r.Source,
			searchText(r.Vendor, r.Model), string(r.Record)); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	s := openT(t, dsn)
	checkCounts(t, s)
	if n, err := s.CountRuns(ctx, Filter{Text: "samsung evo"}); err != nil || n != 2 {
		t.Errorf(`after the upgrade, CountRuns("samsung evo") = %d, %v; want 2 (runs 0 and 20)`, n, err)
	}
	runs, err := s.ListRuns(ctx, Filter{Text: "kingston canvas"})
	if diff := cmp.Diff([]string{"run-0022", "run-0002"}, ids(runs)); err != nil || diff != "" {
		t.Errorf(`after the upgrade, ListRuns("kingston canvas"): %v (-want +got):\n%s`, err, diff)
	}
	// A new run with an old name joins the old name's row.
	r, tests := variedRun(40)
	if err := s.SaveRun(ctx, r, tests); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s)
}
