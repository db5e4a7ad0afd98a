package stats

import (
	"math"
	"slices"
)

// How the 95% confidence interval of the median is computed.
//
// From orderStatMinN runs on, it is the distribution-free interval between two order
// statistics, [x(j), x(n+1-j)]: the population median lies below x(j) only if fewer than j
// runs fall below it, which happens with probability P(B ≤ j-1) for B ~ Binomial(n, 1/2)
// whatever the distribution of the runs, so the interval covers the median with probability
// 1 - 2·P(B ≤ j-1); j is the largest index keeping that at or above 95%. Sources: W. J.
// Conover, Practical Nonparametric Statistics, 3rd ed. (Wiley 1999), ch. 3, confidence
// interval for a quantile; J.-Y. Le Boudec, Performance Evaluation of Computer and
// Communication Systems (EPFL Press 2010), ch. 2, confidence interval for the median, which
// recommends it for performance data because runs are rarely normal (a background flush, a
// garbage collection in the drive skews them).
//
// Below orderStatMinN no such interval exists: even [min, max] covers the median with only
// 1 - 2^(1-n) (93.75% for 5 runs). Storage runs are expensive, so 3-5 runs are common; for
// them iomark uses Student's t interval, mean ± t(0.975, n-1)·s/√n, which assumes the runs
// scatter roughly normally around the centre (then mean and median estimate the same value).
// Source: Le Boudec, ch. 2 (the t interval), and any statistics text. No bootstrap: it needs
// randomness and says little with a handful of runs.
const (
	orderStatMinN = 6    // first n with a 95% distribution-free interval: 1 - 2/2^6 = 96.9%
	ciLevel       = 0.95 // confidence level of every interval iomark reports
	// maxCI95Pct caps the relative half-width: ±1000% is meaningless noise whatever the exact
	// figure, and the cap keeps the value finite when the median is 0.
	maxCI95Pct = 1000
)

// Interval methods, in Summary.CIMethod.
const (
	CIMethodNone         = ""                // fewer than 2 values: no interval
	CIMethodT            = "t"               // Student's t interval (2..5 values)
	CIMethodOrderStatist = "order-statistic" // distribution-free interval of the median (6+)
)

// Summary of repeated measurements of one figure (e.g. IOPS of 5 runs).
type Summary struct {
	N                              int     // finite values summarised (NaN and ±Inf are left out)
	Median, Mean, Stddev, Min, Max float64 // Stddev is the sample standard deviation (n-1)
	CI95Low, CI95High              float64 // 95% confidence interval of the reported (median) value
	// CI95Pct is the half-width of that interval in percent of the median; 0 when N < 2. The
	// order-statistic interval is not symmetric around the median: CI95Pct is then the larger
	// of the two distances from the median, so "CI95Pct ≤ 5" means both ends lie within ±5%.
	// Capped at 1000.
	CI95Pct float64
	// CIMethod says how the interval was computed (CIMethodT, CIMethodOrderStatist, or
	// CIMethodNone); CICoverage is its confidence: exactly 0.95 for t, the exact binomial
	// coverage (≥ 0.95) for the order-statistic interval.
	CIMethod   string
	CICoverage float64
	Outliers   []int // indexes into the input, see Outliers
}

// Summarize summarises xs; it never panics and every field is finite. Values that are not
// finite are ignored (and so are not counted in N).
func Summarize(xs []float64) Summary {
	vals, _ := finiteValues(xs)
	n := len(vals)
	if n == 0 {
		return Summary{}
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	s := Summary{
		N:        n,
		Median:   medianSorted(sorted),
		Mean:     mean(vals),
		Min:      sorted[0],
		Max:      sorted[n-1],
		Outliers: Outliers(xs),
	}
	s.CI95Low, s.CI95High = s.Median, s.Median
	if n < 2 {
		return s
	}

	scale := scaleOf(sorted)
	z := scaled(vals, scale)
	meanZ, sdZ := meanStdDev(z)
	s.Stddev = clampFinite(sdZ * scale)

	var lowZ, highZ float64
	if n >= orderStatMinN {
		j, coverage := medianOrderStatistic(n)
		lowZ, highZ = sorted[j-1]/scale, sorted[n-j]/scale
		s.CIMethod, s.CICoverage = CIMethodOrderStatist, coverage
	} else {
		half := tCritical(n-1) * sdZ / math.Sqrt(float64(n))
		lowZ, highZ = meanZ-half, meanZ+half
		s.CIMethod, s.CICoverage = CIMethodT, ciLevel
	}
	s.CI95Low, s.CI95High = clampFinite(lowZ*scale), clampFinite(highZ*scale)
	s.CI95Pct = relativeHalfWidthPct(s.Median/scale, lowZ, highZ)
	return s
}

// tCritical is the two-sided 95% critical value of Student's t with df degrees of freedom,
// t(0.975, df).
func tCritical(df int) float64 {
	return studentTQuantile(1-(1-ciLevel)/2, float64(df))
}

// medianOrderStatistic returns the 1-based index j of the order statistics [x(j), x(n+1-j)]
// bounding the median at 95% for n ≥ orderStatMinN, and their exact coverage.
func medianOrderStatistic(n int) (j int, coverage float64) {
	cover := func(j int) float64 { return 1 - 2*binomialHalfCDF(n, j-1) }
	// Coverage falls as j grows; find the largest j with coverage ≥ 95% by bisection
	// (j = 1 always qualifies for n ≥ 6).
	lo, hi := 1, n/2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if cover(mid) >= ciLevel {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, cover(lo)
}

// relativeHalfWidthPct is the larger distance from median to either end of [low, high], in
// percent of |median|, capped at maxCI95Pct.
func relativeHalfWidthPct(median, low, high float64) float64 {
	half := math.Max(median-low, high-median)
	if half <= 0 {
		return 0
	}
	m := math.Abs(median)
	if m == 0 || half/m*100 > maxCI95Pct || math.IsNaN(half/m) {
		return maxCI95Pct
	}
	return half / m * 100
}
