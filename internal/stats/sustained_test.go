package stats

import (
	"math"
	"testing"
)

func TestAnalyseSustained(t *testing.T) {
	// 20 s at 100 MB/s (an SLC cache), then 40 s at 30 MB/s: the cliff is at 20 s, after
	// 2000 MB.
	var series []Interval
	for i := 1; i <= 60; i++ {
		mb := 100.0
		if i > 20 {
			mb = 30
		}
		series = append(series, Interval{EndS: float64(i), MBPerS: mb, IOPS: mb / 1.048576})
	}
	s := AnalyseSustained(series, 1)
	if !s.CliffFound || s.CliffAtS != 20 || s.CliffAtBytes != 2000e6 || s.BeforeMBPerS != 100 || s.AfterMBPerS != 30 {
		t.Fatalf("cliff = %+v", s)
	}
	if s.DropPct < 69.9 || s.DropPct > 70.1 || !s.SteadyState || s.SteadyMBPerS != 30 {
		t.Errorf("analysis = %+v", s)
	}
	// A flat series: no cliff, steady.
	if s := AnalyseSustained(series[:20], 1); s.CliffFound || !s.SteadyState || math.Abs(s.SteadyMBPerS-100) > 1e-9 {
		t.Errorf("flat = %+v", s)
	}
	// Nothing at all is no cliff and no state; non-finite samples are no cliff.
	if s := AnalyseSustained(nil, 1); s.CliffFound || s.SteadyState {
		t.Errorf("empty = %+v", s)
	}
	if s := AnalyseSustained([]Interval{{1, math.NaN(), 1}, {2, math.Inf(1), 1}}, 1); s.CliffFound || s.SteadyState {
		t.Errorf("non-finite = %+v", s)
	}
}

// quantised is a write of 1 MiB I/Os at rateMBPerS sampled every second, each sample counting
// the whole I/Os that completed in it, as the engine's series does (at 5 MB/s the samples
// read 4.2 and 5.2 MB/s).
func quantised(fromS, seconds int, rateMBPerS float64) []Interval {
	const ioMB = 1.048576
	var out []Interval
	done := math.Floor(float64(fromS) * rateMBPerS / ioMB)
	for s := fromS + 1; s <= fromS+seconds; s++ {
		n := math.Floor(float64(s)*rateMBPerS/ioMB) - done
		done += n
		out = append(out, Interval{EndS: float64(s), MBPerS: n * ioMB, IOPS: n})
	}
	return out
}

// A slow after-cliff rate settles. 1 MiB writes at 5 MB/s after a cliff from
// 40 MB/s: per-second samples alternate 4.2 and 5.2 MB/s, which the rule read as unsteady
// sample by sample, so a slow stick wrote on to the 8 GiB bound.
func TestSlowAfterCliffRateSettles(t *testing.T) {
	series := append(quantised(0, 10, 40), quantised(10, 60, 5)...)
	per := rates(series[10:])
	lo, hi := per[0], per[0]
	for _, v := range per {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi-lo <= 0.2*5 {
		t.Fatalf("the samples (%.2f..%.2f MB/s) do not show the quantisation this test is about", lo, hi)
	}
	if _, _, ok := SteadyState(per, 0); ok {
		t.Fatal("per-second samples read as steady: the old rule would have stopped too")
	}
	// 30 s asked for: rounds of 6 s (about 29 I/Os each) past the cliff.
	settledAt := -1
	for n := 11; n <= len(series); n++ {
		if SettledAfterCliff(series[:n], 30) {
			settledAt = n
			break
		}
	}
	if settledAt < 0 || settledAt > 10+40 {
		t.Fatalf("settled after %d samples, want within 40 s of the cliff at 10 s", settledAt)
	}
	s := AnalyseSustained(series[:settledAt], 6)
	if !s.CliffFound || !s.SteadyState || math.Abs(s.SteadyMBPerS-5)/5 > 0.03 {
		t.Errorf("analysis %+v: want a cliff and a steady 5 MB/s (±3%%)", s)
	}
	// At 1 MB/s a 6 s round holds under 6 I/Os: rounds grow to 20 I/Os (21 s) each, so
	// settling takes five of them, not 30 s.
	slow := append(quantised(0, 10, 40), quantised(10, 200, 1)...)
	if SettledAfterCliff(slow[:10+60], 30) {
		t.Error("1 MB/s settled on rounds of under 20 I/Os")
	}
	if !SettledAfterCliff(slow, 30) {
		t.Error("1 MB/s never settled over 200 s")
	}
	// The rate a stopped write records is the mean of the rounds that stopped it.
	if m, ok := SettledRate(slow, 30); !ok || math.Abs(m-1) > 0.05 {
		t.Errorf("SettledRate = %.3f, %v; want 1 MB/s (±5%%)", m, ok)
	}
	if m, ok := SettledRate(series[:settledAt], 30); !ok || math.Abs(m-5)/5 > 0.05 {
		t.Errorf("SettledRate = %.3f, %v; want 5 MB/s (±5%%)", m, ok)
	}
}

func TestSteadyRounds(t *testing.T) {
	series := quantised(0, 12, 5) // about 4.8 I/Os a second
	fwd := SteadyRounds(series, 0, 2, false)
	back := SteadyRounds(series, 0, 2, true)
	if len(fwd) != 2 || len(back) != 2 {
		t.Fatalf("forward %+v, backward %+v: want two rounds of at least 20 I/Os in 12 s each way", fwd, back)
	}
	prev := 0.0
	for _, r := range fwd {
		if ios := r.IOPS * (r.EndS - prev); ios < SteadyMinIOs-1e-9 {
			t.Errorf("round %+v holds %.1f I/Os, want at least %d", r, ios, SteadyMinIOs)
		}
		prev = r.EndS
	}
	if back[1].EndS != 12 || fwd[0].EndS > back[0].EndS {
		t.Errorf("forward %+v, backward %+v: backward rounds end at the last sample", fwd, back)
	}
	if SteadyRounds(series, 12, 1, false) != nil || SteadyRounds(series, -1, 1, true) != nil {
		t.Error("rounds from outside the series")
	}
	// Without I/O rates only time counts.
	var noIO []Interval
	for i := 1; i <= 10; i++ {
		noIO = append(noIO, Interval{EndS: float64(i), MBPerS: 3})
	}
	if rs := SteadyRounds(noIO, 0, 2, false); len(rs) != 5 || rs[0].MBPerS != 3 {
		t.Errorf("time-only rounds %+v", rs)
	}
}

func TestSettledAfterCliff(t *testing.T) {
	var xs []Interval
	for i, v := range concat(level(20, 100), level(30, 30)) {
		xs = append(xs, Interval{EndS: float64(i + 1), MBPerS: v, IOPS: v})
	}
	if SettledAfterCliff(xs[:49], 30) {
		t.Error("settled after 29 s of a 30 s requirement")
	}
	if !SettledAfterCliff(xs, 30) {
		t.Error("not settled after 30 steady seconds past the cliff")
	}
	if SettledAfterCliff(xs[:20], 30) {
		t.Error("settled without a cliff")
	}
	if SettledAfterCliff(xs, 0) {
		t.Error("settled with no steady time asked for")
	}
}
