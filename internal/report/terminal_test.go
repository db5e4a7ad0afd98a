package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

func TestTerminalGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Terminal(&buf, sampleRun(), TermOptions{Latency: true}); err != nil {
		t.Fatal(err)
	}
	golden(t, "quick.terminal.golden", buf.Bytes())
	out := buf.String()
	for _, want := range []string{
		"2460 IOPS (10.1 MB/s)", "±1.1% (3 runs)", "96%", "noisy", "fix: compare this figure",
		"ceiling: 45.0 MB/s, set by the sd hop", "wrote 402.7 MB in 57.4 s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q", want)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour codes without Color")
	}
}

func TestTerminalAlwaysSaysWhatWasWritten(t *testing.T) {
	for _, r := range []*record.Run{
		{Profile: "quick", CreatedAt: time.Unix(0, 0)}, // an interrupted run with nothing measured
		{Profile: "quick", Interrupted: true, BytesWritten: 1_500_000, DurationS: 2.25, Tests: []record.Test{{Name: "seq-write-1m", Op: "write", MBPerS: 20, Runs: 1}}},
	} {
		var buf bytes.Buffer
		if err := Terminal(&buf, r, TermOptions{Color: true}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "wrote ") || !strings.Contains(buf.String(), " s") {
			t.Errorf("no bytes-written line:\n%s", buf.String())
		}
		if r.Interrupted && !strings.Contains(buf.String(), "interrupted") {
			t.Errorf("interrupted run not said to be:\n%s", buf.String())
		}
	}
}

func TestTerminalFlagsAboveCeiling(t *testing.T) {
	r := sampleRun()
	r.Tests[0].CeilingPct = ptr(180.0)
	var buf bytes.Buffer
	if err := Terminal(&buf, r, TermOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "180% (above the link: a cache was measured)") {
		t.Errorf("figure above the ceiling not flagged:\n%s", buf.String())
	}
}

// TestWarningsPrintTheirMessage: the terminal, Markdown and HTML reports print each warning's
// sentence once, not its Go form.
func TestWarningsPrintTheirMessage(t *testing.T) {
	r := sampleRun()
	r.Warnings = []record.Warning{{Code: "few-runs", Message: "seq-write-1m: measured 2 times (wanted at least 3) within its 11s budget"}}
	var term bytes.Buffer
	if err := Terminal(&term, r, TermOptions{}); err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{"terminal": term.String()}
	for _, f := range []string{"md", "html"} {
		outs[f] = string(export(t, f, []*record.Run{r}, Options{}))
	}
	for name, out := range outs {
		if strings.Count(out, "measured 2 times (wanted at least 3)") != 1 || strings.Contains(out, "{few-runs") {
			t.Errorf("%s: the warning is not printed once as a sentence:\n%s", name, out)
		}
	}
}

// TestNoisyScoreCarriesItsCaveat: a score computed from a figure that stayed noisy says so,
// names the figure and its spread, and gives the command that measures it again; a score
// from steady figures carries no caveat.
func TestNoisyScoreCarriesItsCaveat(t *testing.T) {
	r := profileRun(t, "pibenchmarks")
	if r.Scores.Pibenchmarks == nil {
		t.Fatal("the sample pibenchmarks run has no score")
	}
	for _, l := range scoreLines(r) {
		if strings.Contains(l, "noisy") {
			t.Errorf("a score from steady figures says %q", l)
		}
	}
	tst := r.TestByName(profile.PibFioRandWrite)
	tst.Noisy, tst.CI95Pct = true, 14.2
	lines := strings.Join(scoreLines(r), "\n")
	t.Logf("%s", lines)
	for _, want := range []string{"noisy: one of the 7 figures it is computed from", profile.PibFioRandWrite + " ±14.2%", "`iomark run " + r.Target.Path + " --profile pibenchmarks`"} {
		if !strings.Contains(lines, want) {
			t.Errorf("score line lacks %q:\n%s", want, lines)
		}
	}
}
