package stats

import "math"

// The few distributions and moments the summaries need, in own code: gonum's stat and
// distuv packages brought its matrix, BLAS and LAPACK code into the binary (about 1 MB) for
// three functions. Each is checked against gonum's values to 1e-12 in dist_test.go.

// meanStdDev is the mean and the sample standard deviation (n-1) of xs, by the corrected
// two-pass formula (Chan, Golub and LeVeque 1983), which gonum's stat.MeanStdDev also uses:
// the second sum corrects the rounding error of the first pass's mean.
func meanStdDev(xs []float64) (m, sd float64) {
	n := float64(len(xs))
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	m = mean(xs)
	var ss, comp float64
	for _, v := range xs {
		d := v - m
		ss += d * d
		comp += d
	}
	return m, math.Sqrt((ss - comp*comp/n) / (n - 1))
}

// slopeLeastSquares is the slope of the least-squares line of y against x (same lengths).
func slopeLeastSquares(x, y []float64) float64 {
	mx, my := mean(x), mean(y)
	var sxy, sxx float64
	for i := range x {
		dx := x[i] - mx
		sxy += dx * (y[i] - my)
		sxx += dx * dx
	}
	return sxy / sxx
}

// studentTQuantile is the p quantile (0.5 < p < 1) of Student's t with df > 0 degrees of
// freedom. For t > 0 the CDF is 1 - I_x(df/2, 1/2)/2 with x = df/(df+t²) (Abramowitz and
// Stegun 26.7.1 with 26.5.27), so t solves I_x(df/2, 1/2) = 2(1-p); I_x falls as t grows,
// and bisection on t finds it to the last bit.
func studentTQuantile(p float64, df float64) float64 {
	target := 2 * (1 - p)
	lo, hi := 0.0, 1.0
	for regIncBeta(df/(df+hi*hi), df/2, 0.5) > target && hi < 1e12 {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if regIncBeta(df/(df+mid*mid), df/2, 0.5) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// regIncBeta is the regularised incomplete beta function I_x(a, b), by its continued fraction
// (Numerical Recipes, 3rd ed., §6.4), using the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where the
// fraction converges slowly.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaContinuedFraction(x, a, b) / a
	}
	return 1 - front*betaContinuedFraction(1-x, b, a)/b
}

// betaContinuedFraction evaluates the continued fraction of I_x(a, b) by the modified Lentz
// method.
func betaContinuedFraction(x, a, b float64) float64 {
	const tiny, eps = 1e-300, 1e-16
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	// step is one term of the fraction: Lentz's update of d and c, and the factor it
	// multiplies h by.
	step := func(aa float64) float64 {
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		return d * c
	}
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		h *= step(fm * (b - fm) * x / ((qam + 2*fm) * (a + 2*fm)))
		del := step(-(a + fm) * (qab + fm) * x / ((a + 2*fm) * (qap + 2*fm)))
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// binomialHalfCDF is P(B ≤ k) for B ~ Binomial(n, 1/2): the sum of C(n, i)/2^n for i ≤ k,
// each term from log-gamma so that n in the thousands neither overflows nor underflows early.
func binomialHalfCDF(n, k int) float64 {
	if k < 0 {
		return 0
	}
	if k >= n {
		return 1
	}
	ln, _ := math.Lgamma(float64(n) + 1)
	sum := 0.0
	for i := 0; i <= k; i++ {
		li, _ := math.Lgamma(float64(i) + 1)
		lr, _ := math.Lgamma(float64(n-i) + 1)
		sum += math.Exp(ln - li - lr - float64(n)*math.Ln2)
	}
	return min(sum, 1)
}
