package stats

import (
	"math"
	"testing"
)

func TestFindCliff(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name          string
		xs            []float64
		want          Cliff
		tolIndex      int     // allowed distance of Index from want.Index
		tolRatePct    float64 // allowed error of Before/After in percent
		tolDropPctPts float64 // allowed error of DropPct in percentage points
	}{
		{"SLC cache fills", concat(level(30, 400), level(30, 100)),
			Cliff{true, 30, 400, 100, 75}, 0, 0, 0},
		// 47 s at ~400 MB/s, then ~100 MB/s, 5% noise.
		{"SLC cache fills, noisy", noisy(concat(level(47, 400), level(73, 100)), 0.05, 2),
			Cliff{true, 47, 400, 100, 75}, 0, 2, 1},
		// A 25% thermal drop in 3% noise.
		{"thermal throttling", noisy(concat(level(60, 100), level(60, 75)), 0.03, 3),
			Cliff{true, 60, 100, 75, 25}, 1, 2, 2},
		// Warm-up ramp, a plateau, then the cliff: the rise is not a cliff, the drop is.
		{"after a ramp", concat([]float64{50, 200, 350}, level(27, 400), level(30, 80)),
			Cliff{true, 30, 380, 80, 100 * (1 - 80/380.0)}, 0, 0, 0},
		// Two drops: 400 → 200 → 100; the first explains the series best.
		{"two drops", concat(level(30, 400), level(30, 200), level(30, 100)),
			Cliff{true, 30, 400, 150, 62.5}, 0, 0, 0},
		// A dip just before the cliff does not move it.
		{"dip then cliff", concat(level(20, 400), []float64{50, 400}, level(20, 100)),
			Cliff{true, 22, 400 - 350.0/22, 100, 100 * (1 - 100/(400-350.0/22))}, 0, 0, 0},
		{"NaN samples skipped, index into the input",
			concat(level(3, 400), []float64{nan}, level(27, 400), level(30, 100)),
			Cliff{true, 31, 400, 100, 75}, 0, 0, 0},
		// One burst back to full speed after the cliff (90% stay down) does not hide it.
		{"burst after the cliff", concat(level(30, 400), level(15, 100), level(1, 400),
			level(14, 100)), Cliff{true, 30, 400, 110, 72.5}, 0, 0, 0},
		// SLC cliff in 10% noise, as a cheap USB stick gives it.
		{"SLC cache fills, very noisy", noisy(concat(level(90, 120), level(200, 25)), 0.10, 4),
			Cliff{true, 90, 120, 25, 79.2}, 0, 3, 1.5},
		// A steady decline from 100 to 41 is a sustained drop too, cut where the two halves are
		// most different: means 84 (0..32) and 54 (33..59).
		{"gradual decline", ramp(60, 100, -1), Cliff{true, 33, 84, 54, 100 * (1 - 54/84.0)},
			0, 0, 0},
		// The rate falls over three samples: the cliff is the first one under 0.8·Before.
		{"drop over a few samples", concat(level(30, 400), []float64{300, 200}, level(30, 100)),
			Cliff{true, 30, 400, 3500.0 / 32, 100 * (1 - 3500.0/32/400)}, 0, 0, 0},
		{"late cliff, five samples", concat(level(40, 400), level(5, 100)),
			Cliff{true, 40, 400, 100, 75}, 0, 0, 0},

		{"empty", nil, Cliff{}, 0, 0, 0},
		{"one sample", []float64{400}, Cliff{}, 0, 0, 0},
		{"flat", level(60, 400), Cliff{}, 0, 0, 0},
		{"too few after", concat(level(40, 400), level(4, 100)), Cliff{}, 0, 0, 0},
		// Only 4 samples at the higher rate: no split leaves 5 before the drop.
		{"too few before", concat(level(4, 400), level(40, 100)), Cliff{}, 0, 0, 0},
		{"single dip", concat(level(30, 400), []float64{50}, level(30, 400)), Cliff{}, 0, 0, 0},
		{"three-sample dip", concat(level(30, 400), level(3, 50), level(30, 400)), Cliff{},
			0, 0, 0},
		{"throttled for a while, then recovered",
			concat(level(20, 100), level(20, 50), level(20, 100)), Cliff{}, 0, 0, 0},
		{"a rise is no cliff", concat(level(30, 100), level(30, 400)), Cliff{}, 0, 0, 0},
		{"15% drop is under the threshold", concat(level(30, 100), level(30, 85)), Cliff{},
			0, 0, 0},
		// After the drop one sample in five recovers: only 80% stay down.
		{"drop that keeps recovering",
			concat(level(30, 400), repeat(6, []float64{100, 100, 100, 100, 400})), Cliff{},
			0, 0, 0},
		{"all zero", level(30, 0), Cliff{}, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := FindCliff(c.xs)
			if got.Found != c.want.Found {
				t.Fatalf("FindCliff found = %v, want %v (%+v)", got.Found, c.want.Found, got)
			}
			if !c.want.Found {
				if got != (Cliff{}) {
					t.Errorf("no cliff, but fields set: %+v", got)
				}
				return
			}
			if d := got.Index - c.want.Index; d < -c.tolIndex || d > c.tolIndex {
				t.Errorf("Index = %d, want %d ± %d", got.Index, c.want.Index, c.tolIndex)
			}
			tol := func(want float64) float64 { return math.Max(1e-9, want*c.tolRatePct/100) }
			if !near(got.Before, c.want.Before, tol(c.want.Before)) ||
				!near(got.After, c.want.After, tol(c.want.After)) {
				t.Errorf("Before, After = %.2f, %.2f; want %.2f, %.2f (±%g%%)", got.Before,
					got.After, c.want.Before, c.want.After, c.tolRatePct)
			}
			if !near(got.DropPct, c.want.DropPct, math.Max(1e-9, c.tolDropPctPts)) {
				t.Errorf("DropPct = %.2f, want %.2f", got.DropPct, c.want.DropPct)
			}
			if want := 100 * (1 - got.After/got.Before); !near(got.DropPct, want, 1e-9) {
				t.Errorf("DropPct %.4f is not 100·(1-After/Before) = %.4f", got.DropPct, want)
			}
		})
	}
}

// Noise alone, however long and from whatever seed, is no cliff.
func TestFindCliffNoiseOnly(t *testing.T) {
	for _, cv := range []float64{0.02, 0.05, 0.10, 0.15} {
		for seed := uint64(10); seed < 30; seed++ {
			xs := noisy(level(600, 250), cv, seed)
			if c := FindCliff(xs); c.Found {
				t.Errorf("cv %.2f seed %d: cliff reported in noise: %+v", cv, seed, c)
			}
		}
	}
}

// repeat returns n copies of pattern, joined.
func repeat(n int, pattern []float64) []float64 {
	var xs []float64
	for range n {
		xs = append(xs, pattern...)
	}
	return xs
}

// A series with garbage below zero and values hundreds of decades apart (found by
// FuzzFindCliff) still gives a finite drop, at most 100%.
func TestFindCliffNegativeAfterKeepsDropFinite(t *testing.T) {
	xs := []float64{1.398043286095289e-76, 5.244987450894581e-18, 4.195989960715665e-17,
		4.195989960715665e-17, 1.7477849233253383e-16, 1.398043286095289e-76,
		1.398043286095289e-76, 1.398043286095289e-76, 1.398043286095289e-76,
		-6.775716192501396e+299}
	c := FindCliff(xs)
	if !c.Found {
		t.Fatalf("no cliff found in %v", xs)
	}
	if math.IsInf(c.DropPct, 0) || math.IsNaN(c.DropPct) || c.DropPct < 20 || c.DropPct > 100 {
		t.Fatalf("drop = %v, want a finite value in [20, 100]", c.DropPct)
	}
}
