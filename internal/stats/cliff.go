package stats

import (
	"math"
)

// Cliff rule. A throughput series (one sample per second of a sustained write, say) has a
// cliff at index k when, with Before the mean of xs[:k] and After the mean of xs[k:]:
//
//   - both sides hold at least cliffMinSide samples (a dip at the very end is not sustained);
//   - After ≤ cliffFraction·Before, i.e. the rate fell by at least 20%;
//   - with the threshold cliffFraction·Before: the sample before k is at or above it (the
//     cliff is where the rate leaves the higher level, not somewhere along the lower one), the
//     cliffMinSide samples from k on are all below it (the rate drops at once, so a dip just
//     before a cliff does not pull the index early), and at least cliffStayFraction (90%) of
//     all samples from k on are below it: the rate stays down, so one dip, or a slow patch the
//     drive recovers from, is no cliff, while the odd burst after the cliff (an SLC cache
//     freeing a few blocks) does not hide it.
//
// Among the indexes that qualify, the cliff is the one that best splits the series in two
// levels: the least sum of squared deviations from each side's mean (the single change point
// estimate of least squares). With several drops (an SLC cache filling, then the controller
// throttling) it is the one that best explains the series, usually the deepest. A gradual
// decline deep enough also qualifies; its index is where it is best cut in two.
const (
	cliffMinSide      = 5
	cliffFraction     = 0.8
	cliffStayFraction = 0.9
)

// Cliff is a sustained drop in a throughput series. Index is the first sample of the lower
// rate (an index into the series given to FindCliff); Before and After are the mean rates
// either side; DropPct = 100*(1-After/Before), at most 100 (an After below zero counts as zero).
type Cliff struct {
	Found                  bool
	Index                  int
	Before, After, DropPct float64
}

// FindCliff finds a sustained drop in a throughput series (an SLC cache filling up, thermal
// throttling): the first index after which the rate stays below a fraction of the rate before
// it, by the rule above. Non-finite samples are skipped. It never reports a cliff for noise or
// a single dip: see cliffStayFraction.
func FindCliff(xs []float64) Cliff {
	vals, idx := finiteValues(xs)
	n := len(vals)
	if n < 2*cliffMinSide {
		return Cliff{}
	}
	scale := scaleOf(vals)
	z := scaled(vals, scale)
	// Prefix sums of z and z² make each split's means and squared error O(1).
	sum := make([]float64, n+1)
	sumSq := make([]float64, n+1)
	for i, v := range z {
		sum[i+1] = sum[i] + v
		sumSq[i+1] = sumSq[i] + v*v
	}
	best, bestSSE := -1, math.Inf(1)
	for k := cliffMinSide; k <= n-cliffMinSide; k++ {
		before := sum[k] / float64(k)
		after := (sum[n] - sum[k]) / float64(n-k)
		limit := cliffFraction * before
		if before <= 0 || after > limit || z[k-1] < limit ||
			!dropsAtOnce(z[k:k+cliffMinSide], limit) || !staysBelow(z[k:], limit) {
			continue
		}
		sse := sumSq[n] - sum[k]*sum[k]/float64(k) - (sum[n]-sum[k])*(sum[n]-sum[k])/float64(n-k)
		if sse < bestSSE {
			best, bestSSE = k, sse
		}
	}
	if best < 0 {
		return Cliff{}
	}
	before := sum[best] / float64(best)
	after := (sum[n] - sum[best]) / float64(n-best)
	return Cliff{
		Found:   true,
		Index:   idx[best],
		Before:  clampFinite(before * scale),
		After:   clampFinite(after * scale),
		DropPct: dropPct(before, after),
	}
}

// dropPct is 100*(1-after/before) for before > 0, kept within [0, 100]: a throughput sample
// below zero is garbage, not a fall of more than all of it, and with a tiny before (a scaled
// series spanning hundreds of decades) the plain ratio overflows to infinity.
func dropPct(before, after float64) float64 {
	return clampFinite(100 * (1 - math.Max(after, 0)/before))
}

// dropsAtOnce reports whether every one of xs is below limit.
func dropsAtOnce(xs []float64, limit float64) bool {
	for _, v := range xs {
		if v >= limit {
			return false
		}
	}
	return true
}

// staysBelow reports whether at least cliffStayFraction of xs are below limit.
func staysBelow(xs []float64, limit float64) bool {
	below := 0
	for _, v := range xs {
		if v < limit {
			below++
		}
	}
	return float64(below) >= cliffStayFraction*float64(len(xs))
}
