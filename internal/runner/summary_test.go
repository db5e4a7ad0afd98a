package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

func TestMedianIndex(t *testing.T) {
	cases := []struct {
		xs   []float64
		want int
	}{
		{[]float64{5}, 0},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 3}, // lower middle of 1 2 3 4 is 2, at index 3
		{[]float64{2, 2, 2}, 1},
	}
	for _, c := range cases {
		if got := medianIndex(c.xs); got != c.want {
			t.Errorf("medianIndex(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}

// engineRun is one repetition: mbPerS over durationS, busy cpuS seconds of CPU, with a series
// of one point a second. Placeholder figures for the summary's arithmetic, not a measurement.
func engineRun(mbPerS, durationS, cpuS float64) *engine.Result {
	res := &engine.Result{Engine: engine.EnginePsync, MBPerS: mbPerS, IOPS: mbPerS, MiBPerS: mbPerS / 1.048576,
		DurationS: durationS, Bytes: int64(mbPerS * 1e6 * durationS), IOs: 1,
		CPU: engine.CPU{UsrS: cpuS * 0.75, SysS: cpuS * 0.25}}
	for s := 1.0; s <= durationS; s++ {
		res.Series = append(res.Series, engine.Point{TS: s, MBPerS: mbPerS})
	}
	return res
}

// TestSummaryIsTheMedianRun: duration_s, bytes, series and cpu_pct are those of the median
// repetition (docs/result-record.md), not sums over all of them or the longest one. Three
// runs each kept one core busy: cpu_pct is 100, where dividing the median run's CPU time by
// the runs' summed duration read 33.
func TestSummaryIsTheMedianRun(t *testing.T) {
	r := &runner{rec: &record.Run{}, env: Env{Probe: &probe.Report{CeilingMBPerS: 80}}}
	tst := profile.Test{Name: "seq-read-1m", Pattern: engine.Read, BlockSize: profile.MiB, QD: 1, Jobs: 1,
		Primary: profile.PrimaryMBPerS, MinRuns: 3, MaxRuns: 10}
	runs := []*engine.Result{engineRun(41, 3, 3), engineRun(40, 5, 5), engineRun(39, 4, 4)}
	for i, res := range runs {
		// A write test's ramp is replanned per run; the record keeps the median run's.
		res.WorkingSetBytes, res.RampS = 128*profile.MiB, 0.1*float64(i+1)
	}
	rt := r.summarise(tst, runs, []float64{41, 40, 39})
	med := runs[1]
	if rt.WorkingSetBytes != 128*profile.MiB || rt.RampS != med.RampS {
		t.Errorf("working set %d B, ramp %.2f s: want the median run's %d B and %.2f s (show --fio prints them)",
			rt.WorkingSetBytes, rt.RampS, med.WorkingSetBytes, med.RampS)
	}
	if rt.MBPerS != 40 || rt.DurationS != med.DurationS || rt.Bytes != med.Bytes {
		t.Errorf("figures %.0f MB/s, %.1f s, %d bytes: want the median run's 40 MB/s, %.1f s, %d bytes",
			rt.MBPerS, rt.DurationS, rt.Bytes, med.DurationS, med.Bytes)
	}
	if len(rt.Series) != len(med.Series) || rt.Series[0].MBPerS != 40 {
		t.Errorf("series of %d points at %v: want the median run's %d", len(rt.Series), rt.Series, len(med.Series))
	}
	if rt.CPUPct < 99.9 || rt.CPUPct > 100.1 {
		t.Errorf("cpu_pct %.1f, want 100: each run kept one core busy over its own duration", rt.CPUPct)
	}
	if rt.Runs != 3 || len(rt.RunValues) != 3 || rt.CeilingPct == nil || *rt.CeilingPct != 50 {
		t.Errorf("runs %d, values %v, ceiling share %v", rt.Runs, rt.RunValues, rt.CeilingPct)
	}

	// The cpu-bound finding reads that share: one psync thread busy all along is CPU-bound.
	r.rec.Tests = []record.Test{*rt}
	r.rec.Host = &probe.Board{CPUs: 4}
	r.p = *profile.Quick()
	r.start = time.Now()
	r.finish()
	found := false
	for _, f := range r.rec.Findings {
		found = found || f.ID == "cpu-bound"
	}
	if !found {
		t.Errorf("findings %+v: want cpu-bound for a test at 100%% of its one thread", r.rec.Findings)
	}
}

func TestCPUPctOfAnEmptyRun(t *testing.T) {
	if got := cpuPct(&engine.Result{CPU: engine.CPU{UsrS: 1}}); got != 0 {
		t.Errorf("cpu_pct of a run without duration = %v, want 0", got)
	}
}

// TestOneReportPerCause: a noisy figure is said by its flag and the noisy finding, not also a
// warning; an engine note shared by several tests is one warning naming them; every warning
// carries a code.
func TestOneReportPerCause(t *testing.T) {
	r := &runner{rec: &record.Run{}, p: *profile.Quick(), start: time.Now()}
	tst := func(name string) profile.Test {
		return profile.Test{Name: name, Pattern: engine.RandRead, BlockSize: 4096, QD: 1, Jobs: 1,
			Primary: profile.PrimaryMBPerS, MinRuns: 3, MaxRuns: 10}
	}
	fallback := "io_uring unavailable (function not implemented): using psync"
	noisyRuns := []*engine.Result{engineRun(10, 2, 0.1), engineRun(14, 2, 0.1), engineRun(18, 2, 0.1)}
	for _, res := range noisyRuns {
		res.EngineNote = fallback
	}
	a := r.summarise(tst("rand-read-4k-qd1"), noisyRuns, []float64{10, 14, 18})
	b := r.summarise(tst("rand-read-4k-qd32"), noisyRuns, []float64{10, 14, 18})
	r.rec.Tests = []record.Test{*a, *b}
	r.finish()
	if !a.Noisy || !b.Noisy {
		t.Fatalf("noisy flags %v %v, want both", a.Noisy, b.Noisy)
	}
	var engineWarnings, noisyFindings int
	for _, w := range r.rec.Warnings {
		if w.Code == "" {
			t.Errorf("warning without a code: %+v", w)
		}
		if w.Code == "noisy" || strings.Contains(w.Message, "noisy") {
			t.Errorf("noisy said again as a warning: %+v", w)
		}
		if w.Code == WarnEngine {
			engineWarnings++
			if !strings.Contains(w.Message, fallback) || !strings.Contains(w.Message, "rand-read-4k-qd1, rand-read-4k-qd32") {
				t.Errorf("engine warning %q should give the note once with both tests", w.Message)
			}
		}
	}
	for _, f := range r.rec.Findings {
		if f.ID == "noisy" {
			noisyFindings++
		}
	}
	if engineWarnings != 1 || noisyFindings != 1 {
		t.Errorf("%d engine warnings and %d noisy findings, want one each: %+v %+v", engineWarnings, noisyFindings, r.rec.Warnings, r.rec.Findings)
	}
}

// TestOneWarningPerCause: a test measured once gets stats' single-run warning and not also
// few-runs ("measured once" and "measured 1 times" must not both appear); two runs of a
// test that wanted three get few-runs alone.
func TestOneWarningPerCause(t *testing.T) {
	tst := profile.Test{Name: "seq-write-1m", Pattern: engine.Write, BlockSize: profile.MiB, QD: 1, Jobs: 1,
		Primary: profile.PrimaryMBPerS, MinRuns: 3, MaxRuns: 10}
	for _, tc := range []struct {
		values []float64
		want   []string // warning codes
	}{
		{[]float64{40}, []string{"single-run"}},
		{[]float64{40, 41}, []string{WarnFewRuns}},
		{[]float64{40, 41, 40.5}, nil},
	} {
		r := &runner{rec: &record.Run{}}
		var runs []*engine.Result
		for _, v := range tc.values {
			runs = append(runs, engineRun(v, 3, 1))
		}
		rt := r.summarise(tst, runs, tc.values)
		r.warnFewRuns(tst, rt, 11*time.Second)
		var got []string
		for _, w := range r.rec.Warnings {
			got = append(got, w.Code)
			if strings.Contains(w.Message, "measured 1 times") {
				t.Errorf("%d runs: %q", len(tc.values), w.Message)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%d runs: warnings %v, want %v (%+v)", len(tc.values), got, tc.want, r.rec.Warnings)
		}
	}
}
