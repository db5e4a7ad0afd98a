package stats

import (
	"math"
	"slices"
)

// finiteValues returns the finite values of xs with their indexes in xs. NaN and ±Inf are not
// measurements (a division by a zero elapsed time, say) and are left out rather than poisoning
// every figure computed from them.
func finiteValues(xs []float64) (vals []float64, idx []int) {
	vals = make([]float64, 0, len(xs))
	idx = make([]int, 0, len(xs))
	for i, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			vals = append(vals, x)
			idx = append(idx, i)
		}
	}
	return vals, idx
}

// scaleOf is the factor iomark divides xs by before summing and squaring: the largest
// absolute value of xs when that is extreme (so sums and squares of values near
// math.MaxFloat64 stay finite, and squares of tiny values do not underflow), else 1, which
// keeps ordinary figures exact.
func scaleOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, math.Abs(x))
	}
	if m == 0 || (m < 1e150 && m > 1e-150) {
		return 1
	}
	return m
}

// scaled returns xs divided by scale, in a new slice.
func scaled(xs []float64, scale float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x / scale
	}
	return out
}

// clampFinite maps ±Inf (an overflow when a scaled result is multiplied back) to ±MaxFloat64
// and NaN to 0, so no figure iomark stores or prints as JSON is non-finite.
func clampFinite(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return math.MaxFloat64
	case math.IsInf(x, -1):
		return -math.MaxFloat64
	}
	return x
}

// medianSorted is the median of sorted values: the middle one, or the mean of the two middle
// ones for an even count. 0 for none.
func medianSorted(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return sorted[n/2]
	}
	return midpoint(sorted[n/2-1], sorted[n/2])
}

// midpoint is (a+b)/2 for a ≤ b without overflow (a+b of two huge values) and without the
// rounding of a/2 + b/2 on subnormals, so it always lies in [a, b].
func midpoint(a, b float64) float64 {
	if (a < 0) != (b < 0) {
		return (a + b) / 2 // opposite signs: the sum cannot overflow
	}
	return a + (b-a)/2 // same sign: the difference cannot overflow
}

// Median is the median of xs, which it does not modify: the middle value, or the mean of the two
// middle ones for an even count; 0 for none.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return medianSorted(s)
}

// mean is the arithmetic mean of xs (0 for none), computed on scaled values so it cannot
// overflow.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	scale := scaleOf(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x / scale
	}
	return clampFinite(sum / float64(len(xs)) * scale)
}

// Quantile of sorted values at q in [0, 1], interpolated linearly between ranks (numpy's
// default). sorted must be non-empty and in ascending order.
func Quantile(sorted []float64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo))
}
