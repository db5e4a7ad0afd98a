package advice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// Wear thresholds of health-worn: 80% of the rated endurance used is where makers' tools
// start warning (and the eMMC pre-EOL "warning" state means 80% of the reserved blocks are
// used); at 100% the rated endurance is spent.
const (
	wornWarnPct = 80
	wornBadPct  = 100
)

// EvaluateHealth judges what a drive reported about itself (iomark info; EvaluateRun applies
// the same rules to a run's health), worst first. Never nil.
func EvaluateHealth(h *health.Health) []record.Finding {
	out := []record.Finding{}
	if h == nil {
		return out
	}
	for _, rl := range []func(*health.Health) []record.Finding{healthCritical, healthWorn, mediaErrors} {
		out = append(out, rl(h)...)
	}
	slices.SortStableFunc(out, func(a, b record.Finding) int { return a.Severity.Rank() - b.Severity.Rank() })
	return out
}

// healthCritical: the drive raised its own alarm (NVMe critical warning bits, an ATA pre-fail
// attribute at or below its threshold).
func healthCritical(h *health.Health) []record.Finding {
	if len(h.CriticalWarnings) == 0 {
		return nil
	}
	ev := fmt.Sprintf("%s: %s", h.Source, strings.Join(h.CriticalWarnings, ", "))
	return one(record.Finding{ID: "health-critical", Severity: record.SeverityBad,
		Message:  "the drive reports a critical condition of its own: " + strings.Join(h.CriticalWarnings, ", "),
		Fix:      "back up its data now and replace the drive; benchmark figures of a failing drive say little about the model",
		Evidence: ev})
}

// healthWorn: most of the rated endurance is used (percentage used ≥ 80), or an eMMC's
// reserved blocks are running out (pre-EOL warning or urgent).
func healthWorn(h *health.Health) []record.Finding {
	used := -1
	if h.PercentageUsed != nil {
		used = *h.PercentageUsed
	}
	if used < wornWarnPct && h.PreEOL != "warning" && h.PreEOL != "urgent" {
		return nil
	}
	var ev []string
	if used >= 0 {
		ev = append(ev, fmt.Sprintf("percentage used %d%% (%s)", used, h.PercentageUsedBasis))
	}
	if h.PreEOL != "" {
		ev = append(ev, "eMMC pre-EOL "+h.PreEOL)
	}
	f := record.Finding{ID: "health-worn", Severity: record.SeverityWarn,
		Message:  "the drive has used most of its rated write endurance: worn flash writes slower and fails sooner",
		Fix:      "plan to replace it and keep backups; compare its figures with new drives of the model with care",
		Evidence: strings.Join(ev, "; ")}
	if used >= wornBadPct || h.PreEOL == "urgent" {
		f.Severity = record.SeverityBad
		f.Message = "the drive's rated write endurance is spent (or its reserve blocks nearly are): it may turn read-only or fail"
		f.Fix = "back up its data and replace it"
	}
	return one(f)
}

// mediaErrors: the drive logged errors it could not correct, or sectors waiting to be
// remapped or already remapped.
func mediaErrors(h *health.Health) []record.Finding {
	var ev []string
	count := func(p *uint64, what string) {
		if p != nil && *p > 0 {
			ev = append(ev, fmt.Sprintf("%d %s", *p, what))
		}
	}
	count(h.MediaErrors, "media errors")
	count(h.PendingSectors, "pending sectors")
	count(h.ReallocatedSectors, "reallocated sectors")
	if len(ev) == 0 {
		return nil
	}
	return one(record.Finding{ID: "media-errors", Severity: record.SeverityWarn,
		Message:  "the drive has logged media errors: " + strings.Join(ev, ", "),
		Fix:      "back up its data; a growing count means the drive is failing (check again after the run: iomark info)",
		Evidence: h.Source + ": " + strings.Join(ev, ", ")})
}

// EvaluateDrive is iomark info's judgement: the rules on the probe report and on the drive's
// health together, worst first. Never nil.
func EvaluateDrive(r *probe.Report, h *health.Health) []record.Finding {
	out := append(Evaluate(r), EvaluateHealth(h)...)
	slices.SortStableFunc(out, func(a, b record.Finding) int { return a.Severity.Rank() - b.Severity.Rank() })
	return out
}
