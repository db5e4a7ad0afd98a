package advice

import (
	"slices"

	"github.com/iomark/iomark/internal/probe"
)

// Severity says how much a finding matters.
type Severity string

// Severities, mildest first.
const (
	Info Severity = "info" // worth knowing; no action needed
	Warn Severity = "warn" // costs performance or comparability; a fix exists
	Bad  Severity = "bad"  // results will be far from what the hardware can do
)

func (s Severity) rank() int {
	switch s {
	case Bad:
		return 0
	case Warn:
		return 1
	}
	return 2
}

// Finding is one piece of advice about the target.
type Finding struct {
	ID       string   `json:"id"` // stable, see docs/findings.md
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix,omitempty"`
	Evidence string   `json:"evidence,omitempty"` // the facts that triggered it
}

// rule inspects a report and returns its findings (usually none or one).
type rule func(*probe.Report) []Finding

// rules run in this order; Evaluate then sorts by severity, keeping this order within one.
var rules = []rule{
	usbPortUSB2,
	usbNoUAS,
	partitionMisaligned,
	mountSync,
	fsFAT,
	underVoltage,
	throttled,
	sdIDSuspect,
	usbCapacitySuspect,
	pcieLinkDegraded,
	governorPowersave,
}

// Evaluate applies every rule to r, worst findings first. It never returns nil, so that JSON
// shows "findings": [] when all is well.
func Evaluate(r *probe.Report) []Finding {
	out := []Finding{}
	if r == nil {
		return out
	}
	for _, rl := range rules {
		out = append(out, rl(r)...)
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Severity.rank() - b.Severity.rank() })
	return out
}

func one(f Finding) []Finding { return []Finding{f} }
