package report

import (
	"strings"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   string // labelled ticks
	}{
		{0, 45, "0 10 20 30 40"},
		{0, 52, "0 10 20 30 40 50"},
		{0, 3.5, "0 1 2 3"},
		{0, 9844, "0 2000 4000 6000 8000"},
		{0, 1.1, "0 0.2 0.4 0.6 0.8 1.0"},
		{0, 12, "0 2.5 5.0 7.5 10.0"},
		{0, 0.3, "0 0.1 0.2 0.3"},
		{0, 1180, "0 250 500 750 1000"},
		{0, 48000, "0 10000 20000 30000 40000"},
	} {
		var labels []string
		minors := 0
		for _, tk := range (niceTicks{want: 5}).Ticks(tt.lo, tt.hi) {
			if tk.Label == "" {
				minors++
				continue
			}
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, " "); got != tt.want {
			t.Errorf("ticks of [%v, %v] = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
		if len(labels) < 3 || minors == 0 {
			t.Errorf("[%v, %v]: %d labelled ticks, %d minor", tt.lo, tt.hi, len(labels), minors)
		}
	}
	if got := (niceTicks{want: 5}).Ticks(3, 3); len(got) != 1 {
		t.Errorf("an empty range: %v", got)
	}
}
