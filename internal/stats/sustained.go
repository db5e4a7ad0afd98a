package stats

import "math"

// Sustained is the analysis of a long write's per-interval throughput: where its rate fell
// (an SLC cache filling up, or heat), the rates either side, and what it settled at.
type Sustained struct {
	CliffFound bool
	// CliffAtS and CliffAtBytes are the time (the end of the last interval before the lower
	// rate) and the bytes written by then, from the rates and interval ends given.
	CliffAtS     float64
	CliffAtBytes int64
	// BeforeMBPerS and AfterMBPerS are FindCliff's mean rates either side of the cliff;
	// AfterMBPerS includes the transition. DropPct = 100*(1-After/Before).
	BeforeMBPerS, AfterMBPerS, DropPct float64
	// SteadyState says the rate after the cliff (or the whole series, without one) met the
	// SNIA PTS steady-state rule (SteadyState); SteadyMBPerS is the rate it settled at — the
	// one to show as "the after-cliff rate".
	SteadyState  bool
	SteadyMBPerS float64
}

// AnalyseSustained finds the cliff of a per-interval throughput series (FindCliff), where it
// happened in time and bytes, the rates before and after it, and whether the rate after it
// (or the whole series, without a cliff) reached a steady state. endS holds each interval's
// end in seconds since the write began and mbPerS its rate (10^6 bytes/s); they are read
// pairwise, the shorter one bounding both. It does not judge why the rate fell.
func AnalyseSustained(endS, mbPerS []float64) Sustained {
	n := min(len(endS), len(mbPerS))
	xs := mbPerS[:n]
	var out Sustained
	c := FindCliff(xs)
	from := 0
	if c.Found {
		from = c.Index
		out.CliffFound, out.BeforeMBPerS, out.AfterMBPerS, out.DropPct = true, c.Before, c.After, c.DropPct
		prevS, bytes := 0.0, 0.0
		for k := 0; k < c.Index; k++ {
			bytes += xs[k] * 1e6 * (endS[k] - prevS)
			prevS = endS[k]
		}
		out.CliffAtS, out.CliffAtBytes = prevS, int64(math.Round(bytes))
	}
	if _, mean, ok := SteadyState(xs[from:], 0); ok {
		out.SteadyState, out.SteadyMBPerS = true, mean
	}
	return out
}

// SettledAfterCliff reports whether a live throughput series shows a cliff followed by a rate
// that has been steady (SteadyState) over its last samples samples: the rate after the cliff
// is then known, and a sustained write may stop. False for samples ≤ 0.
func SettledAfterCliff(xs []float64, samples int) bool {
	if samples <= 0 {
		return false
	}
	c := FindCliff(xs)
	if !c.Found {
		return false
	}
	after := xs[c.Index:]
	if len(after) < samples {
		return false
	}
	_, _, ok := SteadyState(after[len(after)-samples:], 0)
	return ok
}
