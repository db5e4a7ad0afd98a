package stats

import (
	"fmt"
	"strings"
)

// Warning codes.
const (
	WarnNoisy     = "noisy"      // the interval stayed wider than the target
	WarnOutliers  = "outliers"   // some runs are far from the others
	WarnSingleRun = "single-run" // measured once: precision unknown
)

// Warning is a flag on a figure for people (noisy, outliers) — a first-class value, not a
// print. Code is stable for programs ("noisy", "outliers", "single-run"); Message is a
// sentence for people.
type Warning struct {
	Code    string
	Message string
}

// Warnings returns the flags for a summarised figure: "single-run" when N is 1; "noisy"
// when N ≥ 2 and the interval is wider than targetCI95Pct (≤ 0 means DefaultTargetCI95Pct);
// "outliers" when any run is an outlier. None for N = 0 (nothing was measured: that is an
// error for the runner to report, not a warning).
func Warnings(s Summary, targetCI95Pct float64) []Warning {
	if targetCI95Pct <= 0 {
		targetCI95Pct = DefaultTargetCI95Pct
	}
	var ws []Warning
	switch {
	case s.N == 1:
		ws = append(ws, Warning{WarnSingleRun,
			"measured once: no confidence interval, so its precision is unknown"})
	case s.N >= 2 && s.CI95Pct > targetCI95Pct:
		ws = append(ws, Warning{WarnNoisy, fmt.Sprintf(
			"noisy: the 95%% confidence interval is ±%.1f%% of the median after %d runs "+
				"(target ±%g%%); background activity, throttling or a drive cache may be "+
				"interfering — re-run on a quiet system", s.CI95Pct, s.N, targetCI95Pct)})
	}
	if k := len(s.Outliers); k > 0 {
		runs := make([]string, k)
		for i, ix := range s.Outliers {
			runs[i] = fmt.Sprint(ix + 1)
		}
		ws = append(ws, Warning{WarnOutliers, fmt.Sprintf(
			"%d of %d runs are outliers (run %s; modified Z-score above %g and more than %d%% "+
				"from the median): something else may have used the drive or the CPU meanwhile",
			k, s.N, strings.Join(runs, ", "), outlierModifiedZ, outlierMinDeviationPct)})
	}
	return ws
}
