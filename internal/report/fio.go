package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

// Fio writes a run's tests as fio command lines (profile.FioFor), one per test, as a shell
// script: comments say where to run them, what iomark measured and which of fio's figures to
// read; a test with no fio equivalent gets a comment saying why instead of a line.
func Fio(w io.Writer, run *record.Run) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# fio jobs equivalent to iomark run %s (profile %s", run.ID, run.Profile)
	if !run.CreatedAt.IsZero() {
		fmt.Fprintf(&b, ", %s", run.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
	}
	fmt.Fprintf(&b, ") on %s.\n", orDash(run.Target.Path))
	if run.Target.Kind == "block" {
		fmt.Fprintf(&b, "# They read %s in place, with fio's --readonly, as iomark did.\n", run.Target.Path)
	} else {
		dir := run.Target.Path
		if run.Target.Kind == "file" {
			dir = filepath.Dir(dir)
		}
		fmt.Fprintf(&b, "# Run them from the directory that was benchmarked: cd %s\n", shellQuote(dir))
		fmt.Fprintf(&b, "# They share the file %s, which the first one lays out with data; rm it afterwards.\n", profile.FioFileName)
	}
	b.WriteString("# iomark repeated each test, after a discarded warm-up, until its 95% interval was within\n" +
		"# ±5% (or its budget ran out) and reports the median run; fio runs each job once.\n")
	lines, lastDerived := 0, ""
	for _, t := range run.Tests {
		s, derived, err := profile.FioFor(run, t)
		b.WriteString("\n")
		if err != nil {
			fmt.Fprintf(&b, "# %s: no fio line: %v.\n", t.Name, err)
			continue
		}
		args, err := s.Args()
		if err != nil {
			fmt.Fprintf(&b, "# %s: no fio line: %v.\n", t.Name, err)
			continue
		}
		fmt.Fprintf(&b, "# %s: iomark %s; compare fio's %s.\n", t.Name, fioFigure(t), fioReads(t))
		// What came from the profile rather than the record, said once while it stays the same.
		if d := strings.Join(derived, "; "); d != "" && d != lastDerived {
			fmt.Fprintf(&b, "# (this line and those below: %s)\n", d)
			lastDerived = d
		}
		lines++
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = shellQuote(a)
		}
		fmt.Fprintf(&b, "fio %s\n", strings.Join(quoted, " "))
	}
	if lines > 0 && run.Target.Kind != "block" {
		fmt.Fprintf(&b, "\n# rm %s\n", profile.FioFileName)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fioFigure is iomark's figure of t with its interval and run count.
func fioFigure(t record.Test) string {
	fig := fmtRate(t.MBPerS) + " MB/s"
	if t.Primary == profile.PrimaryIOPS {
		fig = fmtIOPS(t.IOPS) + " IOPS"
	}
	if t.Runs > 1 {
		return fmt.Sprintf("%s (median of %d runs, ±%.1f%%)", fig, t.Runs, t.CI95Pct)
	}
	return fig + " (one run)"
}

// fioReads says where fio prints the figure t is about: its "read:" or "write:" line, IOPS=
// or the MB/s in brackets after BW= (fio prints MiB/s first, then MB/s).
func fioReads(t record.Test) string {
	dir := "read"
	if engine.Pattern(t.Op).Writes() {
		dir = "write"
	}
	if t.Primary == profile.PrimaryIOPS {
		return dir + ": IOPS="
	}
	return dir + ": BW=… (… MB/s)"
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
