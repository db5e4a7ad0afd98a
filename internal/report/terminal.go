package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/record"
)

// TermOptions tune the terminal summary.
type TermOptions struct {
	// Color adds ANSI colours to severities and flags; set it only when writing to a terminal.
	Color bool
	// Latency adds the p50 and p99 completion latency of each test.
	Latency bool
	// Saved, when set, says where `iomark run` saved the run or why it did not.
	Saved *Saved
}

// Terminal prints a run for people: the device and its link chain with the ceiling, each test
// with its figure, unit, confidence interval, share of the link ceiling and noise flag, then
// findings with their fixes, scores with what they mean, the price per performance, always how
// much was written in how long, and the run's id with where it was saved.
func Terminal(w io.Writer, run *record.Run, opts TermOptions) error {
	if run == nil {
		return fmt.Errorf("terminal report: no run given")
	}
	paint := func(code, s string) string {
		if !opts.Color || s == "" {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var b strings.Builder
	var p printf = func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }

	hasPower := false
	for _, t := range run.Tests {
		hasPower = hasPower || t.PowerW != nil
	}
	terminalSetup(p, run, hasPower)
	p("")
	terminalTests(p, run, opts.Latency, hasPower, paint)
	if lines := sustainedLines(run); len(lines) > 0 {
		p("")
		p("sustained write:")
		for _, l := range lines {
			p("  %s", l)
		}
	}
	p("")
	// A network copy's own account (rates, limit, cliff, temperatures, comparison) follows its
	// table, in iomark sink's output and iomark show's alike.
	var nb strings.Builder
	if err := NetworkCopy(&nb, run); err == nil && nb.Len() > 0 {
		b.WriteString(nb.String())
		p("")
	}

	terminalFindings(p, run, paint)
	for _, wn := range warningMessages(run) {
		p("warning: %s", wn)
	}
	for _, s := range scoreLines(run) {
		p("%s", s)
	}
	if l := PriceLine(run); l != "" {
		p("%s", l)
	}
	p("%s", wroteLine(run))
	p("%s", RunLine(run, opts.Saved))
	if h := ExportHint(run, opts.Saved); h != "" {
		p("%s", h)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// terminalSetup is what was measured through what: device, board, target, the link chain and
// its ceiling, the drive's health and the power meter.
func terminalSetup(p printf, run *record.Run, hasPower bool) {
	p("iomark %s · profile %s · %s", run.ToolVersion, run.Profile, run.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
	p("device:  %s", deviceLine(run))
	p("board:   %s", boardLine(run))
	if run.Target.Path != "" {
		t := run.Target.Path
		if m := run.Mount; m != nil {
			t += fmt.Sprintf(" (%s on %s)", m.FSType, m.MountPoint)
		}
		p("target:  %s", t)
	}
	if len(run.Link) > 0 {
		p("link, from the drive up to the CPU:")
		for _, h := range run.Link {
			p("  %s", hopLine(h))
		}
	} else {
		p("link:    not identified")
	}
	p("ceiling: %s", ceilingLine(run))
	if h := run.Health; h != nil {
		if h.Source == health.SourceNone {
			p("health:  not reported (%s)", h.Note)
		} else {
			p("health:  %s (%s)", h.Summary(), h.Source)
		}
	}
	if pw := run.Power; pw != nil && hasPower {
		p("power:   %s: %s", pw.Source, pw.Sensor)
		p("         covers %s", pw.Scope)
	}
}

// terminalTests is the table of the tests: figure, confidence, share of the link ceiling,
// latency when asked, power when measured, and the noise flag.
func terminalTests(p printf, run *record.Run, latency, hasPower bool, paint func(code, s string) string) {
	if len(run.Tests) == 0 {
		p("no test completed")
	} else {
		var tb strings.Builder
		tw := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
		header := "test\tresult\tconfidence\tof link ceiling"
		if latency {
			header += "\tlatency p50 / p99"
		}
		if hasPower {
			header += "\tpower"
		}
		fmt.Fprintln(tw, header+"\t")
		for _, t := range run.Tests {
			ceil := "-"
			if pct, ok := ceilingPct(run, t); ok {
				ceil = fmt.Sprintf("%.0f%%", pct)
				if pct > 100 {
					ceil = paint("33", ceil+" (above the link: a cache was measured)")
				}
			}
			line := fmt.Sprintf("%s\t%s\t%s\t%s", t.Name, fmtFigure(t), FormatCI(t), ceil)
			if latency {
				if t.LatUS.P50 > 0 {
					line += fmt.Sprintf("\t%.0f / %.0f µs", t.LatUS.P50, t.LatUS.P99)
				} else {
					line += "\t-"
				}
			}
			if hasPower {
				line += "\t" + powerCell(t)
			}
			flag := ""
			if t.Noisy {
				flag = paint("33", "noisy")
			}
			fmt.Fprintln(tw, line+"\t"+flag)
		}
		tw.Flush()
		for _, line := range strings.Split(strings.TrimSuffix(tb.String(), "\n"), "\n") {
			p("%s", strings.TrimRight(line, " "))
		}
	}
}

// terminalFindings lists the findings, worst painted red, with their fixes.
func terminalFindings(p printf, run *record.Run, paint func(code, s string) string) {
	if len(run.Findings) == 0 {
		p("findings: none")
	} else {
		p("findings:")
		for _, f := range run.Findings {
			sev := string(f.Severity)
			switch f.Severity {
			case record.SeverityBad:
				sev = paint("31", sev)
			case record.SeverityWarn:
				sev = paint("33", sev)
			}
			p("  %s %s: %s", sev, f.ID, f.Message)
			if f.Fix != "" {
				p("       fix: %s", f.Fix)
			}
		}
	}
}

// powerCell is a test's mean power and energy per GB moved, e.g. "6.1 W, 31 J/GB".
func powerCell(t record.Test) string {
	if t.PowerW == nil {
		return "-"
	}
	c := fmt.Sprintf("%.1f W", *t.PowerW)
	if t.EnergyJPerGB != nil {
		c += fmt.Sprintf(", %.0f J/GB", *t.EnergyJPerGB)
	}
	return c
}
