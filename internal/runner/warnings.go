package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

// Codes of the warnings the runner adds to a record (docs/result-record.md lists them with
// stats' "single-run" and "outliers" and profile's "app-class").
const (
	// WarnWriteSkipped: the write tests were not run: a block device without --destructive,
	// or a file iomark did not create (one warning naming them all).
	WarnWriteSkipped = "write-skipped"
	// WarnUnmounted: the target's filesystem was unmounted (or something mounted over it)
	// during the run, which stopped there.
	WarnUnmounted = "target-unmounted"
	// WarnFewRuns: a test's budget ran out before its minimum number of repetitions.
	WarnFewRuns = "few-runs"
	// WarnShortRuns: a write test's runs were shorter than its MinRunTime: the drive writes
	// faster than its class's byte budget holds one such run.
	WarnShortRuns = "short-runs"
	// WarnEngine: the engine fell back or gave something up (psync where io_uring is
	// unavailable, unregistered buffers), as engine.Result.EngineNote says.
	WarnEngine = "engine-note"
)

func (r *runner) warn(code, format string, args ...any) {
	r.rec.Warnings = append(r.rec.Warnings, record.Warning{Code: code, Message: fmt.Sprintf(format, args...)})
}

// warnFewRuns warns when a test's budget ran out before its minimum number of repetitions.
// One warning per cause: a test measured once already carries stats' single-run warning
// (summarise), so few-runs is for two or more runs only.
func (r *runner) warnFewRuns(t profile.Test, rt *record.Test, budget time.Duration) {
	if rt.Runs > 1 && rt.Runs < t.MinRuns {
		r.warn(WarnFewRuns, "%s: measured %d times (wanted at least %d) within its %s budget", t.Name, rt.Runs, t.MinRuns, budget.Round(100*time.Millisecond))
	}
	if t.MinRunTime > 0 && t.Writes() && rt.DurationS > 0 && rt.DurationS < 0.9*t.MinRunTime.Seconds() {
		r.warn(WarnShortRuns, "%s: runs of %.2f s, shorter than the %v a stable figure needs: at %.0f MB/s one such run does not fit the run's %s write budget (a drive iomark takes for flash or cannot tell; `iomark run --class` names an SSD's)",
			t.Name, rt.DurationS, t.MinRunTime, rt.MBPerS, fmtBytes(r.decision.BudgetBytes))
	}
}

// engineNotes gathers the engine's notes of the reported runs, each with the tests it held
// for, so that one cause is reported once.
type engineNotes struct {
	order []string
	tests map[string][]string
}

func (n *engineNotes) add(note, test string) {
	if note == "" {
		return
	}
	if n.tests == nil {
		n.tests = map[string][]string{}
	}
	if _, ok := n.tests[note]; !ok {
		n.order = append(n.order, note)
	}
	n.tests[note] = append(n.tests[note], test)
}

// warnings are the notes as warnings, in the order first seen.
func (n *engineNotes) warnings() []record.Warning {
	var out []record.Warning
	for _, note := range n.order {
		out = append(out, record.Warning{Code: WarnEngine,
			Message: fmt.Sprintf("%s (%s)", note, strings.Join(n.tests[note], ", "))})
	}
	return out
}
