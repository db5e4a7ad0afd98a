package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// CompareOptions tune the compare output.
type CompareOptions struct {
	// Markdown prints Markdown tables instead of aligned text.
	Markdown bool
	// History are the user's other saved runs (any drive): where the run stands is placed
	// among them too, beside the published results.
	History []*record.Run
}

// Compare prints the rank and ratio of each figure of run against the user's earlier runs of
// the same drive and against the published results for the same board family and drive class.
func Compare(w io.Writer, run *record.Run, earlier []*record.Run, published []refdata.Result, opts CompareOptions) error {
	if run == nil {
		return fmt.Errorf("compare: no run given")
	}
	c := compare.Build(run, earlier, published)
	others := append(append([]*record.Run(nil), earlier...), opts.History...)
	p := compare.Where(run, published, others)
	return writeComparison(w, run, c, &p, opts)
}

func fmtValue(v float64, unit string) string {
	if unit == "IOPS" || unit == "KiB/s" || unit == "points" {
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmtRate(v) + " " + unit
}

func fmtRatio(s compare.Standing) string {
	if s.Ratio == 0 {
		return "-"
	}
	return fmt.Sprintf("×%.2f of median %s", s.Ratio, fmtValue(s.Median, s.Unit))
}

// writeStanding prints where each headline figure stands among the same board family, class
// and link setting, and among the same drive model.
func writeStanding(b *strings.Builder, p compare.Position) {
	d := p.Decision
	if d.Virtual || d.Class == "" {
		fmt.Fprintf(b, "\nwhere it stands: not compared: %s\n\n", p.Why)
		return
	}
	fmt.Fprintf(b, "\nwhere it stands: %s, %s, link setting %s", d.Family, orNone(d.Class), orNone(d.Setting))
	if d.SettingInferred != "" {
		fmt.Fprintf(b, " (%s)", d.SettingInferred)
	}
	fmt.Fprintf(b, "; drive model %s\n", orNone(d.Model.Name))
	if p.Why != "" {
		b.WriteString("  none: " + p.Why + "\n")
	}
	for _, s := range p.Stands {
		if p.Why != "" {
			break
		}
		fmt.Fprintf(b, "  %s %s %s (%s): %s; among this drive model: %s\n", s.Metric.Words(), fmtRate(s.Value), s.Metric.Unit(), s.Method,
			s.Among.Sentence(s.Metric.Unit()), s.Model.Sentence(s.Metric.Unit()))
	}
	if p.Ceiling != "" {
		b.WriteString("  " + p.Ceiling + "\n")
	}
	b.WriteString("\n")
}

func writeComparison(w io.Writer, run *record.Run, c compare.Comparison, p *compare.Position, opts CompareOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "compare run %s (%s, %s) on %s\n", run.ID, run.Profile, run.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), deviceLine(run))
	fmt.Fprintf(&b, "drive key: %s\n", orNone(c.DeviceKey))
	if l := PriceLine(run); l != "" {
		b.WriteString(l + "\n")
	}
	if p != nil {
		writeStanding(&b, *p)
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
			rows = append(rows, append(publishedCells(p),
				fmt.Sprintf("%s [%d]; %s", publishedMethod(p), n, strings.Join(p.Sources, ", "))))
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

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
