package stats

import (
	"math"
	"testing"
)

func TestAnalyseSustained(t *testing.T) {
	// 20 s at 100 MB/s (an SLC cache), then 40 s at 30 MB/s: the cliff is at 20 s, after
	// 2000 MB.
	var endS, rates []float64
	for i := 1; i <= 60; i++ {
		mb := 100.0
		if i > 20 {
			mb = 30
		}
		endS, rates = append(endS, float64(i)), append(rates, mb)
	}
	s := AnalyseSustained(endS, rates)
	if !s.CliffFound || s.CliffAtS != 20 || s.CliffAtBytes != 2000e6 || s.BeforeMBPerS != 100 || s.AfterMBPerS != 30 {
		t.Fatalf("cliff = %+v", s)
	}
	if s.DropPct < 69.9 || s.DropPct > 70.1 || !s.SteadyState || s.SteadyMBPerS != 30 {
		t.Errorf("analysis = %+v", s)
	}
	// A flat series: no cliff, steady.
	if s := AnalyseSustained(endS[:20], rates[:20]); s.CliffFound || !s.SteadyState || s.SteadyMBPerS != 100 {
		t.Errorf("flat = %+v", s)
	}
	// Slices of unequal length are read pairwise; nothing at all is no cliff and no state.
	if s := AnalyseSustained(endS, rates[:20]); s.CliffFound {
		t.Errorf("unequal lengths = %+v", s)
	}
	if s := AnalyseSustained(nil, nil); s.CliffFound || s.SteadyState {
		t.Errorf("empty = %+v", s)
	}
	if s := AnalyseSustained([]float64{1, 2}, []float64{math.NaN(), math.Inf(1)}); s.CliffFound {
		t.Errorf("non-finite = %+v", s)
	}
}

func TestSettledAfterCliff(t *testing.T) {
	xs := concat(level(20, 100), level(29, 30))
	if SettledAfterCliff(xs, 30) {
		t.Error("settled after 29 s of a 30 s requirement")
	}
	if !SettledAfterCliff(append(xs, 30), 30) {
		t.Error("not settled after 30 steady seconds past the cliff")
	}
	if SettledAfterCliff(xs[:20], 30) {
		t.Error("settled without a cliff")
	}
	if SettledAfterCliff(append(xs, 30), 0) {
		t.Error("settled with no steady time asked for")
	}
}
