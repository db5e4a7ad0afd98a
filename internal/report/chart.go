package report

import (
	"fmt"
	"github.com/iomark/iomark/internal/compare"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/iomark/iomark/internal/record"
)

// A chart is a stack of plots drawn one under the other, each given a height in proportion
// to what it shows. Text is set in Liberation Sans (newPlot): the PNG draws it from gonum's
// embedded copy; the SVG names it, with metric-compatible fallbacks, and embeds nothing.
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
	barRowHeight  = 0.3 * vg.Inch  // a test of the run
	pubRowHeight  = 0.22 * vg.Inch // a published drive: there are dozens
	panelOverhead = 1.1 * vg.Inch  // title, axis and margins of a panel
	labelLine     = 0.2 * vg.Inch  // a second line of axis label
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
			return chart{}, fmt.Errorf("run %s has no sustained test to draw: draw its bars (`iomark export --chart bars`), or measure a sustained write with `iomark run --profile sustained`", r.ID)
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

// newPlot is a plot in the chart's font, Liberation Sans: gonum draws with its metrics, and
// an SVG names it with metric-compatible fallbacks (svg.go), so text fits wherever it renders.
func newPlot() *plot.Plot {
	p := plot.New()
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font.Typeface, st.Font.Variant = "Liberation", "Sans"
	}
	p.Title.TextStyle.Font.Size = vg.Points(12)
	return p
}

// fmtNumber prints a figure as fmtValue does, without the unit (the axis names it).
func fmtNumber(v float64, unit string) string {
	return strings.TrimSuffix(fmtValue(v, unit), " "+unit)
}

// hbars draws names against values as horizontal bars in the order given from the top, each
// labelled with its value in unit: the first in the run's colour and the others grey when
// highlightFirst, else all in the run's colour. The value axis starts at 0, leaves room for
// the labels, and is ticked at round steps (niceTicks).
func hbars(title, xLabel string, names []string, values []float64, highlightFirst bool, unit string, row vg.Length) (*plot.Plot, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.X.Min = 0
	p.X.Tick.Marker = niceTicks{want: 6}
	n := len(names)
	// Nominal Y runs bottom-up; reverse so the first name is on top.
	rev := make([]string, n)
	run, others := make(plotter.Values, n), make(plotter.Values, n)
	top := 0.0
	for _, v := range values {
		top = max(top, v)
	}
	// Room right of the longest bar for a label; a bar longer than a sixth of the axis carries
	// its label inside its end, in white, where no ceiling line or grid crosses it.
	p.X.Max = max(top*1.12, 1e-9)
	var inside, outside plotter.XYLabels
	for i := range names {
		j := n - 1 - i
		rev[j] = names[i]
		if i == 0 || !highlightFirst {
			run[j] = values[i]
		} else {
			others[j] = values[i]
		}
		set := &outside
		if values[i] > p.X.Max/6 {
			set = &inside
		}
		set.XYs = append(set.XYs, plotter.XY{X: values[i], Y: float64(j)})
		set.Labels = append(set.Labels, fmtNumber(values[i], unit))
	}
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	p.NominalY(rev...)
	// A gap between the names and the bars: a viewer without Liberation Sans or a font of its
	// widths (the SVG's fallbacks) sets the names wider, and they grow towards the bars.
	p.Y.Padding = vg.Points(10)
	for _, set := range []struct {
		vals plotter.Values
		c    color.Color
	}{{others, colorPublished}, {run, colorRun}} {
		if highlightFirst || set.c == colorRun {
			bc, err := plotter.NewBarChart(set.vals, row*0.7)
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
	for _, set := range []struct {
		labels plotter.XYLabels
		inside bool
	}{{inside, true}, {outside, false}} {
		if len(set.labels.XYs) == 0 {
			continue
		}
		l, err := plotter.NewLabels(set.labels)
		if err != nil {
			return nil, fmt.Errorf("chart %q: %w", title, err)
		}
		for i := range l.TextStyle {
			st := &l.TextStyle[i]
			st.Font.Typeface, st.Font.Variant, st.Font.Size = "Liberation", "Sans", vg.Points(9)
			st.YAlign = text.YCenter
			if set.inside {
				st.XAlign, st.Color = text.XRight, color.White
			}
		}
		l.Offset = vg.Point{X: vg.Points(3)}
		if set.inside {
			l.Offset.X = -vg.Points(3)
		}
		p.Add(l)
	}
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

// axisLabelChars is the longest axis label line the chart writes: gonum narrows a panel's bars
// to make room for a wider one.
const axisLabelChars = 56

// wrapWords breaks s at spaces into lines of at most n characters (a longer word stands alone).
func wrapWords(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// barsChart: the run's MB/s tests against the link ceiling, its IOPS tests in a panel of
// their own (a 4 KiB test's few MB/s would be a sliver beside a sequential read), then one
// panel per published figure with the comparable drives, labelled with the unit, the column
// and the source ids. Every bar carries its value.
func barsChart(r *record.Run, opts Options) (chart, error) {
	c := chart{width: chartWidth}
	if len(r.Tests) == 0 {
		return c, fmt.Errorf("run %s has no test to chart", r.ID)
	}
	var mbNames, iopsNames []string
	var mbVals, iopsVals []float64
	for _, t := range r.Tests {
		if t.Primary == "iops" {
			iopsNames, iopsVals = append(iopsNames, t.Name), append(iopsVals, t.IOPS)
		} else {
			mbNames, mbVals = append(mbNames, t.Name), append(mbVals, t.MBPerS)
		}
	}
	title := shorten(deviceLine(r), 90) + "\n" + shorten(fmt.Sprintf("on %s · iomark %s, %s", boardFamilyOr(r), r.Profile, r.CreatedAt.UTC().Format("2006-01-02")), 90)
	if len(mbNames) > 0 {
		p, err := hbars(title, "MB/s (10^6 bytes/s)", mbNames, mbVals, false, "MB/s", barRowHeight)
		if err != nil {
			return c, err
		}
		if ceil := runCeilingMBPerS(r); ceil > 0 {
			// Named in the axis label: a legend box would sit on the bars.
			if err := vline(p, ceil, -0.5, float64(len(mbNames))-0.5, colorCeiling, ""); err != nil {
				return c, err
			}
			p.X.Max = max(p.X.Max, ceil*1.05)
			p.X.Label.Text += fmt.Sprintf("; dashed line: link ceiling %s MB/s", fmtRate(ceil))
		}
		c.panels = append(c.panels, panel{p, panelOverhead + labelLine + barRowHeight*vg.Length(len(mbNames))})
		title = "the same run's random I/O, in IOPS"
	}
	if len(iopsNames) > 0 {
		p, err := hbars(title, "IOPS (I/O operations per second)", iopsNames, iopsVals, false, "IOPS", barRowHeight)
		if err != nil {
			return c, err
		}
		h := panelOverhead + barRowHeight*vg.Length(len(iopsNames))
		if len(mbNames) == 0 {
			h += labelLine // the two-line run title
		}
		c.panels = append(c.panels, panel{p, h})
	}

	ps, figures := compare.ColumnFigures(r, opts.Published)
	for _, f := range figures {
		names := []string{"this run: " + f.Test}
		vals := []float64{f.Value}
		var srcs []string
		seen := map[string]int{}
		for _, d := range f.Drives {
			// A drive a source measured several times (ricsanfre's five runs) is numbered.
			name := shorten(d.Row.MakeModel, 36)
			if seen[name]++; seen[name] > 1 {
				name += fmt.Sprintf(" #%d", seen[name])
			}
			names = append(names, name)
			vals = append(vals, d.Value)
			if !contains(srcs, d.Row.SourceID) {
				srcs = append(srcs, d.Row.SourceID)
			}
		}
		method := "same method"
		if !f.Same {
			method = "method differs"
		}
		title := fmt.Sprintf("%s vs iomark %s (%s)", f.Label, f.Test, method)
		// gonum narrows the bars to fit a wide axis label: keep its lines short.
		label := fmt.Sprintf("%s: published %s for %s; sources: %s", f.Unit, f.Column, ps.Scope(), strings.Join(srcs, ", "))
		if f.Converted > 0 {
			label += fmt.Sprintf("; %d published MiB/s figures converted to MB/s", f.Converted)
		}
		lines := wrapWords(label, axisLabelChars)
		p, err := hbars(title, strings.Join(lines, "\n"), names, vals, true, f.Unit, pubRowHeight)
		if err != nil {
			return c, err
		}
		h := panelOverhead + labelLine*vg.Length(len(lines)-1) + pubRowHeight*vg.Length(len(names))
		c.panels = append(c.panels, panel{p, h})
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
	p := newPlot()
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{want: 8}, niceTicks{want: 6}
	p.Title.Text = shorten(deviceLine(r), 90) + "\n" + fmt.Sprintf("sustained write (%s), %s written", t.Name, fmtBytes(t.Sustained.WrittenBytes))
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
	_, _, _, ymax := plotter.XYRange(pts)
	p.Y.Max = ymax * 1.3 // headroom: the legend sits above the curve, not on it
	if s := t.Sustained; s.CliffFound {
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
	tp := newPlot()
	tp.X.Tick.Marker, tp.Y.Tick.Marker = niceTicks{want: 8}, niceTicks{want: 4}
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
		_, _, lo, hi := plotter.XYRange(s.xy)
		if tp.Y.Min == 0 || lo < tp.Y.Min {
			tp.Y.Min = lo
		}
		tp.Y.Max = max(tp.Y.Max, hi)
	}
	if tp.Y.Max > tp.Y.Min {
		tp.Y.Max += (tp.Y.Max-tp.Y.Min)*0.35 + 1 // headroom for the legend
	}
	c.panels = append(c.panels, panel{tp, 2.5 * vg.Inch})
	return c, nil
}
