package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestFioLinesMatchOnEmulatedMicroSD runs quick on the emulated card, prints its tests as
// `iomark show --fio` does (report.Fio), runs every printed line with real fio from the
// benchmarked directory, and checks that each fio figure is within 5% of iomark's. The test
// file is smaller than quick's so the layouts (iomark's, then fio's) take seconds.
func TestFioLinesMatchOnEmulatedMicroSD(t *testing.T) {
	lab.NeedFio(t)
	d := microSDDrive(t, "fio-lines")
	p := *profile.Quick()
	p.FileBytes = 64 * profile.MiB
	run, err := Run(context.Background(), p, Env{Target: d.Mnt, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	run.ID = "fio-lines-test"
	var out strings.Builder
	if err := report.Fio(&out, run); err != nil {
		t.Fatal(err)
	}
	t.Logf("iomark show --fio:\n%s", out.String())
	if !strings.Contains(out.String(), "cd "+d.Mnt) || !strings.Contains(out.String(), "fio runs each job once") {
		t.Errorf("the script does not say where to run it or that fio runs once")
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "fio ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != len(run.Tests) || len(lines) != len(p.Tests) {
		t.Fatalf("%d fio lines for %d tests (quick has %d), every one expressible", len(lines), len(run.Tests), len(p.Tests))
	}
	// The lines name their file relative to the benchmarked directory. The working directory
	// is restored and the file removed before the drive's cleanup unmounts it.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(d.Mnt); err != nil {
		t.Fatal(err)
	}
	defer func() {
		os.Remove(filepath.Join(d.Mnt, profile.FioFileName))
		if err := os.Chdir(wd); err != nil {
			t.Errorf("back to %s: %v", wd, err)
		}
	}()
	for i, line := range lines {
		tst := run.Tests[i]
		args := strings.Fields(line)[1:]
		if !strings.Contains(line, "--name="+tst.Name+" ") {
			t.Fatalf("line %d is not named after test %s: %s", i, tst.Name, line)
		}
		for _, a := range args {
			if strings.ContainsAny(a, `'"\`) {
				t.Fatalf("%s: quoted argument %q (a plain directory needs none)", tst.Name, a)
			}
		}
		// fio runs each line once; on this shared 2-core machine one run can be starved of
		// CPU, so a line gets up to three runs, each logged, and must match in one of them.
		want := tst.IOPS
		if tst.Primary == profile.PrimaryMBPerS {
			want = tst.MBPerS
		}
		var got float64
		for attempt := 1; attempt <= 3; attempt++ {
			fio, err := lab.RunFio(args...)
			if err != nil {
				t.Fatalf("%s: %v", tst.Name, err)
			}
			got = fio.IOPS()
			if tst.Primary == profile.PrimaryMBPerS {
				got = (fio.ReadBytesPerS + fio.WriteBytesPerS) / 1e6
			}
			t.Logf("%-20s iomark %8.1f, fio %8.1f %s (%+.1f%%; fio ran %.2f s, attempt %d)", tst.Name, want, got, tst.Primary, (got/want-1)*100, fio.RuntimeS, attempt)
			if within(got, want, 0.05) {
				break
			}
		}
		if !within(got, want, 0.05) {
			t.Errorf("%s: fio measured %.1f %s, iomark %.1f: not within 5%% in 3 runs\n%s", tst.Name, got, tst.Primary, want, line)
		}
	}
}
