package stats

import (
	"math"
	"slices"
	"testing"
)

// Median is shared by the statistics, the compare report and bench/engine-vs-fio.
func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.xs)
		if got := Median(tt.xs); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
		if !slices.Equal(in, tt.xs) {
			t.Errorf("Median reordered its input: %v", tt.xs)
		}
	}
}

func TestQuantile(t *testing.T) {
	sorted := []float64{10, 20, 30, 40, 50}
	tests := []struct{ q, want float64 }{
		{0, 10}, {0.5, 30}, {1, 50}, {0.1, 14}, {0.9, 46}, {0.375, 25},
	}
	for _, tt := range tests {
		if got := Quantile(sorted, tt.q); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Quantile(%v, %v) = %v, want %v (numpy's linear)", sorted, tt.q, got, tt.want)
		}
	}
	if got := Quantile([]float64{7}, 0.9); got != 7 {
		t.Errorf("Quantile of one value = %v, want 7", got)
	}
}
