package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/units"
)

// fmtRate prints a throughput with about three significant digits, so 44.2 and 2.54 read
// alike and 312 does not grow false decimals.
func fmtRate(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func fmtIOPS(v float64) string { return fmt.Sprintf("%.0f", v) }

// fmtBytes prints a byte count in SI units, as drive makers label capacity and as "wrote N MB"
// reads (units.SI); engine.FormatSize writes sizes as flags take them (4k, 1m).
func fmtBytes[N int64 | uint64](n N) string { return units.SI(n) }

// orDash is s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fmtSeconds(s float64) string { return fmt.Sprintf("%.1f s", s) }

// fmtBS prints a block size the way fio and CrystalDiskMark label it (4K, 1M = 2^10, 2^20 bytes).
func fmtBS(bytes int) string {
	switch {
	case bytes <= 0:
		return "-"
	case bytes%(1<<20) == 0:
		return fmt.Sprintf("%dM", bytes>>20)
	case bytes%(1<<10) == 0:
		return fmt.Sprintf("%dK", bytes>>10)
	}
	return fmt.Sprintf("%dB", bytes)
}

// primaryFigure is the figure a test is about, with its unit: IOPS for small random I/O,
// MB/s otherwise (record.Test.Primary).
func primaryFigure(t record.Test) (value float64, unit string) {
	if t.Primary == "iops" {
		return t.IOPS, "IOPS"
	}
	return t.MBPerS, "MB/s"
}

// fmtFigure prints a test's primary figure with its unit, and MB/s beside IOPS.
func fmtFigure(t record.Test) string {
	if t.Primary == "iops" {
		return fmt.Sprintf("%s IOPS (%s MB/s)", fmtIOPS(t.IOPS), fmtRate(t.MBPerS))
	}
	return fmtRate(t.MBPerS) + " MB/s"
}

// FormatCI prints a test's confidence interval, or says there was none to compute: a test
// measured once reads "1 run, no CI", never "±0.0%".
func FormatCI(t record.Test) string {
	if t.Runs <= 1 {
		return "1 run, no CI"
	}
	return fmt.Sprintf("±%.1f%% (%d runs)", t.CI95Pct, t.Runs)
}

// ceilingPct is the test's MB/s as a share of the link ceiling: the record's own figure when
// the runner stored one, else computed from the run's ceiling; ok is false when neither exists.
func ceilingPct(r *record.Run, t record.Test) (pct float64, ok bool) {
	if t.CeilingPct != nil {
		return *t.CeilingPct, true
	}
	c := r.CeilingMBPerS
	if c <= 0 && r.Ceiling != nil {
		c = r.Ceiling.MBPerS
	}
	if c <= 0 {
		return 0, false
	}
	return t.MBPerS / c * 100, true
}

func runCeilingMBPerS(r *record.Run) float64 {
	if r.CeilingMBPerS > 0 {
		return r.CeilingMBPerS
	}
	if r.Ceiling != nil {
		return r.Ceiling.MBPerS
	}
	return 0
}

// opLabel names an op in words for people.
func opLabel(op string) string {
	switch op {
	case "read":
		return "sequential read"
	case "write":
		return "sequential write"
	case "randread":
		return "random read"
	case "randwrite":
		return "random write"
	case "randrw":
		return "random read/write"
	}
	return op
}

func deviceLine(r *record.Run) string {
	d := r.Device
	if d == nil {
		return "unknown device"
	}
	name := strings.TrimSpace(d.Vendor + " " + d.Model)
	if name == "" {
		name = d.Name
	}
	if name == "" {
		name = "unknown device"
	}
	var extra []string
	if d.Class != "" {
		extra = append(extra, d.Class)
	}
	if d.CapacityBytes > 0 {
		extra = append(extra, fmtBytes(d.CapacityBytes))
	}
	if d.Path != "" {
		extra = append(extra, d.Path)
	}
	if len(extra) > 0 {
		name += " (" + strings.Join(extra, ", ") + ")"
	}
	return name
}

func boardLine(r *record.Run) string {
	b := r.Host
	if b == nil || b.Model == "" {
		return "unknown machine"
	}
	if b.Revision != "" {
		return fmt.Sprintf("%s (revision %s)", b.Model, b.Revision)
	}
	return b.Model
}

// hopLine describes one hop of the link chain (probe.Hop.Summary) with its ceiling.
func hopLine(h probe.Hop) string {
	line := h.Summary()
	if h.CeilingMBPerS > 0 {
		line += fmt.Sprintf(" [ceiling %s MB/s]", fmtRate(h.CeilingMBPerS))
	}
	return line
}

// linkLine is the whole chain from the drive to the CPU.
func linkLine(r *record.Run) string {
	if len(r.Link) == 0 {
		return "not identified"
	}
	hops := make([]string, 0, len(r.Link)+1)
	for _, h := range r.Link {
		hops = append(hops, hopLine(h))
	}
	return strings.Join(append(hops, "CPU"), " → ")
}

// ceilingLine names the slowest hop's ceiling and how it was derived.
func ceilingLine(r *record.Run) string {
	c := runCeilingMBPerS(r)
	if c <= 0 {
		return "unknown (no figure is shown as a share of the link)"
	}
	s := fmtRate(c) + " MB/s"
	if r.Ceiling != nil && r.Ceiling.Bus != "" {
		s += ", set by the " + r.Ceiling.Bus + " hop"
		if r.Ceiling.Basis != "" {
			s += ": " + r.Ceiling.Basis
		}
	}
	return s
}

// scoreLines gives each score with what it means (scale and reference), one line each; a run
// without a score says why.
func scoreLines(r *record.Run) []string {
	var out []string
	if v := r.Scores.Iomark; v != nil {
		out = append(out, fmt.Sprintf("iomark score: %.0f points — %s", *v, profile.IomarkScoreMeaning())+noisyCaveat(r, profile.IomarkScoreInputs(), "quick"))
	}
	if v := r.Scores.Pibenchmarks; v != nil {
		out = append(out, fmt.Sprintf("pibenchmarks score: %d points — %s", *v, profile.PibScoreMeaning())+noisyCaveat(r, profile.PibScoreInputs(), "pibenchmarks"))
	}
	if len(out) > 0 {
		return out
	}
	switch r.Profile {
	case "quick", "pibenchmarks":
		return []string{"no score: a test the score needs was not measured"}
	}
	return []string{fmt.Sprintf("no score: the %s profile has none (`iomark run --profile quick` gives the iomark score, "+
		"`iomark run --profile pibenchmarks` the PiBenchmarks one)", orDash(r.Profile))}
}

// noisyCaveat is what a score carries when tests it is computed from varied between
// repetitions more than the stop rule allows: which ones, by how much, and the command that
// measures them again.
func noisyCaveat(r *record.Run, inputs []string, profileName string) string {
	var noisy []string
	for _, name := range inputs {
		if t := r.TestByName(name); t != nil && t.Noisy {
			noisy = append(noisy, fmt.Sprintf("%s ±%.1f%%", t.Name, t.CI95Pct))
		}
	}
	if len(noisy) == 0 {
		return ""
	}
	target := ""
	if r.Target.Path != "" {
		target = " " + r.Target.Path
	}
	return fmt.Sprintf(" (noisy: %s of the %d figures it is computed from varied more than ±5%% between repetitions: %s; "+
		"treat the score as approximate, or run again with the machine idle: `iomark run%s --profile %s`)",
		countWord(len(noisy)), len(inputs), strings.Join(noisy, ", "), target, profileName)
}

func countWord(n int) string {
	if n == 1 {
		return "one"
	}
	return fmt.Sprint(n)
}

// warningMessages are the run's warnings for people, one per cause: a message repeated is
// printed once, and a record made before the runner knew better, which says both "X: measured
// once" (single-run) and "X: measured 1 times" (few-runs), keeps the first.
func warningMessages(r *record.Run) []string {
	once := map[string]bool{}
	for _, w := range r.Warnings {
		if name, rest, ok := strings.Cut(w.Message, ": "); ok && (w.Code == "single-run" || strings.HasPrefix(rest, "measured once")) {
			once[name] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range r.Warnings {
		name, rest, _ := strings.Cut(w.Message, ": ")
		if seen[w.Message] || once[name] && strings.HasPrefix(rest, "measured 1 times") {
			continue
		}
		seen[w.Message] = true
		out = append(out, w.Message)
	}
	return out
}

// Saved says what became of a run after it was measured; `iomark run` fills it, `show` and
// the exports leave it out.
type Saved struct {
	Where   string // the results database: a file path, or a URL without its password
	ShortID string // the id as `iomark show` takes it
	Why     string // why the run was not saved, when Where is empty
}

// RunLine names the run and where it was saved, or why not: the last line of the terminal
// summary, which `iomark run --json` and `--markdown` print on stderr instead.
func RunLine(r *record.Run, s *Saved) string {
	id := orDash(r.ID)
	switch {
	case s == nil:
		return "run " + id
	case s.Where != "":
		short := s.ShortID
		if short == "" {
			short = id
		}
		return fmt.Sprintf("run %s saved in %s (`iomark show %s`, `iomark compare %s`)", id, s.Where, short, short)
	case s.Why != "":
		return fmt.Sprintf("run %s not saved: %s", id, s.Why)
	}
	return "run " + id + " not saved"
}

// ExportHint names the export a run is usually wanted in, for the line after a saved run:
// the paste-ready block of a sbc-reviews run, the chart over time of a sustained write. ""
// for other runs, and for a run that was not saved (export reads the results database).
func ExportHint(r *record.Run, s *Saved) string {
	if s == nil || s.Where == "" {
		return ""
	}
	id := s.ShortID
	if id == "" {
		id = r.ID
	}
	switch {
	case r.Profile == "sbc-reviews" && len(r.Tests) > 0:
		return fmt.Sprintf("the block to paste into a geerlingguy/sbc-reviews issue: `iomark export %s --format sbc-reviews`", id)
	case sustainedTest(r) != nil:
		return fmt.Sprintf("the write's rate and temperatures over time: `iomark export %s --format png` (or html)", id)
	}
	return ""
}

// wroteLine is printed with every result: what a run wrote to the drive is never hidden.
func wroteLine(r *record.Run) string {
	s := fmt.Sprintf("wrote %s in %s", fmtBytes(r.BytesWritten), fmtSeconds(r.DurationS))
	if r.Interrupted {
		s += " (interrupted: the figures are what was measured before the stop)"
	}
	return s
}

const (
	mib = 1 << 20
	kib = 1 << 10
)
