package cli

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

// savedRuns writes two synthetic runs of one microSD card (a day apart) into a new database
// and returns its path and the runs, newest last.
func savedRuns(t *testing.T) (string, []*record.Run) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "results.db")
	var runs []*record.Run
	for i, iops := range []float64{2400, 2600} {
		r := &record.Run{SchemaVersion: record.SchemaVersion, ID: newID(t), CreatedAt: time.Date(2026, 11, 20+i, 12, 0, 0, 0, time.UTC),
			ToolVersion: "test", Profile: "quick", Target: record.Target{Path: "/home/pi", Kind: "dir"},
			Host:          &probe.Board{Model: "Raspberry Pi 4 Model B Rev 1.4", Revision: "c03114", CPUs: 4},
			Device:        &probe.Device{Name: "mmcblk0", Class: probe.ClassMicroSD, Vendor: "SanDisk", Model: "SN64G", CapacityBytes: 63864569856},
			SD:            &probe.SD{ManfID: 3, OEMID: "SD", Name: "SN64G"},
			Link:          []probe.Hop{{Bus: "sd", CeilingMBPerS: 45}},
			CeilingMBPerS: 45, Findings: []record.Finding{}}
		r.Tests = []record.Test{
			{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true, MBPerS: 40, IOPS: 38, Primary: "mb_per_s", Runs: 3, CI95Pct: 1},
			{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true, IOPS: iops, MBPerS: iops * 4096 / 1e6, Primary: "iops", Runs: 3, CI95Pct: 2},
		}
		r.DurationS, r.BytesWritten = 42, 300<<20
		runs = append(runs, r)
	}
	saveRecords(t, db, runs...)
	return db, runs
}

// saveRecords saves runs in the database dsn names, created when missing, as iomark run saves
// its record.
func saveRecords(t *testing.T, dsn string, runs ...*record.Run) {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range runs {
		if err := runstore.Save(context.Background(), st, r, store.SourceLocal); err != nil {
			t.Fatal(err)
		}
	}
}

// newID is a new run id.
func newID(t *testing.T) string {
	t.Helper()
	id, err := record.NewID()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestHistoryShowExportCompare(t *testing.T) {
	db, runs := savedRuns(t)
	latest := runs[1]

	code, out, errOut := runCLI(t, "history", "--db", db)
	if code != 0 || !strings.Contains(out, runstore.ShortID(latest.ID)) || !strings.Contains(out, runstore.ShortID(runs[0].ID)) {
		t.Fatalf("history: exit %d\n%s%s", code, out, errOut)
	}

	code, out, errOut = runCLI(t, "show", "--db", db, "--json", runstore.ShortID(runs[0].ID))
	var got record.Run
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.ID != runs[0].ID {
		t.Fatalf("show by short id: exit %d, id %q\n%s", code, got.ID, errOut)
	}
	code, out, _ = runCLI(t, "show", "--db", db)
	if code != 0 || !strings.Contains(out, "rand-read-4k-qd1") || !strings.Contains(out, "2600") {
		t.Errorf("show latest: exit %d\n%s", code, out)
	}
	if code, _, errOut = runCLI(t, "show", "--db", db, "ffffffffffff"); code != exitFailure || !strings.Contains(errOut, "history") {
		t.Errorf("show of an unknown run: exit %d %q", code, errOut)
	}

	for _, format := range []string{"json", "csv", "md", "html", "svg"} {
		code, out, errOut = runCLI(t, "export", "--db", db, "--format", format)
		if code != 0 || len(out) < 100 {
			t.Errorf("export %s: exit %d, %d bytes: %s", format, code, len(out), errOut)
		}
	}
	pngPath := filepath.Join(t.TempDir(), "run.png")
	if code, _, errOut = runCLI(t, "export", "--db", db, "--format", "png", "--out", pngPath); code != 0 {
		t.Fatalf("export png: exit %d %s", code, errOut)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 200 {
		t.Errorf("exported PNG does not decode to a chart: %v", err)
	}
	if code, _, errOut = runCLI(t, "export", "--db", db, "--format", "doc"); code != exitUsage {
		t.Errorf("unknown format: exit %d %s", code, errOut)
	}

	code, out, errOut = runCLI(t, "compare", "--db", db)
	if code != 0 || !strings.Contains(out, "rand-read-4k-qd1") {
		t.Fatalf("compare: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "earlier runs of this drive: 1") || !strings.Contains(out, "×1.08") {
		t.Errorf("compare does not rank against the one earlier run (2600 vs 2400 IOPS):\n%s", out)
	}
}

// TestHistoryShowsEachProfilesScoreAndPrice: a quick run shows its iomark score (it showed
// "-"), a pibenchmarks run its PiBenchmarks score, a profile without a score "-"; a run
// given --price shows its price per MB/s and per IOPS, in the table and in --json.
func TestHistoryShowsEachProfilesScoreAndPrice(t *testing.T) {
	db, runs := savedRuns(t)
	iomarkScore, pibScore := 1401.0, 1151
	quick, pib := *runs[1], *runs[0]
	quick.ID, quick.Scores.Iomark, quick.PriceUSD = newID(t), &iomarkScore, ptrTo(12.5)
	pib.ID, pib.Profile, pib.Scores = newID(t), "pibenchmarks", record.Scores{Pibenchmarks: &pibScore}
	saveRecords(t, db, &quick, &pib)
	code, out, errOut := runCLI(t, "history", "--db", db)
	if code != 0 {
		t.Fatalf("history: exit %d %s", code, errOut)
	}
	cells := map[string][]string{} // short id: the line's cells (two spaces or more apart)
	for _, l := range strings.Split(out, "\n") {
		c := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(l), -1)
		cells[c[0]] = c
	}
	if c := cells[runstore.ShortID(quick.ID)]; len(c) != 7 || c[5] != "1401 (iomark)" || c[6] != "$12.50: $0.312/MB/s, $0.00481/IOPS" {
		t.Errorf("quick run's history line %q", c)
	}
	if c := cells[runstore.ShortID(pib.ID)]; len(c) != 7 || c[5] != "1151 (pibenchmarks)" || c[6] != "-" {
		t.Errorf("pibenchmarks run's history line %q", c)
	}
	if c := cells[runstore.ShortID(runs[0].ID)]; len(c) != 7 || c[5] != "-" || c[6] != "-" {
		t.Errorf("a run without a score or price: %q", c)
	}
	code, out, _ = runCLI(t, "history", "--db", db, "--json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("history --json: exit %d\n%s", code, out)
	}
	found := false
	for _, r := range rows {
		if r["ID"] == quick.ID {
			found = r["PriceUSD"] == 12.5 && r["USDPerMBPerS"] == 12.5/40 && r["USDPerIOPS"] == 12.5/2600
		}
	}
	if !found {
		t.Errorf("history --json lacks the price per performance:\n%s", out)
	}
}

func ptrTo[T any](v T) *T { return &v }

// latestOf is runstore.Latest on the database file db: the id it takes and those it passes over.
func latestOf(t *testing.T, db string) (string, []string, error) {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, skipped, err := runstore.Latest(context.Background(), st)
	ids := make([]string, len(skipped))
	for i, r := range skipped {
		ids[i] = r.ID
	}
	return run.ID, ids, err
}

// loadRun is the run ref names in the database file db.
func loadRun(t *testing.T, db, ref string) *record.Run {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := runstore.Load(context.Background(), st, ref)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
