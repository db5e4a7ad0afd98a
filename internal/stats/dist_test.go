package stats

import (
	"math"
	"testing"
)

// The values gonum v0.17.0 gave (distuv.StudentsT.Quantile(0.975), distuv.Binomial.CDF,
// stat.LinearRegression and stat.MeanStdDev) before iomark replaced them with its own code:
// the summaries must not move.
func TestDistributionsMatchGonum(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{
		{1, 12.7062047361747}, {2, 4.30265272974946}, {3, 3.18244630528371}, {4, 2.77644510519779},
		{5, 2.57058183563632}, {6, 2.44691185114497}, {7, 2.36462425159278}, {9, 2.2621571627982},
		{10, 2.22813885198627}, {15, 2.13144954555977}, {20, 2.08596344726586},
		{30, 2.04227245630124}, {50, 2.00855911210076}, {100, 1.98397151852356},
		{1000, 1.96233908082628},
	} {
		if got := tCritical(c.df); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("t(0.975, %d) = %.15g, gonum gave %.15g", c.df, got, c.want)
		}
	}
	for _, c := range []struct {
		n, k int
		want float64
	}{
		{6, 1, 0.10937500000000001}, {6, 2, 0.34375000000000033}, {9, 1, 0.019531250000000056},
		{9, 3, 0.25390625000000022}, {20, 1, 2.0027160644531267e-05}, {20, 6, 0.057659149169921445},
		{101, 1, 4.0231906166269097e-29}, {101, 33, 0.00032062425108477936},
		{500, 1, 1.5305231181133961e-148}, {500, 166, 2.3578007937611504e-14},
	} {
		if got := binomialHalfCDF(c.n, c.k); math.Abs(got-c.want) > 1e-11*c.want {
			t.Errorf("P(Binomial(%d, 1/2) ≤ %d) = %.17g, gonum gave %.17g", c.n, c.k, got, c.want)
		}
	}
	y := []float64{1.5, 2.25, 1.75, 3.5, 2.0}
	if got := slopeLeastSquares([]float64{0, 1, 2, 3, 4}, y); math.Abs(got-0.225) > 1e-15 {
		t.Errorf("slope %.17g, gonum gave 0.225", got)
	}
	if m, sd := meanStdDev(y); math.Abs(m-2.2) > 1e-15 || math.Abs(sd-0.77862057511987182) > 1e-15 {
		t.Errorf("mean, sd = %.17g, %.17g; gonum gave 2.2, 0.77862057511987182", m, sd)
	}
}

func TestDistributionEdges(t *testing.T) {
	if got := binomialHalfCDF(10, -1); got != 0 {
		t.Errorf("P(B ≤ -1) = %v", got)
	}
	if got := binomialHalfCDF(10, 10); got != 1 {
		t.Errorf("P(B ≤ n) = %v", got)
	}
	if got := regIncBeta(0, 2, 3); got != 0 {
		t.Errorf("I_0 = %v", got)
	}
	if got := regIncBeta(1, 2, 3); got != 1 {
		t.Errorf("I_1 = %v", got)
	}
	// I_x(1, 1) = x: the uniform distribution.
	for _, x := range []float64{0.1, 0.5, 0.9} {
		if got := regIncBeta(x, 1, 1); math.Abs(got-x) > 1e-14 {
			t.Errorf("I_%v(1,1) = %v", x, got)
		}
	}
	if _, sd := meanStdDev([]float64{3}); !math.IsNaN(sd) {
		t.Errorf("sd of one value %v, want NaN (callers need n ≥ 2)", sd)
	}
}
