package stats

import "math/rand/v2"

// Synthetic throughput series for the steady-state and cliff tests. Noise comes from a PCG
// generator with a fixed seed: the same series on every run, so no test is flaky.

// level returns n samples of rate.
func level(n int, rate float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = rate
	}
	return xs
}

// concat joins series.
func concat(parts ...[]float64) []float64 {
	var xs []float64
	for _, p := range parts {
		xs = append(xs, p...)
	}
	return xs
}

// noisy multiplies each sample by 1 + cv·N(0,1), clamped at 0, with a fixed seed.
func noisy(xs []float64, cv float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x10ba4c))
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = max(0, x*(1+cv*r.NormFloat64()))
	}
	return out
}
