package stats

import (
	"math"
	"slices"
)

// BurstRatio is how much faster than the sustained rate a stretch must run to count as a
// burst: well beyond the run-to-run spread of a quiet machine (a few percent) and of a loaded
// one (seen: ±10%), so noise is not called a cache.
const BurstRatio = 1.25

// Sample is one interval of a throughput series on a test's own timeline: EndS is the end
// of the interval in seconds since the test's first I/O (its warm-up), Value its rate.
type Sample struct {
	EndS, Value float64
}

// Burst is a test's head that ran faster than its sustained rate: a drive's write cache or
// SLC cache, read-ahead, a throttle's credit.
type Burst struct {
	S float64 // how long it lasted, seconds from the test's first I/O
	X float64 // its mean rate over the sustained rate
}

// FindBurst finds the burst at the head of series against sustained: the leading samples
// each faster than BurstRatio × sustained (at least two, so one fast interval is not a
// cache). ok is false when there is none.
func FindBurst(series []Sample, sustained float64) (b Burst, ok bool) {
	if sustained <= 0 || math.IsNaN(sustained) || math.IsInf(sustained, 0) {
		return Burst{}, false
	}
	n, sum := 0, 0.0
	for _, s := range series {
		if !(s.Value > BurstRatio*sustained) || math.IsInf(s.Value, 0) {
			break
		}
		n++
		sum += s.Value
	}
	if n < 2 {
		return Burst{}, false
	}
	return Burst{S: series[n-1].EndS, X: sum / float64(n) / sustained}, true
}

// LeadingFastRuns counts the first runs of a figure that are each faster than BurstRatio ×
// every run after them: runs still inside a burst, which the warm-up did not outlast. At least
// two runs must follow them. Held to the fastest run after it, not their median, so a stalled
// run later (a loaded machine) does not make a first run look like a burst.
func LeadingFastRuns(values []float64) int {
	k := 0
	for k+2 < len(values) {
		rest := slices.Max(values[k+1:])
		if !(values[k] > BurstRatio*rest) {
			break
		}
		k++
	}
	return k
}
