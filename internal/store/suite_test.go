package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iomark/iomark/internal/testkit/pg"
)

// newDSN gives each subtest an empty database of the back end under test.
type newDSN func(t *testing.T) string

func TestSQLite(t *testing.T) {
	runSuite(t, func(t *testing.T) string {
		return "sqlite:" + filepath.Join(t.TempDir(), "results.db")
	})
}

func TestPostgres(t *testing.T) {
	server := pg.Start(t)
	runSuite(t, func(t *testing.T) string { return pg.NewDatabase(t, server) })
}

// onEachBackend runs a test that wants one empty database on each back end in turn.
func onEachBackend(t *testing.T, test func(t *testing.T, dsn string)) {
	t.Run("SQLite", func(t *testing.T) { test(t, "sqlite:"+filepath.Join(t.TempDir(), "results.db")) })
	t.Run("Postgres", func(t *testing.T) { test(t, pg.NewDatabase(t, pg.Start(t))) })
}

// runSuite is the storage test suite every back end must pass unchanged.
func runSuite(t *testing.T, dsn newDSN) {
	tests := []struct {
		name string
		fn   func(t *testing.T, dsn newDSN)
	}{
		{"SaveAndGet", testSaveAndGet},
		{"NotFound", testNotFound},
		{"DuplicateSameRecord", testDuplicateSameRecord},
		{"DuplicateDifferentRecord", testDuplicateDifferentRecord},
		{"ConcurrentDuplicates", testConcurrentDuplicates},
		{"InvalidInput", testInvalidInput},
		{"AllOrNothing", testAllOrNothing},
		{"Filters", testFilters},
		{"Paging", testPaging},
		{"TextSearch", testTextSearch},
		{"Reopen", testReopen},
		{"MigrationsTwice", testMigrationsTwice},
		{"ConcurrentOpenAndWrite", testConcurrentOpenAndWrite},
		{"Verifies", testVerifies},
		{"VerifyFull", testVerifyFull},
		{"Where", testWhere},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, dsn) })
	}
}

func openT(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("Open(%q): %v", dsn, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func f64(v float64) *float64 { return &v }

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// sampleRun is a run with a record shaped like the result record's JSON contract. The figures are
// placeholders for storage tests, not measurements.
func sampleRun(id string, at time.Time, vendor, model string) (Run, []Test) {
	tests := []Test{
		{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, IOPS: 40, MBPerS: 41.9,
			LatP50US: 24000, LatP99US: 26000, LatMaxUS: 31000, CI95Pct: f64(1.5)},
		{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, IOPS: 700, MBPerS: 2.87,
			LatP50US: 1300, LatP99US: 9000, LatMaxUS: 120000},
	}
	rec := map[string]any{
		"id": id, "created_at": at.Format(time.RFC3339Nano), "tool_version": "0.1.0", "profile": "quick",
		"device": map[string]any{"class": "microsd", "vendor": vendor, "model": model},
		"tests":  []any{map[string]any{"name": "seq-read-1m", "mb_per_s": 41.9}, map[string]any{"name": "rand-write-4k-qd1", "iops": 700}},
		"scores": map[string]any{"iomark": 1234.5},
	}
	b, _ := json.Marshal(rec)
	return Run{
		ID: id, CreatedAt: at, ToolVersion: "0.1.0", Profile: "quick",
		Board: "Raspberry Pi 4 Model B", BoardRevision: "1.5", Arch: "aarch64", DeviceClass: "microsd",
		Vendor: vendor, Model: model, CapacityBytes: 31_914_983_424, LinkBus: "mmc", LinkSpeedMbps: 400,
		DeviceKey: "sd:0x000003:0x5344:" + model, ScoreIomark: f64(1234.5), Source: SourceLocal,
		Record: b,
	}, tests
}

func testSaveAndGet(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	ctx := context.Background()
	run, tests := sampleRun("r1", t0.Add(123456789*time.Nanosecond), "SanDisk", "Extreme Pro “A2” 64GB")
	// Whitespace and key order are kept byte for byte.
	run.Record = json.RawMessage("{\n  \"z\": 1,\n  \"a\": [1.50, \"ü\"]\n}")
	if err := s.SaveRun(ctx, run, tests); err != nil {
		t.Fatalf("SaveRun: %v", err)
	}
	got, gotTests, err := s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	want := run
	want.CreatedAt = t0.Add(123456 * time.Microsecond) // microseconds are kept, nanoseconds dropped
	want.Listed = true                                 // no flags, no moderation
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetRun run (-want +got):\n%s", diff)
	}
	wantTests := append([]Test(nil), tests...)
	for i := range wantTests {
		wantTests[i].RunID = "r1"
	}
	if diff := cmp.Diff(wantTests, gotTests); diff != "" {
		t.Errorf("GetRun tests (-want +got):\n%s", diff)
	}
	if string(got.Record) != string(run.Record) {
		t.Errorf("record changed:\n%s\nwant\n%s", got.Record, run.Record)
	}
	if got.CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt location %v, want UTC", got.CreatedAt.Location())
	}

	// A run with no tests and no scores.
	bare, _ := sampleRun("r2", t0, "Kingston", "Canvas Go")
	bare.ScoreIomark = nil
	if err := s.SaveRun(ctx, bare, nil); err != nil {
		t.Fatalf("SaveRun without tests: %v", err)
	}
	got, gotTests, err = s.GetRun(ctx, "r2")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if got.ScoreIomark != nil || got.ScorePibenchmarks != nil || len(gotTests) != 0 {
		t.Errorf("bare run read back with scores %v/%v and %d tests", got.ScoreIomark, got.ScorePibenchmarks, len(gotTests))
	}
}

func testNotFound(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	// Ids no run can have are not found either, rather than a database error.
	for _, id := range []string{"no-such-run", "", "\xff\xfe", "a\x00b", "a b", strings.Repeat("x", 200)} {
		_, _, err := s.GetRun(context.Background(), id)
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("GetRun(%q): err = %v, want ErrNotFound", id, err)
		}
	}
}

func testDuplicateSameRecord(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	ctx := context.Background()
	run, tests := sampleRun("dup", t0, "Samsung", "Evo Plus")
	if err := s.SaveRun(ctx, run, tests); err != nil {
		t.Fatalf("SaveRun: %v", err)
	}
	// The same record, reformatted: keys reordered and indented.
	var v map[string]any
	if err := json.Unmarshal(run.Record, &v); err != nil {
		t.Fatal(err)
	}
	again := run
	again.Record, _ = json.MarshalIndent(v, "", "    ")
	again.Source = SourceSubmitted // columns are not compared; the record is the run
	err := s.SaveRun(ctx, again, tests)
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("second SaveRun: err = %v, want ErrDuplicate", err)
	}
	var dup *DuplicateError
	if !errors.As(err, &dup) || dup.ID != "dup" || !dup.CreatedAt.Equal(t0) || dup.Source != SourceLocal {
		t.Fatalf("second SaveRun: err = %#v, want a *DuplicateError for dup (stored %v, local)", err, t0)
	}
	if errors.Is(err, ErrConflict) {
		t.Errorf("a duplicate also reports a conflict: %v", err)
	}
	_, gotTests, err := s.GetRun(ctx, "dup")
	if err != nil {
		t.Fatal(err)
	}
	if len(gotTests) != len(tests) {
		t.Errorf("after the duplicate the run has %d tests, want %d", len(gotTests), len(tests))
	}
}

func testDuplicateDifferentRecord(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	ctx := context.Background()
	run, tests := sampleRun("same-id", t0, "Samsung", "Evo Plus")
	if err := s.SaveRun(ctx, run, tests); err != nil {
		t.Fatalf("SaveRun: %v", err)
	}
	other, otherTests := sampleRun("same-id", t0.Add(time.Hour), "Lexar", "Play")
	err := s.SaveRun(ctx, other, otherTests[:1])
	if !errors.Is(err, ErrConflict) || errors.Is(err, ErrDuplicate) {
		t.Fatalf("SaveRun of another record under a stored id: err = %v, want ErrConflict only", err)
	}
	got, gotTests, err := s.GetRun(ctx, "same-id")
	if err != nil {
		t.Fatal(err)
	}
	if got.Vendor != "Samsung" || string(got.Record) != string(run.Record) || len(gotTests) != 2 {
		t.Errorf("the stored run changed: vendor %q, %d tests", got.Vendor, len(gotTests))
	}
}

func testConcurrentDuplicates(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	ctx := context.Background()
	run, tests := sampleRun("race", t0, "Samsung", "Pro Plus")
	const writers = 6
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.SaveRun(ctx, run, tests)
		}()
	}
	wg.Wait()
	saved := 0
	for i, err := range errs {
		switch {
		case err == nil:
			saved++
		case !errors.Is(err, ErrDuplicate):
			t.Errorf("writer %d: %v, want nil or ErrDuplicate", i, err)
		}
	}
	if saved != 1 {
		t.Errorf("%d writers saved the run, want exactly 1", saved)
	}
	_, gotTests, err := s.GetRun(ctx, "race")
	if err != nil || len(gotTests) != len(tests) {
		t.Errorf("GetRun: %d tests, err %v; want %d tests", len(gotTests), err, len(tests))
	}
}

func testInvalidInput(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	ctx := context.Background()
	nan := 0.0
	nan = nan / nan
	cases := []struct {
		name   string
		change func(r *Run, tests []Test) []Test
	}{
		{"empty id", func(r *Run, ts []Test) []Test { r.ID = ""; return ts }},
		{"id with space", func(r *Run, ts []Test) []Test { r.ID = "a b"; return ts }},
		{"long id", func(r *Run, ts []Test) []Test { r.ID = string(make([]byte, 129)); return ts }},
		{"no time", func(r *Run, ts []Test) []Test { r.CreatedAt = time.Time{}; return ts }},
		{"bad source", func(r *Run, ts []Test) []Test { r.Source = "scraped"; return ts }},
		{"record not JSON", func(r *Run, ts []Test) []Test { r.Record = json.RawMessage(`{"a":`); return ts }},
		{"record an array", func(r *Run, ts []Test) []Test { r.Record = json.RawMessage(`[1]`); return ts }},
		{"record empty", func(r *Run, ts []Test) []Test { r.Record = nil; return ts }},
		{"record bad UTF-8", func(r *Run, ts []Test) []Test { r.Record = json.RawMessage("{\"a\":\"\xff\"}"); return ts }},
		{"NUL in model", func(r *Run, ts []Test) []Test { r.Model = "a\x00b"; return ts }},
		{"bad UTF-8 in vendor", func(r *Run, ts []Test) []Test { r.Vendor = "\xc3"; return ts }},
		{"negative capacity", func(r *Run, ts []Test) []Test { r.CapacityBytes = -1; return ts }},
		{"NaN score", func(r *Run, ts []Test) []Test { r.ScorePibenchmarks = &nan; return ts }},
		{"NaN figure", func(r *Run, ts []Test) []Test { ts[1].MBPerS = nan; return ts }},
		{"NaN interval", func(r *Run, ts []Test) []Test { ts[0].CI95Pct = &nan; return ts }},
		{"test of another run", func(r *Run, ts []Test) []Test { ts[0].RunID = "other"; return ts }},
		{"unnamed test", func(r *Run, ts []Test) []Test { ts[1].Name = ""; return ts }},
		{"huge queue depth", func(r *Run, ts []Test) []Test { ts[0].QD = 1 << 40; return ts }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run, tests := sampleRun("bad", t0, "Samsung", "Evo")
			tests = c.change(&run, tests)
			err := s.SaveRun(ctx, run, tests)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("SaveRun: err = %v, want ErrInvalid", err)
			}
			runs, err := s.ListRuns(ctx, Filter{})
			if err != nil || len(runs) != 0 {
				t.Fatalf("after a refused run the store holds %d runs (err %v)", len(runs), err)
			}
		})
	}
}

// testAllOrNothing makes the database refuse the second test of a run and checks that the run
// itself was not kept either.
func testAllOrNothing(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	ctx := context.Background()
	if err := installRefuseTrigger(ctx, s, "refuse-me"); err != nil {
		t.Fatalf("installing the test trigger: %v", err)
	}
	run, tests := sampleRun("half", t0, "Samsung", "Evo")
	tests[1].Name = "refuse-me"
	if err := s.SaveRun(ctx, run, tests); err == nil {
		t.Fatal("SaveRun succeeded although the database refused a test")
	}
	if _, _, err := s.GetRun(ctx, "half"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after a failed save GetRun: err = %v, want ErrNotFound", err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM tests`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after a failed save %d test rows remain (err %v)", n, err)
	}
	// And the same id saves cleanly afterwards.
	tests[1].Name = "rand-write-4k-qd1"
	if err := s.SaveRun(ctx, run, tests); err != nil {
		t.Fatalf("saving after the failure: %v", err)
	}
}

// installRefuseTrigger makes inserting a test named name fail inside the database.
func installRefuseTrigger(ctx context.Context, s *Store, name string) error {
	if s.dialect == postgresDialect {
		if _, err := s.db.ExecContext(ctx, `CREATE FUNCTION refuse_test() RETURNS trigger AS $$
BEGIN
    IF NEW.name = '`+name+`' THEN RAISE EXCEPTION 'refused by the test'; END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql`); err != nil {
			return err
		}
		_, err := s.db.ExecContext(ctx, `CREATE TRIGGER refuse BEFORE INSERT ON tests FOR EACH ROW EXECUTE FUNCTION refuse_test()`)
		return err
	}
	_, err := s.db.ExecContext(ctx, `CREATE TRIGGER refuse BEFORE INSERT ON tests
WHEN new.name = '`+name+`' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`)
	return err
}

// seed stores a small, varied set of runs and returns their ids newest first.
func seed(t *testing.T, s *Store) {
	t.Helper()
	type spec struct {
		id, board, class, vendor, model, key, source string
		minutes                                      int
	}
	specs := []spec{
		{"a", "Raspberry Pi 4 Model B", "microsd", "Samsung", "EVO Plus 64GB", "sd:1b:534d:EB1QT", SourceLocal, 1},
		{"b", "Raspberry Pi 5", "microsd", "Samsung", "PRO Plus 128GB", "sd:1b:534d:GD4QT", SourceSubmitted, 2},
		{"c", "Raspberry Pi 5", "usb-ssd-nvme", "Samsung", "SSD 980 1TB", "usb:152d:0583:SSD 980", SourceSubmitted, 3},
		{"d", "Raspberry Pi 4 Model B", "usb-flash", "SanDisk", "Ultra Fit 32GB", "usb:0781:5583:Ultra Fit", SourceLocal, 4},
		{"e", "Raspberry Pi 4 Model B", "microsd", "SanDisk", "Extreme Pro A2 64GB", "sd:03:5344:SR64G", SourcePublished, 5},
		{"f", "Raspberry Pi 4 Model B", "microsd", "Samsung", "EVO Plus 64GB", "sd:1b:534d:EB1QT", SourceSubmitted, 6},
		{"g", "Raspberry Pi 3 Model B+", "usb-ssd-sata", "Crucial", "2.5″ SATA SSD", "usb:174c:55aa:CT500MX500", SourcePublished, 6}, // same time as f: id breaks the tie
		{"h", "Raspberry Pi 5", "microsd", "Lexar", "Play Café 1TB", "sd:ad:4c53:LX1TB", SourceLocal, 7},
	}
	for _, sp := range specs {
		run, tests := sampleRun(sp.id, t0.Add(time.Duration(sp.minutes)*time.Minute), sp.vendor, sp.model)
		run.Board, run.DeviceClass, run.DeviceKey, run.Source = sp.board, sp.class, sp.key, sp.source
		if err := s.SaveRun(context.Background(), run, tests); err != nil {
			t.Fatalf("seeding %s: %v", sp.id, err)
		}
	}
}

func ids(runs []Run) []string {
	out := []string{}
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}

func testFilters(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	seed(t, s)
	cases := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all, newest first, id breaks ties", Filter{}, []string{"h", "g", "f", "e", "d", "c", "b", "a"}},
		{"device key", Filter{DeviceKey: "sd:1b:534d:EB1QT"}, []string{"f", "a"}},
		{"board", Filter{Board: "Raspberry Pi 5"}, []string{"h", "c", "b"}},
		{"device class", Filter{DeviceClass: "microsd"}, []string{"h", "f", "e", "b", "a"}},
		{"source", Filter{Source: SourcePublished}, []string{"g", "e"}},
		{"board and class", Filter{Board: "Raspberry Pi 4 Model B", DeviceClass: "microsd"}, []string{"f", "e", "a"}},
		{"board and text", Filter{Board: "Raspberry Pi 5", Text: "samsung"}, []string{"c", "b"}},
		{"nothing matches", Filter{Board: "Raspberry Pi 5", Source: SourcePublished}, []string{}},
		{"exact, not prefix", Filter{Board: "Raspberry Pi"}, []string{}},
		{"case matters in filters", Filter{DeviceClass: "MicroSD"}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs, err := s.ListRuns(context.Background(), c.f)
			if err != nil {
				t.Fatalf("ListRuns(%+v): %v", c.f, err)
			}
			if diff := cmp.Diff(c.want, ids(runs)); diff != "" {
				t.Errorf("ListRuns(%+v) ids (-want +got):\n%s", c.f, diff)
			}
			for _, r := range runs {
				if r.Record != nil {
					t.Errorf("run %s: Record filled without WithRecord", r.ID)
				}
			}
		})
	}
	runs, err := s.ListRuns(context.Background(), Filter{DeviceKey: "sd:03:5344:SR64G", WithRecord: true})
	if err != nil || len(runs) != 1 {
		t.Fatalf("ListRuns WithRecord: %d runs, err %v", len(runs), err)
	}
	stored, _, err := s.GetRun(context.Background(), "e")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stored, runs[0]); diff != "" {
		t.Errorf("ListRuns WithRecord and GetRun differ (-get +list):\n%s", diff)
	}
}

func testPaging(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	seed(t, s)
	ctx := context.Background()
	var all []string
	for off := 0; ; off += 3 {
		runs, err := s.ListRuns(ctx, Filter{Limit: 3, Offset: off})
		if err != nil {
			t.Fatalf("ListRuns offset %d: %v", off, err)
		}
		if len(runs) > 3 {
			t.Fatalf("limit 3 returned %d runs", len(runs))
		}
		all = append(all, ids(runs)...)
		if len(runs) < 3 {
			break
		}
	}
	if diff := cmp.Diff([]string{"h", "g", "f", "e", "d", "c", "b", "a"}, all); diff != "" {
		t.Errorf("pages of 3 (-want +got):\n%s", diff)
	}
	for _, f := range []Filter{{Limit: -1}, {Offset: -1}, {Limit: MaxLimit + 1}, {Board: "\xff"}, {DeviceKey: "a\x00"}} {
		if _, err := s.ListRuns(ctx, f); !errors.Is(err, ErrInvalid) {
			t.Errorf("ListRuns(%+v): err = %v, want ErrInvalid", f, err)
		}
	}
	if runs, err := s.ListRuns(ctx, Filter{Limit: MaxLimit}); err != nil || len(runs) != 8 {
		t.Errorf("ListRuns at MaxLimit: %d runs, err %v", len(runs), err)
	}
}

func testTextSearch(t *testing.T, dsn newDSN) {
	s := openT(t, dsn(t))
	seed(t, s)
	cases := []struct {
		text string
		want []string
	}{
		{"samsung", []string{"f", "c", "b", "a"}},
		{"SAMSUNG", []string{"f", "c", "b", "a"}},
		{"sams", []string{"f", "c", "b", "a"}}, // a word prefix
		{"samsung evo", []string{"f", "a"}},    // every word must match
		{"evo samsung", []string{"f", "a"}},    // in any order
		{"evo+", []string{"f", "a"}},           // punctuation is not searched
		{"sandisk 64gb", []string{"e"}},        // vendor and model together
		{"64", []string{"f", "e", "a"}},        // "64GB" starts with 64
		{"ultra fit", []string{"d"}},
		{"2.5″", []string{"g"}}, // non-ASCII punctuation splits words
		{"café", []string{"h"}},
		{"CAFÉ", []string{"h"}},
		{"cafe", []string{}},                                     // accents are kept
		{"sung", []string{}},                                     // not a word prefix
		{"samsung lexar", []string{}},                            // no run is both
		{"  ", []string{"h", "g", "f", "e", "d", "c", "b", "a"}}, // blank: no text filter
		{"+++", []string{}},                                      // only punctuation: nothing
		{`" OR 1=1 --`, []string{}},
		{`samsung') OR ('1'='1`, []string{}},
		{`NEAR(samsung evo)`, []string{}},
		{`samsung* | !lexar`, []string{}}, // operators are words: samsung AND lexar
		{`model:evo`, []string{}},
		{"\xffsamsung\x00", []string{"f", "c", "b", "a"}}, // bad bytes are separators
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			runs, err := s.ListRuns(context.Background(), Filter{Text: c.text})
			if err != nil {
				t.Fatalf("ListRuns(Text %q): %v", c.text, err)
			}
			if diff := cmp.Diff(c.want, ids(runs)); diff != "" {
				t.Errorf("ListRuns(Text %q) ids (-want +got):\n%s", c.text, diff)
			}
		})
	}
	runs, err := s.ListRuns(context.Background(), Filter{Text: "samsung", Limit: 2, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c", "b"}, ids(runs)); diff != "" {
		t.Errorf("search page 2 (-want +got):\n%s", diff)
	}
}

func testReopen(t *testing.T, dsn newDSN) {
	d := dsn(t)
	ctx := context.Background()
	s, err := Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	run, tests := sampleRun("kept", t0, "Samsung", "Evo")
	if err := s.SaveRun(ctx, run, tests); err != nil {
		t.Fatalf("SaveRun: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s2 := openT(t, d)
	got, gotTests, err := s2.GetRun(ctx, "kept")
	if err != nil {
		t.Fatalf("after reopening GetRun: %v", err)
	}
	if string(got.Record) != string(run.Record) || len(gotTests) != len(tests) {
		t.Errorf("after reopening the run differs: %d tests", len(gotTests))
	}
	if runs, err := s2.ListRuns(ctx, Filter{Text: "evo"}); err != nil || len(runs) != 1 {
		t.Errorf("after reopening search found %d runs (err %v)", len(runs), err)
	}
}

func testMigrationsTwice(t *testing.T, dsn newDSN) {
	d := dsn(t)
	ctx := context.Background()
	s := openT(t, d)
	run, tests := sampleRun("before", t0, "Samsung", "Evo")
	if err := s.SaveRun(ctx, run, tests); err != nil {
		t.Fatal(err)
	}
	res, err := s.migrate(ctx)
	if err != nil {
		t.Fatalf("migrating again: %v", err)
	}
	if len(res) != 0 {
		t.Errorf("migrating an up-to-date database applied %d migrations", len(res))
	}
	// A second Open of the same database migrates nothing either and sees the run.
	s2 := openT(t, d)
	if _, _, err := s2.GetRun(ctx, "before"); err != nil {
		t.Fatalf("second Open: %v", err)
	}
	var version int64
	if err := s2.db.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version`).Scan(&version); err != nil {
		t.Fatalf("reading the schema version: %v", err)
	}
	if want := latestMigration(t); version != want {
		t.Errorf("schema version %d, want %d", version, want)
	}
	var applied int
	if err := s2.db.QueryRowContext(ctx, `SELECT count(*) FROM goose_db_version WHERE version_id > 0`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if want := migrationCount(t); applied != want {
		t.Errorf("goose recorded %d applied migrations, want %d (each once)", applied, want)
	}
}

// migrationCount is the number of distinct migration versions: branches number their
// migrations in ranges of their own (a branch's may sit above a gap until the others merge).
func migrationCount(t *testing.T) int { return len(migrationVersions(t)) }

func latestMigration(t *testing.T) int64 {
	var latest int64
	for v := range migrationVersions(t) {
		latest = max(latest, v)
	}
	return latest
}

// migrationVersions are the versions of the SQL migrations and the Go ones.
func migrationVersions(t *testing.T) map[int64]bool {
	t.Helper()
	fsys, _, err := migrationsFor(sqliteDialect)
	if err != nil {
		t.Fatal(err)
	}
	matches, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	versions := map[int64]bool{}
	for _, m := range matches {
		var v int64
		if _, err := fmt.Sscanf(m, "%05d_", &v); err == nil {
			versions[v] = true
		}
	}
	for _, m := range goMigrations() {
		versions[m.Version] = true
	}
	return versions
}

// testConcurrentOpenAndWrite opens one new database from several stores at once (as two iomark
// processes or servers starting together would), then writes through all of them at once.
func testConcurrentOpenAndWrite(t *testing.T, dsn newDSN) {
	d := dsn(t)
	ctx := context.Background()
	const stores, runsEach = 6, 8
	opened := make([]*Store, stores)
	errs := make([]error, stores)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opened[i], errs[i] = Open(ctx, d)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("concurrent Open %d: %v", i, err)
		}
		t.Cleanup(func() { opened[i].Close() })
	}
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range runsEach {
				run, tests := sampleRun(fmt.Sprintf("w%d-%d", i, j), t0.Add(time.Duration(j)*time.Second), "Samsung", "Evo")
				if err := opened[i].SaveRun(ctx, run, tests); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	runs, err := opened[0].ListRuns(ctx, Filter{Limit: MaxLimit})
	if err != nil || len(runs) != stores*runsEach {
		t.Fatalf("after concurrent writes: %d runs, err %v; want %d", len(runs), err, stores*runsEach)
	}
}

// testWhere: Where names the database as `iomark run` prints it after "saved in": a SQLite
// file by its absolute path, a PostgreSQL URL without its password.
func testWhere(t *testing.T, dsn newDSN) {
	d := dsn(t)
	const pw = "s3cret-where-pw"
	if strings.HasPrefix(d, "postgres") {
		u, err := url.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		// The test server trusts local connections: a password is sent and ignored.
		u.User = url.UserPassword(u.User.Username(), pw)
		d = u.String()
	}
	w := openT(t, d).Where()
	if path, ok := strings.CutPrefix(d, "sqlite:"); ok {
		if w != path || !filepath.IsAbs(w) {
			t.Errorf("Where() = %q, want the file %q", w, path)
		}
		return
	}
	if strings.Contains(w, pw) || !strings.Contains(w, "****") {
		t.Errorf("Where() = %q: want the URL with its password hidden", w)
	}
}
