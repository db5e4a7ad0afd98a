package cli

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
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
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var runs []*record.Run
	for i, iops := range []float64{2400, 2600} {
		id, err := record.NewID()
		if err != nil {
			t.Fatal(err)
		}
		r := &record.Run{SchemaVersion: record.SchemaVersion, ID: id, CreatedAt: time.Date(2026, 11, 20+i, 12, 0, 0, 0, time.UTC),
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
		row, tests, err := runstore.Row(r, store.SourceLocal)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SaveRun(context.Background(), row, tests); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return db, runs
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
