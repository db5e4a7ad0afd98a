package stats

import "time"

// Defaults of the stop rule, used by DefaultStopRule and in place of unset fields.
const (
	DefaultTargetCI95Pct = 5  // repeat until the 95% confidence interval is within ±5%
	DefaultMinRuns       = 3  // an interval from two runs is too wide to be useful at 95%
	DefaultMaxRuns       = 10 // bounds the run count when no Budget is given
)

// Reasons Done gives for stopping.
const (
	StopCI      = "ci"       // the interval is tight enough
	StopBudget  = "budget"   // another run would not fit the time budget
	StopMaxRuns = "max-runs" // MaxRuns reached
)

// StopRule decides when a figure has been repeated enough.
type StopRule struct {
	TargetCI95Pct    float64       // e.g. 5; ≤ 0 never stops on the interval
	MinRuns, MaxRuns int           // e.g. 3, 10; MinRuns < 2 counts as 2, MaxRuns ≤ 0 as 10
	Budget           time.Duration // total time allowed for this figure; ≤ 0 is no limit
}

// DefaultStopRule is ±5% at 95%, 3 to 10 runs, within budget.
func DefaultStopRule(budget time.Duration) StopRule {
	return StopRule{TargetCI95Pct: DefaultTargetCI95Pct, MinRuns: DefaultMinRuns,
		MaxRuns: DefaultMaxRuns, Budget: budget}
}

// Done reports whether to stop after len(xs) runs that took elapsed in all; lastRun is the
// duration of one run, used to tell whether another fits the budget. reason is "ci"
// (interval tight), "budget", or "max-runs".
//
// The checks, in order: the interval (StopCI) once at least MinRuns values are in, so a
// figure that is precise is reported as such even when it also hit a limit; then MaxRuns;
// then the budget, which is hard: when the next run would end past it, Done stops even
// before MinRuns (the profile's time bound matters more than the run count, and Warnings
// flags the figure). With no runs yet it never stops unless the budget is already spent.
func (r StopRule) Done(xs []float64, elapsed, lastRun time.Duration) (done bool, reason string) {
	minRuns := max(r.MinRuns, 2)
	maxRuns := r.MaxRuns
	if maxRuns <= 0 {
		maxRuns = DefaultMaxRuns
	}
	n := len(xs)
	if n >= minRuns && r.TargetCI95Pct > 0 {
		if s := Summarize(xs); s.N >= minRuns && s.CI95Pct <= r.TargetCI95Pct {
			return true, StopCI
		}
	}
	if n >= maxRuns {
		return true, StopMaxRuns
	}
	if r.Budget > 0 && elapsed+max(lastRun, 0) > r.Budget {
		return true, StopBudget
	}
	return false, ""
}
