package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/stats"
)

// Standing is where a figure sits among others of the same unit: rank 1 is the best (highest)
// of Of figures including this one; Ratio is the figure over the median of the others.
type Standing struct {
	Value  float64
	Unit   string
	Rank   int
	Of     int
	Median float64 // of the others
	Ratio  float64 // Value / Median; 0 when the median is 0
}

func standing(value float64, unit string, others []float64) Standing {
	s := Standing{Value: value, Unit: unit, Rank: 1, Of: len(others) + 1}
	for _, o := range others {
		if o > value {
			s.Rank++
		}
	}
	s.Median = stats.Median(others)
	if s.Median > 0 {
		s.Ratio = value / s.Median
	}
	return s
}

// EarlierFigure is one test of the run against the same test in the user's earlier runs.
type EarlierFigure struct {
	Test string
	Standing
}

// PublishedFigure is one published column against the iomark test that maps to it.
type PublishedFigure struct {
	Column     string // refdata CSV column
	Label      string // what the published figure measured
	Method     string // the published method
	Test       string // the iomark test compared
	SameMethod bool   // false when iomark measured a different method (Note says how)
	Note       string
	Sources    []string // source ids of the published rows used
	Standing
}

// Comparison is the data behind `iomark compare`.
type Comparison struct {
	RunID     string
	DeviceKey string
	// Earlier runs of the same device key (the run itself excluded), oldest first.
	EarlierIDs []string
	Earlier    []EarlierFigure
	// PublishedScope names the board family and storage classes the published rows share
	// with the run; PublishedRows counts them.
	PublishedScope string
	PublishedRows  int
	Published      []PublishedFigure
	// SourceNotes are unit caveats of the sources used (SOURCES.md).
	SourceNotes []string
	// EarlierUnlike notes earlier runs made on another board or with other settings: they are
	// ranked with the rest, and the reader should know.
	EarlierUnlike []string
	// EarlierWhy and PublishedWhy explain an empty side ("no earlier runs of this drive", …).
	EarlierWhy   string
	PublishedWhy string
}

// BuildComparison ranks each figure of run against the user's earlier runs of the same device
// key and against the comparable published results. Figures are only ever compared in the
// same unit: a test's primary figure against the same test, a published column in its own unit.
func BuildComparison(run *record.Run, earlier []*record.Run, published []refdata.Result) Comparison {
	c := Comparison{RunID: run.ID, DeviceKey: run.DeviceKey()}
	var same []*record.Run
	for _, e := range earlier {
		if e == nil || e.ID == run.ID || c.DeviceKey == "" || e.DeviceKey() != c.DeviceKey {
			continue
		}
		same = append(same, e)
	}
	slices.SortStableFunc(same, func(a, b *record.Run) int { return a.CreatedAt.Compare(b.CreatedAt) })
	for _, e := range same {
		c.EarlierIDs = append(c.EarlierIDs, e.ID)
		var diffs []string
		if b, eb := boardModel(run), boardModel(e); b != eb {
			diffs = append(diffs, fmt.Sprintf("board %s", orNone(eb)))
		}
		if run.SettingsFingerprint != "" && e.SettingsFingerprint != "" && run.SettingsFingerprint != e.SettingsFingerprint {
			diffs = append(diffs, "other settings (governor, SD command queueing, PCIe gen, mount or scheduler)")
		}
		if len(diffs) > 0 {
			c.EarlierUnlike = append(c.EarlierUnlike, fmt.Sprintf("%s (%s): %s", e.ID, e.CreatedAt.UTC().Format("2006-01-02"), strings.Join(diffs, ", ")))
		}
	}
	switch {
	case c.DeviceKey == "":
		c.EarlierWhy = "the run does not identify its drive well enough to find earlier runs of it"
	case len(same) == 0:
		c.EarlierWhy = "no earlier runs of this drive (" + c.DeviceKey + ")"
	}
	for _, t := range run.Tests {
		v, unit := primaryFigure(t)
		var others []float64
		for _, e := range same {
			if et := e.TestByName(t.Name); et != nil && et.Primary == t.Primary {
				ov, _ := primaryFigure(*et)
				others = append(others, ov)
			}
		}
		if len(others) > 0 {
			c.Earlier = append(c.Earlier, EarlierFigure{Test: t.Name, Standing: standing(v, unit, others)})
		}
	}

	ps := comparablePublished(run, published)
	c.PublishedScope, c.PublishedRows = ps.Scope(), len(ps.Rows)
	c.PublishedWhy = ps.missing(run)
	usedSources := map[string]bool{}
	for _, f := range publishedFigures(run, ps) {
		vals := make([]float64, len(f.drives))
		var srcs []string
		for i, d := range f.drives {
			vals[i] = d.value
			if !slices.Contains(srcs, d.row.SourceID) {
				srcs = append(srcs, d.row.SourceID)
			}
			usedSources[d.row.SourceID] = true
		}
		note := f.cand.note
		if f.converted > 0 {
			note += fmt.Sprintf("; %d of the %d published figures converted: %s", f.converted, len(f.drives), f.col.rowNote)
		}
		c.Published = append(c.Published, PublishedFigure{
			Column: f.col.column, Label: f.col.label, Method: f.col.method, Test: f.ours.name,
			SameMethod: f.cand.same, Note: note, Sources: srcs,
			Standing: standing(f.oursValue, f.col.unit, vals),
		})
	}
	if len(ps.Rows) > 0 && len(c.Published) == 0 {
		c.PublishedWhy = "the run has no test that maps to a published figure"
	}
	for _, id := range ps.SourceIDs() {
		if n, ok := sourceUnitNotes[id]; ok && usedSources[id] {
			c.SourceNotes = append(c.SourceNotes, id+": "+n)
		}
	}
	return c
}

// CompareOptions tune the compare output.
type CompareOptions struct {
	// Markdown prints Markdown tables instead of aligned text.
	Markdown bool
}

// Compare prints the rank and ratio of each figure of run against the user's earlier runs of
// the same drive and against the published results for the same board family and drive class.
func Compare(w io.Writer, run *record.Run, earlier []*record.Run, published []refdata.Result, opts CompareOptions) error {
	if run == nil {
		return fmt.Errorf("compare: no run given")
	}
	c := BuildComparison(run, earlier, published)
	return writeComparison(w, run, c, opts)
}

func fmtValue(v float64, unit string) string {
	if unit == "IOPS" || unit == "KiB/s" || unit == "points" {
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmtRate(v) + " " + unit
}

func fmtRatio(s Standing) string {
	if s.Ratio == 0 {
		return "-"
	}
	return fmt.Sprintf("×%.2f of median %s", s.Ratio, fmtValue(s.Median, s.Unit))
}

func writeComparison(w io.Writer, run *record.Run, c Comparison, opts CompareOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "compare run %s (%s, %s) on %s\n", run.ID, run.Profile, run.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), deviceLine(run))
	fmt.Fprintf(&b, "drive key: %s\n", orNone(c.DeviceKey))
	if l := PriceLine(run); l != "" {
		b.WriteString(l + "\n")
	}
	b.WriteString("rank 1 is the fastest; ratio is this run's figure over the median of the others, in the same unit\n\n")

	table := func(header []string, rows [][]string) {
		if opts.Markdown {
			b.WriteString(mdTable(header, rows))
			return
		}
		var tb strings.Builder
		tw := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		tw.Flush()
		for _, line := range strings.SplitAfter(tb.String(), "\n") {
			b.WriteString(strings.TrimRight(line, " \n"))
			if line != "" {
				b.WriteString("\n")
			}
		}
	}

	fmt.Fprintf(&b, "against your earlier runs of this drive: %d\n", len(c.EarlierIDs))
	if c.EarlierWhy != "" {
		b.WriteString("  " + c.EarlierWhy + "\n")
	}
	for _, u := range c.EarlierUnlike {
		b.WriteString("  unlike this run: " + u + "\n")
	}
	if len(c.Earlier) > 0 {
		var rows [][]string
		for _, e := range c.Earlier {
			rows = append(rows, []string{e.Test, fmtValue(e.Value, e.Unit), fmt.Sprintf("%d of %d", e.Rank, e.Of), fmtRatio(e.Standing)})
		}
		table([]string{"test", "this run", "rank", "ratio"}, rows)
	}
	b.WriteString("\n")

	if c.PublishedRows == 0 {
		b.WriteString("against published results: none\n")
	} else {
		fmt.Fprintf(&b, "against published results for %s: %d drives\n", c.PublishedScope, c.PublishedRows)
	}
	if c.PublishedWhy != "" {
		b.WriteString("  " + c.PublishedWhy + "\n")
	}
	if len(c.Published) > 0 {
		var rows [][]string
		var notes []string
		for _, p := range c.Published {
			n := len(notes) + 1
			notes = append(notes, fmt.Sprintf("[%d] %s vs iomark %s: %s. Published method: %s.", n, p.Label, p.Test, p.Note, p.Method))
			method := "same method"
			if !p.SameMethod {
				method = "method differs"
			}
			rows = append(rows, []string{
				fmt.Sprintf("%s (%s)", p.Label, p.Column), p.Test, fmtValue(p.Value, p.Unit),
				fmt.Sprintf("%d of %d", p.Rank, p.Of), fmtRatio(p.Standing),
				fmt.Sprintf("%s [%d]; %s", method, n, strings.Join(p.Sources, ", ")),
			})
		}
		table([]string{"published figure", "iomark test", "this run", "rank", "ratio", "notes, sources"}, rows)
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString(n + "\n")
		}
		for _, n := range c.SourceNotes {
			b.WriteString("unit: " + n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func boardModel(r *record.Run) string {
	if r.Host == nil {
		return ""
	}
	return r.Host.Model
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
