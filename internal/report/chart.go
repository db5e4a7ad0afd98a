package report

import (
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/iomark/iomark/internal/record"
)

// A chart is a stack of plots drawn one under the other, each given a height in proportion
// to what it shows; fonts are gonum's embedded Liberation set, never the system's.
type chart struct {
	width  vg.Length
	panels []panel
	// aligned panels share their x axis placement (plot.Align) and get equal heights.
	aligned bool
}

type panel struct {
	p      *plot.Plot
	height vg.Length
}

func (c chart) height() vg.Length {
	h := 2 * chartMargin
	for i, p := range c.panels {
		if i > 0 {
			h += panelGap
		}
		h += p.height
	}
	return h
}

// draw lays the panels out top to bottom on dc, inside a margin so that no label touches
// the edge, with a gap between panels so a title never meets the axis label above it.
func (c chart) draw(dc draw.Canvas) {
	dc = draw.Crop(dc, chartMargin, -chartMargin, chartMargin, -chartMargin)
	if c.aligned {
		tiles := draw.Tiles{Rows: len(c.panels), Cols: 1, PadY: panelGap}
		plots := make([][]*plot.Plot, len(c.panels))
		for i, p := range c.panels {
			plots[i] = []*plot.Plot{p.p}
		}
		for i, row := range plot.Align(plots, tiles, dc) {
			c.panels[i].p.Draw(row[0])
		}
		return
	}
	top := dc.Max.Y
	for _, p := range c.panels {
		sub := dc
		sub.Max.Y = top
		sub.Min.Y = top - p.height
		p.p.Draw(sub)
		top -= p.height + panelGap
	}
}

var (
	colorRun       = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff} // this run
	colorPublished = color.RGBA{R: 0x9a, G: 0x9a, B: 0x9a, A: 0xff} // published drives
	colorCeiling   = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff} // link ceiling, cliff
	colorSoC       = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colorDrive     = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
)

const (
	chartWidth    = 8 * vg.Inch
	barRowHeight  = 0.3 * vg.Inch
	panelOverhead = 1.1 * vg.Inch // title, axis and margins of a panel
	panelGap      = 0.3 * vg.Inch
	chartMargin   = 0.15 * vg.Inch
)

// buildChart picks and builds the chart the options ask for.
func buildChart(r *record.Run, opts Options) (chart, error) {
	kind := opts.Chart
	if kind == ChartAuto {
		kind = ChartBars
		if sustainedTest(r) != nil {
			kind = ChartSustained
		}
	}
	switch kind {
	case ChartBars:
		return barsChart(r, opts)
	case ChartSustained:
		t := sustainedTest(r)
		if t == nil {
			return chart{}, fmt.Errorf("run %s has no sustained test to draw: use the bars chart, or run --profile sustained", r.ID)
		}
		return sustainedChart(r, t)
	}
	return chart{}, fmt.Errorf("unknown chart %q: use %q or %q", kind, ChartBars, ChartSustained)
}

// sustainedTest is the run's long write with a per-second series, if any.
func sustainedTest(r *record.Run) *record.Test {
	for i := range r.Tests {
		if t := &r.Tests[i]; t.Sustained != nil && len(t.Series) > 0 {
			return t
		}
	}
	return nil
}

// hbars draws names against values as horizontal bars in the order given from the top: the
// first in the run's colour and the others grey when highlightFirst, else all in the run's
// colour.
func hbars(title, xLabel string, names []string, values []float64, highlightFirst bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.X.Min = 0
	n := len(names)
	// Nominal Y runs bottom-up; reverse so the first name is on top.
	rev := make([]string, n)
	run, others := make(plotter.Values, n), make(plotter.Values, n)
	for i := range names {
		j := n - 1 - i
		rev[j] = names[i]
		if i == 0 || !highlightFirst {
			run[j] = values[i]
		} else {
			others[j] = values[i]
		}
	}
	p.NominalY(rev...)
	for _, set := range []struct {
		vals plotter.Values
		c    color.Color
	}{{others, colorPublished}, {run, colorRun}} {
		if highlightFirst || set.c == colorRun {
			bc, err := plotter.NewBarChart(set.vals, barRowHeight*0.7)
			if err != nil {
				return nil, fmt.Errorf("chart %q: %w", title, err)
			}
			bc.Horizontal = true
			bc.Color = set.c
			bc.LineStyle.Width = 0
			p.Add(bc)
		}
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// vline draws a vertical marker at x across the y range, with a legend entry.
func vline(p *plot.Plot, x, y0, y1 float64, c color.Color, legend string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	if legend != "" {
		p.Legend.Add(legend, l)
		p.Legend.Top = true
	}
	return nil
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// barsChart: every test of the run in MB/s against the link ceiling, then one panel per
// published figure with the comparable drives, labelled with the unit and the source ids.
func barsChart(r *record.Run, opts Options) (chart, error) {
	c := chart{width: chartWidth}
	if len(r.Tests) == 0 {
		return c, fmt.Errorf("run %s has no test to chart", r.ID)
	}
	names := make([]string, len(r.Tests))
	vals := make([]float64, len(r.Tests))
	for i, t := range r.Tests {
		names[i], vals[i] = t.Name, t.MBPerS
	}
	title := shorten(fmt.Sprintf("%s on %s (iomark %s, %s)", deviceLine(r), boardFamilyOr(r), r.Profile, r.CreatedAt.UTC().Format("2006-01-02")), 110)
	p, err := hbars(title, "MB/s (10^6 bytes/s), every test of this run", names, vals, false)
	if err != nil {
		return c, err
	}
	if ceil := runCeilingMBPerS(r); ceil > 0 {
		// Named in the axis label: a legend box would sit on the bars.
		if err := vline(p, ceil, -0.5, float64(len(names))-0.5, colorCeiling, ""); err != nil {
			return c, err
		}
		p.X.Label.Text += fmt.Sprintf("; dashed line: link ceiling %s MB/s", fmtRate(ceil))
	}
	c.panels = append(c.panels, panel{p, panelOverhead + barRowHeight*vg.Length(len(names))})

	ps := comparablePublished(r, opts.Published)
	for _, f := range publishedFigures(r, ps) {
		names := []string{"this run: iomark " + f.test.Name}
		vals := []float64{f.oursValue}
		var srcs []string
		for _, d := range f.drives {
			names = append(names, shorten(d.row.MakeModel, 44))
			vals = append(vals, d.value)
			if !contains(srcs, d.row.SourceID) {
				srcs = append(srcs, d.row.SourceID)
			}
		}
		method := "same method"
		if !f.sameMethod {
			method = "method differs"
		}
		title := fmt.Sprintf("%s vs iomark %s (%s)", f.col.label, f.test.Name, method)
		xl := fmt.Sprintf("%s; published %s for %s: %s", f.col.unit, f.col.column, ps.Scope(), strings.Join(srcs, ", "))
		p, err := hbars(title, xl, names, vals, true)
		if err != nil {
			return c, err
		}
		c.panels = append(c.panels, panel{p, panelOverhead + barRowHeight*vg.Length(len(names))})
	}
	return c, nil
}

func boardFamilyOr(r *record.Run) string {
	if r.Host != nil && r.Host.Model != "" {
		return r.Host.Model
	}
	return "unknown board"
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// sustainedChart: MB/s over the write with the cliff marked, and under it the SoC and drive
// temperatures sampled during that test. The two share seconds as their x axis: the series
// counts from the start of the test's measurement window, the sensors from the test's first
// sample, which the runner takes within its sampling interval of that start.
func sustainedChart(r *record.Run, t *record.Test) (chart, error) {
	c := chart{width: chartWidth, aligned: true}
	pts := make(plotter.XYs, len(t.Series))
	maxX := 0.0
	for i, s := range t.Series {
		pts[i] = plotter.XY{X: s.TS, Y: s.MBPerS}
		maxX = max(maxX, s.TS)
	}
	p := plot.New()
	p.Title.Text = shorten(fmt.Sprintf("%s: sustained write (%s), %s written", deviceLine(r), t.Name, fmtBytes(t.Sustained.WrittenBytes)), 110)
	p.X.Label.Text = "seconds since the write began"
	p.Y.Label.Text = "MB/s (10^6 bytes/s)"
	p.Y.Min = 0
	p.X.Min = 0
	l, err := plotter.NewLine(pts)
	if err != nil {
		return c, fmt.Errorf("sustained chart: %w", err)
	}
	l.Color = colorRun
	l.Width = vg.Points(1.5)
	p.Add(l, plotter.NewGrid())
	p.Legend.Add("write rate, MB/s", l)
	p.Legend.Top = true
	if s := t.Sustained; s.CliffFound {
		_, _, _, ymax := plotter.XYRange(pts)
		label := fmt.Sprintf("cliff at %s (%s MB/s to %s MB/s)", fmtSeconds(s.CliffAtS), fmtRate(s.BeforeMBPerS), fmtRate(s.AfterMBPerS))
		if err := vline(p, s.CliffAtS, 0, ymax, colorCeiling, label); err != nil {
			return c, err
		}
	}
	c.panels = append(c.panels, panel{p, 3.5 * vg.Inch})

	var soc, drive plotter.XYs
	first := -1.0
	for _, s := range r.Sensors {
		if s.Test != t.Name {
			continue
		}
		if first < 0 {
			first = s.TS
		}
		x := s.TS - first
		if s.SoCTempC != nil {
			soc = append(soc, plotter.XY{X: x, Y: *s.SoCTempC})
		}
		if s.DriveTempC != nil {
			drive = append(drive, plotter.XY{X: x, Y: *s.DriveTempC})
		}
	}
	tp := plot.New()
	tp.X.Label.Text = "seconds since the test's first sensor sample"
	tp.Y.Label.Text = "temperature, °C"
	tp.X.Min, tp.X.Max = 0, maxX
	tp.Legend.Top = true
	tp.Add(plotter.NewGrid())
	if len(soc) == 0 && len(drive) == 0 {
		tp.Title.Text = "no temperature was sampled during this test"
	} else {
		tp.Title.Text = "temperature during the write"
	}
	for _, s := range []struct {
		xy    plotter.XYs
		c     color.Color
		label string
	}{{soc, colorSoC, "SoC, °C"}, {drive, colorDrive, "drive, °C"}} {
		if len(s.xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return c, fmt.Errorf("sustained chart: %w", err)
		}
		l.Color = s.c
		l.Width = vg.Points(1.5)
		tp.Add(l)
		tp.Legend.Add(s.label, l)
	}
	c.panels = append(c.panels, panel{tp, 2.5 * vg.Inch})
	return c, nil
}
