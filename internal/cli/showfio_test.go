package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/record"
)

// TestShowFio: `iomark show --fio` prints a runnable fio line per test, named after it, to run
// from the benchmarked directory, with the note that fio runs once; a test fio cannot run the
// same way gets a reason instead of a line.
func TestShowFio(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	r := &record.Run{SchemaVersion: record.SchemaVersion, ID: newID(t), CreatedAt: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC),
		ToolVersion: "test", Profile: "quick", Target: record.Target{Path: "/media/pi/my card", Kind: "dir"}, Findings: []record.Finding{},
		Tests: []record.Test{
			{Name: "rand-read-4k-qd32", Op: "randread", BS: 4096, QD: 32, Jobs: 1, Engine: "io_uring", Direct: true,
				IOPS: 2600, Primary: "iops", Runs: 3, CI95Pct: 0.4, DurationS: 1.5, WorkingSetBytes: 128 << 20, RampS: 0.25},
			{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: false,
				MBPerS: 20, Primary: "mb_per_s", Runs: 3, DurationS: 3},
		}}
	saveRecords(t, db, r)

	code, out, errOut := runCLI(t, "show", "--db", db, "--fio")
	if code != 0 {
		t.Fatalf("show --fio: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"cd '/media/pi/my card'\n",
		"fio runs each job once",
		"# rand-read-4k-qd32: iomark 2600 IOPS (median of 3 runs, ±0.4%); compare fio's read: IOPS=.\n",
		"fio --name=rand-read-4k-qd32 --filename=iomark-fio.tmp --size=128m --rw=randread --bs=4k --ioengine=io_uring " +
			"--fixedbufs --registerfiles --iodepth=32 --numjobs=1 --direct=1 --norandommap --time_based --runtime=1500ms --ramp_time=750ms\n",
		"# seq-write-1m: no fio line: a buffered peer-style test",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show --fio lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\nfio "); n != 1 {
		t.Errorf("%d fio lines for one expressible test:\n%s", n, out)
	}
	if code, _, _ := runCLI(t, "show", "--db", db, "--fio", "--json"); code != exitUsage {
		t.Errorf("--fio with --json: exit %d, want a usage error", code)
	}
}
