package stats

import (
	"math"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// Two-sided 95% critical values of Student's t, from the t table of NIST/SEMATECH
// e-Handbook of Statistical Methods, §1.3.6.7.2 (upper 0.025 critical values).
func TestTCritical(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {9, 2.262}, {30, 2.042},
		{100, 1.984},
	} {
		if got := tCritical(c.df); !near(got, c.want, 0.0005) {
			t.Errorf("t(0.975, %d) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
}

// binomialCoverage is 1 - 2·P(B ≤ j-1), B ~ Binomial(n, 1/2), in exact rational arithmetic,
// independent of gonum.
func binomialCoverage(n, j int) float64 {
	tail := new(big.Int)
	for i := 0; i < j; i++ {
		tail.Add(tail, new(big.Int).Binomial(int64(n), int64(i)))
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(n))
	r := new(big.Rat).SetFrac(new(big.Int).Sub(den, new(big.Int).Lsh(tail, 1)), den)
	f, _ := r.Float64()
	return f
}

// The order statistics bounding the median at 95% (the sign-test interval). Each expected j
// was worked out from the exact binomial coverage: n = 6 → [min, max] at 1 - 2/64 = 96.9%;
// n = 9 → j = 2 at 1 - 2·10/512 = 96.1%; n = 20 → [x(6), x(15)] at 95.9%.
func TestMedianOrderStatistic(t *testing.T) {
	for _, c := range []struct{ n, j int }{
		{6, 1}, {7, 1}, {8, 1}, {9, 2}, {10, 2}, {11, 2}, {12, 3}, {15, 4}, {20, 6}, {30, 10},
		{50, 18}, {100, 40},
	} {
		j, cov := medianOrderStatistic(c.n)
		if j != c.j {
			t.Errorf("n=%d: j = %d, want %d", c.n, j, c.j)
		}
		want := binomialCoverage(c.n, c.j)
		if !near(cov, want, 1e-9) || cov < 0.95 {
			t.Errorf("n=%d: coverage %.6f, want %.6f (≥ 0.95)", c.n, cov, want)
		}
		if next := binomialCoverage(c.n, c.j+1); next >= 0.95 {
			t.Errorf("n=%d: j+1 still covers %.4f: j is not the largest", c.n, next)
		}
	}
}

func TestSummarize(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	seq := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		return xs
	}
	for _, c := range []struct {
		name string
		in   []float64
		want Summary
	}{
		{"empty", nil, Summary{}},
		{"one", []float64{42}, Summary{N: 1, Median: 42, Mean: 42, Min: 42, Max: 42,
			CI95Low: 42, CI95High: 42}},
		{"only non-finite", []float64{nan, inf, -inf}, Summary{}},
		// s = 1, h = t(2)·1/√3 = 4.302653/1.732051 = 2.484138; pct = 2.484138/11 = 22.583%.
		{"three, t interval", []float64{10, 12, 11}, Summary{N: 3, Median: 11, Mean: 11,
			Stddev: 1, Min: 10, Max: 12, CI95Low: 8.515862, CI95High: 13.484138,
			CI95Pct: 22.583071, CIMethod: CIMethodT, CICoverage: 0.95}},
		// s = √5, h = t(4)·√5/√5 = 2.776445.
		{"five, t interval", []float64{5, 7, 8, 9, 11}, Summary{N: 5, Median: 8, Mean: 8,
			Stddev: math.Sqrt(5), Min: 5, Max: 11, CI95Low: 5.223555, CI95High: 10.776445,
			CI95Pct: 34.705563, CIMethod: CIMethodT, CICoverage: 0.95}},
		// Two runs: t(1) = 12.706205, s = 10/√2, h = 12.706205·5 = 63.531024.
		{"two", []float64{100, 110}, Summary{N: 2, Median: 105, Mean: 105,
			Stddev: 10 / math.Sqrt2, Min: 100, Max: 110, CI95Low: 41.468976,
			CI95High: 168.531024, CI95Pct: 60.505737, CIMethod: CIMethodT, CICoverage: 0.95}},
		// 1..20: median 10.5, interval [x(6), x(15)] = [6, 15]; the larger side 4.5 is 42.857%.
		{"twenty, order statistics", seq(20), Summary{N: 20, Median: 10.5, Mean: 10.5,
			Stddev: 5.916080, Min: 1, Max: 20, CI95Low: 6, CI95High: 15, CI95Pct: 42.857143,
			CIMethod: CIMethodOrderStatist, CICoverage: binomialCoverage(20, 6)}},
		// Six runs: [min, max]; the median is 100.5, max is 3.5 above: 3.483%.
		{"six, asymmetric", []float64{101, 99, 100, 104, 100, 101}, Summary{N: 6,
			Median: 100.5, Mean: 605.0 / 6, Stddev: 1.722401,
			Min: 99, Max: 104, CI95Low: 99, CI95High: 104, CI95Pct: 3.482587,
			CIMethod: CIMethodOrderStatist, CICoverage: 0.96875}},
		{"non-finite ignored", []float64{nan, 10, 12, inf, 11}, Summary{N: 3, Median: 11,
			Mean: 11, Stddev: 1, Min: 10, Max: 12, CI95Low: 8.515862, CI95High: 13.484138,
			CI95Pct: 22.583071, CIMethod: CIMethodT, CICoverage: 0.95}},
		{"zero median, spread: capped", []float64{-1, 0, 1}, Summary{N: 3, Median: 0,
			Mean: 0, Stddev: 1, Min: -1, Max: 1, CI95Low: -2.484138, CI95High: 2.484138,
			CI95Pct: maxCI95Pct, CIMethod: CIMethodT, CICoverage: 0.95}},
		{"all equal", []float64{7, 7, 7, 7}, Summary{N: 4, Median: 7, Mean: 7, Min: 7, Max: 7,
			CI95Low: 7, CI95High: 7, CIMethod: CIMethodT, CICoverage: 0.95}},
		// s = √500.5 = 22.371857, h = t(4)·s/√5 = 27.778330.
		{"outlier kept and flagged", []float64{100, 101, 99, 100, 150}, Summary{N: 5,
			Median: 100, Mean: 110, Stddev: 22.371857, Min: 99, Max: 150, CI95Low: 82.221670,
			CI95High: 137.778330, CI95Pct: 37.778330, CIMethod: CIMethodT, CICoverage: 0.95,
			Outliers: []int{4}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Summarize(c.in)
			approx := cmp.Comparer(func(a, b float64) bool {
				return near(a, b, 1e-6*math.Max(1, math.Abs(b)))
			})
			if d := cmp.Diff(c.want, got, approx); d != "" {
				t.Errorf("Summarize(%v) (-want +got):\n%s", c.in, d)
			}
		})
	}
}

// An extreme but finite input stays finite.
func TestSummarizeHuge(t *testing.T) {
	m := math.MaxFloat64
	s := Summarize([]float64{m, m / 2, -m, m})
	for name, v := range map[string]float64{"mean": s.Mean, "sd": s.Stddev, "lo": s.CI95Low,
		"hi": s.CI95High, "pct": s.CI95Pct, "median": s.Median} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s = %v, want finite", name, v)
		}
	}
	if !near(s.Median, 0.75*m, 1e-6*m) {
		t.Errorf("median = %g, want %g", s.Median, 0.75*m)
	}
}
