package stats

import (
	"math"
	"testing"
)

func TestSteadyState(t *testing.T) {
	for _, c := range []struct {
		name   string
		xs     []float64
		window int
		start  int
		mean   float64
		ok     bool
	}{
		{"too short", []float64{100, 100, 100}, 5, 0, 0, false},
		{"flat from the start", level(10, 50), 5, 0, 50, true},
		// Window [75 100 100 102 98] spans 27 > 20% of 95: not yet; from index 3 it is
		// [100 100 102 98 101], mean 100.2.
		{"ramp then flat", []float64{25, 50, 75, 100, 100, 102, 98, 101, 99, 100, 100}, 5, 3,
			100.2, true},
		// +3% per sample: each window spans about 12.6% of its mean (within 20%) but its
		// fitted line climbs as much (> 10%): the slope rule rejects every window.
		{"steady climb", geometric(30, 100, 1.03), 5, 0, 0, false},
		// +2 per sample: the line climbs 8, within 10% of 104: steady by the PTS rule.
		{"slow climb passes", ramp(30, 100, 2), 5, 0, 104, true},
		// Alternating 100/130: range 30 > 20% of ~112.
		{"oscillating", concat(level(1, 100), alt(20, 130, 100)), 5, 0, 0, false},
		{"window defaults to 5", []float64{25, 50, 75, 100, 100, 102, 98, 101, 99}, 0, 3,
			100.2, true},
		{"longer window", []float64{25, 50, 75, 100, 100, 102, 98, 101, 99, 100}, 7, 3,
			100, true},
		{"NaN window skipped", []float64{100, math.NaN(), 100, 100, 100, 100, 100, 100}, 5, 2,
			100, true},
		{"stalled at zero is steady", level(6, 0), 5, 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			start, mean, ok := SteadyState(c.xs, c.window)
			if start != c.start || ok != c.ok || !near(mean, c.mean, 1e-9) {
				t.Errorf("SteadyState = %d, %g, %v; want %d, %g, %v", start, mean, ok,
					c.start, c.mean, c.ok)
			}
		})
	}
}

// A noisy ramp up to a noisy plateau settles once the window is past the ramp.
func TestSteadyStateNoisyRampThenFlat(t *testing.T) {
	xs := noisy(concat(ramp(20, 10, 10), level(40, 200)), 0.02, 1)
	start, mean, ok := SteadyState(xs, 5)
	// The ramp rises 10 per sample from 10 to 200: windows within 20% range need a mean
	// over 200 in practice, i.e. they start at the plateau (index 19 holds 200 already).
	if !ok || start < 17 || start > 20 || math.Abs(mean-200)/200 > 0.03 {
		t.Errorf("SteadyState = %d, %.1f, %v; want start 17..20 near 200", start, mean, ok)
	}
}

// ramp returns n samples from first rising by step.
func ramp(n int, first, step float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = first + step*float64(i)
	}
	return xs
}

// geometric returns n samples from first, each factor times the one before.
func geometric(n int, first, factor float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = first * math.Pow(factor, float64(i))
	}
	return xs
}

// alt returns n samples alternating a, b.
func alt(n int, a, b float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = a
		if i%2 == 1 {
			xs[i] = b
		}
	}
	return xs
}
