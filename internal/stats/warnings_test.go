package stats

import (
	"strings"
	"testing"
)

func TestWarnings(t *testing.T) {
	for _, c := range []struct {
		name   string
		xs     []float64
		target float64
		codes  []string
		says   []string // substrings the messages must hold
	}{
		{"nothing measured", nil, 5, nil, nil},
		{"single run", []float64{100}, 5, []string{WarnSingleRun}, []string{"once"}},
		{"tight", []float64{100, 100.5, 99.5}, 5, nil, nil},
		// ±49.7% after 3 runs.
		{"noisy", []float64{100, 120, 80}, 5, []string{WarnNoisy},
			[]string{"±49.7%", "3 runs", "±5%"}},
		{"noisy against the default target", []float64{100, 120, 80}, 0, []string{WarnNoisy},
			[]string{"±5%"}},
		{"tight enough for a loose target", []float64{100, 101, 99}, 10, nil, nil},
		{"noisy and an outlier", []float64{100, 101, 99, 100, 150}, 5,
			[]string{WarnNoisy, WarnOutliers}, []string{"1 of 5 runs", "run 5"}},
		// Six runs: interval [99, 104] is +3.5%: not noisy; no outlier.
		{"six tight runs", []float64{101, 99, 100, 104, 100, 101}, 5, nil, nil},
		{"outlier in otherwise tight runs",
			[]float64{400, 401, 399, 400, 402, 398, 400, 401, 399, 250}, 5,
			[]string{WarnOutliers}, []string{"1 of 10 runs", "run 10"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := Warnings(Summarize(c.xs), c.target)
			var codes []string
			var all strings.Builder
			for _, w := range ws {
				codes = append(codes, w.Code)
				all.WriteString(w.Message + "\n")
				if w.Message == "" {
					t.Errorf("warning %q has no message", w.Code)
				}
			}
			if strings.Join(codes, ",") != strings.Join(c.codes, ",") {
				t.Errorf("codes = %v, want %v (messages: %s)", codes, c.codes, all.String())
			}
			for _, s := range c.says {
				if !strings.Contains(all.String(), s) {
					t.Errorf("messages %q lack %q", all.String(), s)
				}
			}
		})
	}
}
