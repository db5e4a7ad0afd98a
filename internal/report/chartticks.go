package report

import (
	"math"
	"strconv"
)

// niceTicks labels a value axis at round steps (1, 2, 2.5 or 5 times a power of ten) so
// that about want labels fall in the range, with an unlabelled minor tick between each two.
// gonum's default ticker labelled a bar chart's axis twice (0 and 20), too few to read a bar
// by; the value labels on the bars give the figures, the ticks the scale.
type niceTicks struct{ want int }

// Ticks implements ticker.
func (n niceTicks) Ticks(lo, hi float64) []tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		return []tick{{Value: lo, Label: fmtTick(lo, 0)}}
	}
	step := niceStep(lo, hi, max(n.want, 3))
	decimals := stepDecimals(step)
	var ticks []tick
	first := math.Ceil(lo/step-1e-9) * step
	for i := 0; i <= 1000; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		ticks = append(ticks, tick{Value: v, Label: fmtTick(v, decimals)})
		if mid := v + step/2; mid <= hi {
			ticks = append(ticks, tick{Value: mid})
		}
	}
	return ticks
}

// niceStep is the round step (1, 2 or 5 times a power of ten, or 2.5 times one of 1 and up)
// whose labels in [lo, hi] number closest to want, the finer on a tie.
func niceStep(lo, hi float64, want int) float64 {
	k0 := int(math.Floor(math.Log10(hi - lo)))
	best, bestOff := 0.0, math.MaxInt
	for k := k0 - 2; k <= k0+1; k++ {
		mag := math.Pow(10, float64(k))
		for _, m := range []float64{1, 2, 2.5, 5} {
			if m == 2.5 && k < 0 {
				continue // 0.25 steps read badly
			}
			step := m * mag
			n := int(math.Floor(hi/step+1e-9)-math.Ceil(lo/step-1e-9)) + 1
			if off := abs(n - want); off < bestOff {
				best, bestOff = step, off
			}
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// stepDecimals is how many decimals print every multiple of step exactly: 0 for 20 or 2500,
// 1 for 2.5 or 0.5, 2 for 0.05.
func stepDecimals(step float64) int {
	k := int(math.Floor(math.Log10(step) + 1e-9))
	d := max(0, -k)
	if m := step / math.Pow(10, float64(k)); k < 1 && math.Abs(m-math.Round(m)) > 1e-6 {
		d++ // 2.5 × 10^k
	}
	return d
}

// fmtTick prints a tick value without an exponent: 0, 2.5, 20, 3000.
func fmtTick(v float64, decimals int) string {
	if math.Abs(v) < 1e-12 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}
