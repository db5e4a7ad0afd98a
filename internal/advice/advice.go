package advice

import (
	"slices"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// rule inspects a report and returns its findings (usually none or one).
type rule func(*probe.Report) []record.Finding

// rules run in this order; Evaluate then sorts by severity, keeping this order within one.
var rules = []rule{
	usbPortUSB2,
	usbNoUAS,
	usbFullSpeed,
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
func Evaluate(r *probe.Report) []record.Finding {
	out := []record.Finding{}
	if r == nil {
		return out
	}
	for _, rl := range rules {
		out = append(out, rl(r)...)
	}
	slices.SortStableFunc(out, func(a, b record.Finding) int { return a.Severity.Rank() - b.Severity.Rank() })
	return out
}

func one(f record.Finding) []record.Finding { return []record.Finding{f} }
