package stats

import "math"

// Steady-state rule of the SNIA Solid State Storage Performance Test Specification (PTS)
// 2.0.2, §2.1.24: over a measurement window of rounds (five in the PTS), the series is steady
// when
//
//	range:  max(y) - min(y) ≤ 20% of mean(y) in the window, and
//	slope:  the excursion of the least-squares line over the window, |slope|·(window-1),
//	        ≤ 10% of mean(y).
//
// iomark applies it to any series, e.g. per-second throughput of a sustained write.
const (
	DefaultSteadyWindow = 5    // SNIA PTS measurement window, in rounds (samples here)
	steadyMaxRangeFrac  = 0.20 // range within 20% of the window mean
	steadyMaxSlopeFrac  = 0.10 // best-fit excursion within 10% of the window mean
)

// SteadyState finds where a series settles: the first index start such that xs[start :
// start+window] meets the SNIA PTS rule above, and that window's mean. window < 2 means
// DefaultSteadyWindow. ok is false when no window qualifies or the series is shorter than a
// window; a window holding a non-finite value never qualifies.
//
// A series with an SLC-cache cliff is steady before the cliff too; to find the rate it
// settles at after the cliff pass xs[cliff.Index:].
func SteadyState(xs []float64, window int) (start int, mean float64, ok bool) {
	if window < 2 {
		window = DefaultSteadyWindow
	}
	if len(xs) < window {
		return 0, 0, false
	}
	pos := make([]float64, window)
	for i := range pos {
		pos[i] = float64(i)
	}
	for s := 0; s+window <= len(xs); s++ {
		w := xs[s : s+window]
		if m, steady := isSteady(w, pos); steady {
			return s, m, true
		}
	}
	return 0, 0, false
}

// isSteady applies the rule to one window; pos holds 0..len(w)-1.
func isSteady(w, pos []float64) (windowMean float64, ok bool) {
	vals, _ := finiteValues(w)
	if len(vals) != len(w) {
		return 0, false
	}
	scale := scaleOf(w)
	z := scaled(w, scale)
	lo, hi := z[0], z[0]
	for _, v := range z {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	m := mean(z)
	slope := slopeLeastSquares(pos, z)
	excursion := math.Abs(slope) * float64(len(w)-1)
	if hi-lo <= steadyMaxRangeFrac*math.Abs(m) && excursion <= steadyMaxSlopeFrac*math.Abs(m) {
		return clampFinite(m * scale), true
	}
	return 0, false
}
