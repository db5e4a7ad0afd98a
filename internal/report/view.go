package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
)

// runView is the content shared by the Markdown and HTML reports, as plain strings; each
// format escapes it its own way.
type runView struct {
	Title      string
	Facts      [][2]string // label, value
	TestHeader []string
	TestRows   [][]string
	Scores     []string
	Findings   []findingView
	Warnings   []string
	Wrote      string
	Sustained  []string // what each sustained write found (sustainedLines)
	SBCHeader  []string // the reviewers' table when the profile is sbc-reviews
	SBCRows    [][]string
	SBCNote    string // the table's unit
	Compare    *compare.Comparison
}

type findingView struct {
	Severity, ID, Message, Fix, Evidence string
}

var testHeader = []string{
	"Test", "Op", "Block", "QD", "Jobs", "IOPS", "MB/s", "MiB/s",
	"Lat p50 µs", "Lat p99 µs", "Lat max µs", "±CI95", "Runs", "Link ceiling", "Noisy",
}

func newRunView(r *record.Run, opts Options) runView {
	v := runView{
		Title: fmt.Sprintf("iomark %s: %s", r.Profile, deviceLine(r)),
		Wrote: wroteLine(r),
	}
	fact := func(k, val string) { v.Facts = append(v.Facts, [2]string{k, val}) }
	fact("Device", deviceLine(r))
	fact("Link", linkLine(r))
	fact("Link ceiling", ceilingLine(r))
	fact("Board", boardLine(r))
	if r.Target.Path != "" {
		t := r.Target.Path
		if r.Mount != nil {
			t += fmt.Sprintf(" (%s on %s, options %s)", r.Mount.FSType, r.Mount.MountPoint, r.Mount.Options)
		}
		fact("Target", t)
	}
	fact("Profile", r.Profile)
	fact("Date", r.CreatedAt.UTC().Format("2006-01-02 15:04:05 UTC"))
	fact("Duration", fmtSeconds(r.DurationS))
	fact("Bytes written", fmt.Sprintf("%s (%d bytes)", fmtBytes(r.BytesWritten), r.BytesWritten))
	tool := r.ToolVersion
	if r.ToolCommit != "" {
		tool += " (" + r.ToolCommit + ")"
	}
	fact("iomark", tool)
	fact("Run id", r.ID)
	if p, ok := compare.PriceOf(r); ok {
		fact("Price", fmtUSD(p.PriceUSD)+" (as given to iomark run --price)")
		fact("Price per performance", strings.Join(priceParts(p, true), "; "))
	}
	if r.Interrupted {
		fact("Interrupted", "yes: the figures are what was measured before the stop")
	}

	v.TestHeader = testHeader
	for _, t := range r.Tests {
		v.TestRows = append(v.TestRows, testRow(r, t))
	}
	v.Sustained = sustainedLines(r)
	v.Scores = scoreLines(r)
	for _, f := range r.Findings {
		v.Findings = append(v.Findings, findingView{string(f.Severity), f.ID, f.Message, f.Fix, f.Evidence})
	}
	v.Warnings = warningMessages(r)
	if r.Profile == "sbc-reviews" {
		v.SBCHeader, v.SBCRows = sbcReviewsRows(r)
		v.SBCNote = sbcUnitNote
	}
	if len(opts.Published) > 0 {
		c := compare.Build(r, nil, opts.Published)
		c.Earlier, c.EarlierIDs, c.EarlierWhy = nil, nil, ""
		v.Compare = &c
	}
	return v
}

func testRow(r *record.Run, t record.Test) []string {
	ci := "1 run, no CI"
	if t.Runs > 1 {
		ci = fmt.Sprintf("±%.1f%%", t.CI95Pct)
	}
	ceil := "-"
	if pct, ok := ceilingPct(r, t); ok {
		ceil = fmt.Sprintf("%.0f%%", pct)
	}
	noisy := ""
	if t.Noisy {
		noisy = "noisy"
	}
	return []string{
		t.Name, opLabel(t.Op), fmtBS(t.BS), strconv.Itoa(t.QD), strconv.Itoa(t.Jobs),
		fmtIOPS(t.IOPS), fmtRate(t.MBPerS), fmtRate(t.MiBPerS),
		latUS(t.LatUS.P50), latUS(t.LatUS.P99), latUS(t.LatUS.Max), ci, strconv.Itoa(t.Runs), ceil, noisy,
	}
}

// publishedCells are the cells every table of published figures starts with: the figure,
// the iomark test, this run's value, its rank and its ratio to the figure.
func publishedCells(p compare.PublishedFigure) []string {
	return []string{
		fmt.Sprintf("%s (%s)", p.Label, p.Column), p.Test, fmtValue(p.Value, p.Unit),
		fmt.Sprintf("%d of %d", p.Rank, p.Of), fmtRatio(p.Standing),
	}
}

// publishedMethod says whether iomark measured a published figure the way its source did.
func publishedMethod(p compare.PublishedFigure) string {
	if p.SameMethod {
		return "same method"
	}
	return "method differs"
}

// comparisonRows is the published comparison as a table for the reports.
func comparisonRows(c *compare.Comparison) (header []string, rows [][]string, notes []string) {
	header = []string{"Published figure", "iomark test", "This run", "Rank", "Ratio", "Method", "Sources"}
	for i, p := range c.Published {
		rows = append(rows, append(publishedCells(p),
			fmt.Sprintf("%s [%d]", publishedMethod(p), i+1), strings.Join(p.Sources, ", ")))
		notes = append(notes, fmt.Sprintf("[%d] %s. Published method: %s.", i+1, p.Note, p.Method))
	}
	for _, n := range c.SourceNotes {
		notes = append(notes, "Unit: "+n+".")
	}
	if c.PublishedWhy != "" {
		notes = append(notes, c.PublishedWhy)
	}
	return header, rows, notes
}

// latUS prints a latency in µs, or "-" when the test recorded none (zero is never measured).
func latUS(v float64) string {
	if v <= 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
