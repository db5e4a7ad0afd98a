package stats

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOutliers(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		in   []float64
		want []int
	}{
		{"empty", nil, nil},
		{"two values: no odd one out", []float64{100, 200}, nil},
		{"all equal", []float64{5, 5, 5, 5}, nil},
		// median 100, MAD 1: M = 0.6745·50 = 33.7.
		{"one high", []float64{100, 101, 99, 100, 150}, []int{4}},
		// median 401, MAD 4: M(100) = 0.6745·301/4 = 50.8.
		{"one low", []float64{400, 410, 405, 395, 402, 100}, []int{5}},
		{"even spread: none", []float64{100, 101, 102, 103, 104}, nil},
		// M(104) = 0.6745·3/0.5 = 4.05 > 3.5, but 104 is 3% from the median: not flagged.
		{"tight runs, small deviation", []float64{100, 100.5, 101, 101.2, 104}, nil},
		// M(110) = 0.6745·9/0.5 = 12.1 and 8.9% from the median: flagged.
		{"tight runs, large deviation", []float64{100, 100.5, 101, 101.2, 110}, []int{4}},
		// median 10, MAD 0.1: M(30) = 135, M(1) = 60.7.
		{"two", []float64{10, 10.2, 9.9, 10.1, 10, 30, 1}, []int{5, 6}},
		// MAD 0: scale by the mean absolute deviation, 6·1.253314 = 7.52: M(130) = 3.99.
		{"MAD zero, mean-AD fallback", []float64{100, 100, 100, 100, 130}, []int{4}},
		// MAD 0, mean AD 20/9: M(120) = 20/(2.222·1.253314) = 7.18.
		{"MAD zero, nine runs", []float64{100, 100, 100, 100, 100, 100, 100, 100, 120},
			[]int{8}},
		// MAD 0 and the odd value 2% off: under the 5% floor.
		{"MAD zero, small", []float64{100, 100, 100, 100, 102}, nil},
		{"indexes skip NaN", []float64{nan, 100, 101, 99, 100, 150}, []int{5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, Outliers(c.in)); d != "" {
				t.Errorf("Outliers(%v) (-want +got):\n%s", c.in, d)
			}
		})
	}
}
