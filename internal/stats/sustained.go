package stats

import "math"

// Interval is one sample of a throughput series: when it ended (seconds since the series
// began), its rate in 10^6 bytes/s and its I/O rate (0 when unknown).
type Interval struct {
	EndS, MBPerS, IOPS float64
}

// SteadyMinIOs is the fewest I/Os a round of the steady-state rule holds. A sample counts
// whole I/Os: 1 MiB writes at 5 MB/s complete 4 or 5 in a second, so per-second samples read
// 4.2 and 5.2 MB/s, a 22% range the 20% rule calls unsteady whatever the drive does. Over 20
// I/Os one more or less moves a round's rate by at most 5%, so the rule sees the rate, not
// the quantisation.
const SteadyMinIOs = 20

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
	// SNIA PTS steady-state rule (SteadyState) over rounds of the series (SteadyRounds);
	// SteadyMBPerS is the rate it settled at — the one to show as "the after-cliff rate".
	SteadyState  bool
	SteadyMBPerS float64
}

// AnalyseSustained finds the cliff of a per-interval throughput series (FindCliff on the
// samples' rates), where it happened in time and bytes, the rates before and after it, and
// whether the rate after it (or the whole series, without a cliff) reached a steady state:
// the SNIA rule over rounds of at least roundS seconds and SteadyMinIOs I/Os each
// (SteadyRounds). It does not judge why the rate fell.
func AnalyseSustained(series []Interval, roundS float64) Sustained {
	xs := rates(series)
	var out Sustained
	c := FindCliff(xs)
	from := 0
	if c.Found {
		from = c.Index
		out.CliffFound, out.BeforeMBPerS, out.AfterMBPerS, out.DropPct = true, c.Before, c.After, c.DropPct
		prevS, bytes := 0.0, 0.0
		for k := 0; k < c.Index; k++ {
			if v := xs[k]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				bytes += v * 1e6 * (series[k].EndS - prevS)
			}
			prevS = series[k].EndS
		}
		out.CliffAtS, out.CliffAtBytes = prevS, int64(math.Round(bytes))
	}
	if _, mean, ok := SteadyState(rates(SteadyRounds(series, from, roundS, false)), 0); ok {
		out.SteadyState, out.SteadyMBPerS = true, mean
	}
	return out
}

// SettledAfterCliff reports whether a live throughput series shows a cliff followed by a rate
// that has been steady for the last steadyS seconds at least: the SNIA rule met by the last
// DefaultSteadyWindow rounds after the cliff, each of at least steadyS/DefaultSteadyWindow
// seconds and SteadyMinIOs I/Os (so a slow after-cliff rate settles too, over longer
// rounds). The rate after the cliff is then known, and a sustained write may stop. False for
// steadyS ≤ 0.
func SettledAfterCliff(series []Interval, steadyS float64) bool {
	_, ok := SettledRate(series, steadyS)
	return ok
}

// SettledRate is SettledAfterCliff with the rate the series settled at: the mean of those
// last rounds. A write stopped by this rule records this rate, because AnalyseSustained
// builds its rounds forward from the cliff over the final series, and those rounds can fall
// differently from the ones that stopped the write (a 5 MB/s rate stopped as settled was once
// recorded as not steady).
func SettledRate(series []Interval, steadyS float64) (mbps float64, ok bool) {
	if steadyS <= 0 {
		return 0, false
	}
	c := FindCliff(rates(series))
	if !c.Found {
		return 0, false
	}
	rounds := SteadyRounds(series, c.Index, steadyS/DefaultSteadyWindow, true)
	if len(rounds) < DefaultSteadyWindow {
		return 0, false
	}
	_, mean, ok := SteadyState(rates(rounds[len(rounds)-DefaultSteadyWindow:]), 0)
	return mean, ok
}

// SteadyRounds merges consecutive intervals of series[from:] into rounds of at least minS
// seconds and SteadyMinIOs I/Os each (I/Os are not counted when the series has no I/O rate),
// each round's rates its bytes and I/Os over its time. Built from the first interval on, or
// with backward from the last one back (a partial round at the far end is left out either
// way); the rounds are returned in time order.
func SteadyRounds(series []Interval, from int, minS float64, backward bool) []Interval {
	if from < 0 || from >= len(series) {
		return nil
	}
	countIOs := false
	for _, iv := range series[from:] {
		countIOs = countIOs || iv.IOPS > 0
	}
	startOf := func(k int) float64 {
		if k == 0 {
			return 0
		}
		return series[k-1].EndS
	}
	var out []Interval
	var bytes, ios, span float64
	add := func(k int) {
		d := series[k].EndS - startOf(k)
		bytes, ios, span = bytes+series[k].MBPerS*d, ios+series[k].IOPS*d, span+d
	}
	full := func() bool { return span >= minS && span > 0 && (!countIOs || ios >= SteadyMinIOs) }
	if !backward {
		for k := from; k < len(series); k++ {
			add(k)
			if full() {
				out = append(out, Interval{EndS: series[k].EndS, MBPerS: bytes / span, IOPS: ios / span})
				bytes, ios, span = 0, 0, 0
			}
		}
		return out
	}
	end := len(series) - 1
	for k := end; k >= from; k-- {
		add(k)
		if full() {
			out = append(out, Interval{EndS: series[end].EndS, MBPerS: bytes / span, IOPS: ios / span})
			bytes, ios, span, end = 0, 0, 0, k-1
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func rates(series []Interval) []float64 {
	xs := make([]float64, len(series))
	for i, iv := range series {
		xs[i] = iv.MBPerS
	}
	return xs
}
