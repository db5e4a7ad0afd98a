package stats

import (
	"testing"
	"time"
)

func TestStopRuleDone(t *testing.T) {
	s := time.Second
	rule := StopRule{TargetCI95Pct: 5, MinRuns: 3, MaxRuns: 10, Budget: 60 * s}
	noisy10 := []float64{100, 130, 80, 120, 70, 125, 90, 140, 60, 110}
	for _, c := range []struct {
		name             string
		rule             StopRule
		xs               []float64
		elapsed, lastRun time.Duration
		done             bool
		reason           string
	}{
		{"no runs yet", rule, nil, 0, 0, false, ""},
		{"one run, precise but below MinRuns", rule, []float64{100}, 5 * s, 5 * s, false, ""},
		{"two close runs, below MinRuns", rule, []float64{100, 100.1}, 10 * s, 5 * s, false, ""},
		// h = t(2)·0.5/√3 = 1.24%: tight.
		{"three tight runs", rule, []float64{100, 100.5, 99.5}, 15 * s, 5 * s, true, StopCI},
		// ±49% after three runs: go on.
		{"three noisy runs", rule, []float64{100, 120, 80}, 15 * s, 5 * s, false, ""},
		{"max runs", rule, noisy10, 50 * s, 5 * s, true, StopMaxRuns},
		{"tight at max runs: ci wins", rule,
			[]float64{100, 101, 99, 100, 100, 101, 99, 100, 100, 100}, 50 * s, 5 * s, true, StopCI},
		{"next run would overrun", rule, []float64{100, 120, 80}, 50 * s, 15 * s, true, StopBudget},
		{"next run fits exactly", rule, []float64{100, 120, 80}, 45 * s, 15 * s, false, ""},
		{"budget is hard, even below MinRuns", rule, []float64{100}, 40 * s, 40 * s, true,
			StopBudget},
		{"budget spent before any run", rule, nil, 61 * s, 0, true, StopBudget},
		{"no target: only limits", StopRule{MinRuns: 3, MaxRuns: 4},
			[]float64{100, 100, 100}, 0, s, false, ""},
		{"no target, max reached", StopRule{MinRuns: 3, MaxRuns: 4},
			[]float64{100, 100, 100, 100}, 0, s, true, StopMaxRuns},
		{"MaxRuns unset means 10", StopRule{TargetCI95Pct: 5}, noisy10[:9], 0, s, false, ""},
		{"MaxRuns unset, 10 runs", StopRule{TargetCI95Pct: 5}, noisy10, 0, s, true, StopMaxRuns},
		{"MinRuns unset means 2", StopRule{TargetCI95Pct: 5}, []float64{100, 100}, 0, s, true,
			StopCI},
		{"default rule", DefaultStopRule(60 * s), []float64{100, 100.5, 99.5}, 15 * s, 5 * s,
			true, StopCI},
	} {
		t.Run(c.name, func(t *testing.T) {
			done, reason := c.rule.Done(c.xs, c.elapsed, c.lastRun)
			if done != c.done || reason != c.reason {
				t.Errorf("Done = %v, %q; want %v, %q", done, reason, c.done, c.reason)
			}
		})
	}
}
