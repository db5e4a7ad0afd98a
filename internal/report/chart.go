package report

import (
	"fmt"
	"github.com/iomark/iomark/internal/compare"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/iomark/iomark/internal/record"
)

// A chart is a stack of plots drawn one under the other, each given a height in proportion
// to what it shows. Text is set in Liberation Sans (chartdraw.go): the PNG draws it from the
// one embedded copy; the SVG names it, with metric-compatible fallbacks, and embeds nothing.
type chart struct {
	width  vg.Length
	panels []panel
	// aligned panels share their data area's left edge (so their x axes line up) and get
	// equal heights.
	aligned bool
}

type panel struct {
	p      *plot
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
	var yw vg.Length
	if c.aligned && len(c.panels) > 0 {
		for _, p := range c.panels {
			p.p.x.sanitize()
			p.p.y.sanitize()
			yw = max(yw, p.p.y.yWidth())
		}
		h := (dc.Max.Y - dc.Min.Y - panelGap*vg.Length(len(c.panels)-1)) / vg.Length(len(c.panels))
		for i := range c.panels {
			c.panels[i].height = h
		}
	}
	top := dc.Max.Y
	for _, p := range c.panels {
		sub := dc
		sub.Max.Y = top
		sub.Min.Y = top - p.height
		p.p.draw(sub, yw)
		top -= p.height + panelGap
	}
}

var (
	colorRun       = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff} // this run
	colorPublished = color.RGBA{R: 0x9a, G: 0x9a, B: 0x9a, A: 0xff} // published drives
	colorCeiling   = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff} // link ceiling, cliff
	colorSoC       = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colorDrive     = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
	colorHeadline  = color.RGBA{R: 0x11, G: 0x11, B: 0x11, A: 0xff} // a sustained write's figure
)

const (
	chartWidth     = 8 * vg.Inch
	barRowHeight   = 0.3 * vg.Inch  // a test of the run
	panelRowHeight = 0.18 * vg.Inch // a bar of a headline panel: at most 12, five panels under 2000 px
	panelOverhead  = 1.1 * vg.Inch  // title, axis and margins of a panel
	labelLine      = 0.2 * vg.Inch  // a second line of axis label
	panelGap       = 0.3 * vg.Inch
	chartMargin    = 0.15 * vg.Inch
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

// fmtNumber prints a figure as fmtValue does, without the unit (the axis names it).
func fmtNumber(v float64, unit string) string {
	return strings.TrimSuffix(fmtValue(v, unit), " "+unit)
}

// hbars draws names against values as horizontal bars in the order given from the top, each
// labelled with its value in unit: the first in the run's colour and the others grey when
// highlightFirst, else all in the run's colour. The value axis starts at 0, leaves room for
// the labels, and is ticked at round steps (niceTicks).
// hbars draws one horizontal bar per name, top to bottom in the order given. highlight is the
// index of the run's own bar, drawn in the run's colour among the others'; -1 draws every bar
// in the run's colour (a panel of the run's tests alone).
func hbars(title, xLabel string, names []string, values []float64, highlight int, unit string, row vg.Length) (*plot, error) {
	p := newPlot()
	p.title = title
	p.x.label = xLabel
	p.x.min = 0
	p.x.ticks = niceTicks{want: 6}
	n := len(names)
	if n == 0 {
		return nil, fmt.Errorf("chart %q: no bars to draw", title)
	}
	// The y axis runs bottom-up; reverse so the first name is on top.
	rev := make([]string, n)
	run, others := make([]float64, n), make([]float64, n)
	top := 0.0
	for _, v := range values {
		top = max(top, v)
	}
	// Room right of the longest bar for a label; a bar longer than a sixth of the axis carries
	// its label inside its end, in white, where no ceiling line or grid crosses it.
	p.x.max = max(top*1.12, 1e-9)
	var inside, outside pointLabels
	for i := range names {
		j := n - 1 - i
		rev[j] = names[i]
		if i == highlight || highlight < 0 {
			run[j] = values[i]
		} else {
			others[j] = values[i]
		}
		set := &outside
		if values[i] > p.x.max/6 {
			set = &inside
		}
		set.pts = append(set.pts, [2]float64{values[i], float64(j)})
		set.texts = append(set.texts, fmtNumber(values[i], unit))
	}
	// A nominal axis: names at 0..n-1, no tick marks or axis line.
	p.y.ticks = namedTicks(rev)
	p.y.min, p.y.max = 0, float64(n-1)
	p.yInset = row * 0.7 / 2
	p.y.tickLen = 0
	p.x.padding = p.y.tickLabel.Height(rev[0]) / 2
	// A gap between the names and the bars: a viewer without Liberation Sans or a font of its
	// widths (the SVG's fallbacks) sets the names wider, and they grow towards the bars.
	p.y.padding = vg.Points(10)
	if highlight >= 0 {
		p.add(hbarSet{others, row * 0.7, colorPublished})
	}
	p.add(hbarSet{run, row * 0.7, colorRun}, grid{p})
	inside.style = textStyle(9, color.White, text.XRight, text.YCenter)
	inside.off = vg.Point{X: -vg.Points(3)}
	outside.style = textStyle(9, color.Black, text.XLeft, text.YCenter)
	outside.off = vg.Point{X: vg.Points(3)}
	p.add(inside, outside)
	return p, nil
}

// vline draws a vertical marker at x across the y range, with a legend entry.
func vline(p *plot, x, y0, y1 float64, c color.Color, legend string) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("a marker at %v cannot be drawn", x)
	}
	style := draw.LineStyle{Color: c, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	p.add(polyline{[][2]float64{{x, y0}, {x, y1}}, style})
	if legend != "" {
		p.legend = append(p.legend, legendEntry{legend, style})
	}
	return nil
}

// axisLabelChars is the longest axis label line the chart writes: a longer one would run past
// the panel's edge.
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

// barsChart draws one panel per headline figure of the run (compare.Panels: score,
// sequential read and write, 4K random read and write), each with its unit and value labels,
// its bars sorted, the run highlighted beside the best, the median and the fastest drives of
// its board family, class and link setting (at most compare.MaxPanelBars bars), the link
// ceiling dashed on the sequential panels. A run with none of those figures (a job, a cdm
// run) or with no drive to set beside it gets its tests' own panels instead (testBarsChart).
func barsChart(r *record.Run, opts Options) (chart, error) {
	panels := compare.Panels(r, opts.Published)
	compared := false
	for _, p := range panels {
		compared = compared || p.Drives > 0
	}
	if !compared { // nothing to set the run beside: its own tests, each a bar
		return testBarsChart(r, opts)
	}
	c := chart{width: chartWidth}
	title := shorten(deviceLine(r), 90) + "\n" + shorten(fmt.Sprintf("on %s · iomark %s, %s", boardFamilyOr(r), r.Profile, r.CreatedAt.UTC().Format("2006-01-02")), 90)
	for i, pn := range panels {
		names := make([]string, len(pn.Bars))
		vals := make([]float64, len(pn.Bars))
		run := -1
		for j, b := range pn.Bars {
			names[j], vals[j] = shorten(b.Label, 40), b.Value
			switch {
			case b.Run:
				run = j
			case b.Best && b.Median:
				names[j] += " (best, median)"
			case b.Best:
				names[j] += " (best)"
			case b.Median:
				names[j] += " (median)"
			}
		}
		head := fmt.Sprintf("%s, %s", pn.Metric.Words(), pn.Unit)
		if i == 0 {
			head = title + "\n" + head
		}
		drives := fmt.Sprintf("%d drives", pn.Drives)
		if pn.Drives == 1 {
			drives = "1 drive"
		}
		label := fmt.Sprintf("%s; this run among %s: %s (one bar per drive model, its median)", pn.Unit, drives, pn.Scope)
		if pn.Drives == 0 {
			label = fmt.Sprintf("%s; no published %s measured the same way", pn.Unit, pn.Scope)
		}
		ceil := runCeilingMBPerS(r)
		seq := pn.Metric == compare.MetricSeqRead || pn.Metric == compare.MetricSeqWrite
		if seq && ceil > 0 {
			label += fmt.Sprintf("; dashed line: link ceiling %s MB/s", fmtRate(ceil))
		}
		lines := wrapWords(label, axisLabelChars)
		p, err := hbars(head, strings.Join(lines, "\n"), names, vals, run, pn.Unit, panelRowHeight)
		if err != nil {
			return c, err
		}
		if seq && ceil > 0 {
			if err := vline(p, ceil, -0.5, float64(len(names))-0.5, colorCeiling, ""); err != nil {
				return c, err
			}
			p.y.min, p.y.max, p.yInset = -0.5, float64(len(names))-0.5, 0
			p.x.max = max(p.x.max, ceil*1.05)
		}
		h := panelOverhead + labelLine*vg.Length(len(lines)-1) + panelRowHeight*vg.Length(len(names))
		if i == 0 {
			h += 2 * labelLine // the run's two title lines
		}
		c.panels = append(c.panels, panel{p, h})
	}
	return c, nil
}

// testBarsChart: the run's MB/s tests against the link ceiling, its IOPS tests in a panel of
// their own (a 4 KiB test's few MB/s would be a sliver beside a sequential read). Every bar
// carries its value.
func testBarsChart(r *record.Run, opts Options) (chart, error) {
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
		p, err := hbars(title, "MB/s (10^6 bytes/s)", mbNames, mbVals, -1, "MB/s", barRowHeight)
		if err != nil {
			return c, err
		}
		if ceil := runCeilingMBPerS(r); ceil > 0 {
			// Named in the axis label: a legend box would sit on the bars.
			if err := vline(p, ceil, -0.5, float64(len(mbNames))-0.5, colorCeiling, ""); err != nil {
				return c, err
			}
			// The line spans half a row beyond the outer bars: the axis takes its range.
			p.y.min, p.y.max, p.yInset = -0.5, float64(len(mbNames))-0.5, 0
			p.x.max = max(p.x.max, ceil*1.05)
			p.x.label += fmt.Sprintf("; dashed line: link ceiling %s MB/s", fmtRate(ceil))
		}
		c.panels = append(c.panels, panel{p, panelOverhead + labelLine + barRowHeight*vg.Length(len(mbNames))})
		title = "the same run's random I/O, in IOPS"
	}
	if len(iopsNames) > 0 {
		p, err := hbars(title, "IOPS (I/O operations per second)", iopsNames, iopsVals, -1, "IOPS", barRowHeight)
		if err != nil {
			return c, err
		}
		h := panelOverhead + barRowHeight*vg.Length(len(iopsNames))
		if len(mbNames) == 0 {
			h += labelLine // the two-line run title
		}
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
	p, maxX, err := sustainedRatePlot(r, t)
	if err != nil {
		return c, err
	}
	c.panels = append(c.panels, panel{p, 3.5 * vg.Inch}, panel{sustainedTempPlot(r, t, maxX), 2.5 * vg.Inch})
	return c, nil
}

// sustainedRatePlot is the upper panel of sustainedChart, with the last second of the series
// the lower panel shares as its x axis.
func sustainedRatePlot(r *record.Run, t *record.Test) (p *plot, maxX float64, err error) {
	pts := make([][2]float64, len(t.Series))
	ymax := math.Inf(-1)
	for i, s := range t.Series {
		pts[i] = [2]float64{s.TS, s.MBPerS}
		maxX = max(maxX, s.TS)
		ymax = max(ymax, s.MBPerS)
	}
	p = newPlot()
	p.x.ticks, p.y.ticks = niceTicks{want: 8}, niceTicks{want: 6}
	p.title = shorten(deviceLine(r), 90) + "\n" + fmt.Sprintf("sustained write (%s), %s written", t.Name, fmtBytes(t.Sustained.WrittenBytes))
	p.x.label = "seconds since the write began"
	p.y.label = "MB/s (10^6 bytes/s)"
	p.y.min, p.x.min = 0, 0
	p.x.max = maxX
	rate := draw.LineStyle{Color: colorRun, Width: vg.Points(1.5)}
	p.add(polyline{pts, rate}, grid{p})
	p.legend = append(p.legend, legendEntry{"write rate, MB/s", rate})
	p.y.max = ymax * 1.3 // headroom: the legend sits above the curve, not on it
	if s := t.Sustained; s.CliffFound {
		label := fmt.Sprintf("cliff at %s (%s MB/s to %s MB/s)", fmtSeconds(s.CliffAtS), fmtRate(s.BeforeMBPerS), fmtRate(s.AfterMBPerS))
		if err := vline(p, s.CliffAtS, 0, ymax, colorCeiling, label); err != nil {
			return nil, 0, fmt.Errorf("sustained chart: %w", err)
		}
		p.x.max = max(p.x.max, s.CliffAtS)
	}
	if keep := longCopyRate(t); keep > 0 {
		// The rate a long copy keeps, drawn where it holds. It is the test's figure in every
		// record made since the figure became it; an older record's figure is the whole
		// write's average, so the line is drawn from the sustained block, not from it.
		from := 0.0
		if t.Sustained.CliffFound {
			from = t.Sustained.CliffAtS
		}
		style := draw.LineStyle{Color: colorHeadline, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		p.add(polyline{[][2]float64{{from, keep}, {maxX, keep}}, style})
		label := fmt.Sprintf("%s MB/s: the rate a long copy keeps (the test's figure)", fmtRate(keep))
		if math.Abs(keep-t.MBPerS) > 0.01*keep {
			label = fmt.Sprintf("%s MB/s: the rate a long copy keeps", fmtRate(keep))
		}
		p.legend = append(p.legend, legendEntry{label, style})
	}
	return p, maxX, nil
}

// sustainedTempPlot is the lower panel of sustainedChart: the SoC and drive temperatures of
// test t's sensor samples, over seconds 0 to maxX.
func sustainedTempPlot(r *record.Run, t *record.Test, maxX float64) *plot {
	var soc, drive [][2]float64
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
			soc = append(soc, [2]float64{x, *s.SoCTempC})
		}
		if s.DriveTempC != nil {
			drive = append(drive, [2]float64{x, *s.DriveTempC})
		}
	}
	tp := newPlot()
	tp.x.ticks, tp.y.ticks = niceTicks{want: 8}, niceTicks{want: 4}
	tp.x.label = "seconds since the test's first sensor sample"
	tp.y.label = "temperature, °C"
	tp.x.min, tp.x.max = 0, maxX
	tp.add(grid{tp})
	if len(soc) == 0 && len(drive) == 0 {
		tp.title = "no temperature was sampled during this test"
	} else {
		tp.title = "temperature during the write"
	}
	for _, s := range []struct {
		xy    [][2]float64
		c     color.Color
		label string
	}{{soc, colorSoC, "SoC, °C"}, {drive, colorDrive, "drive, °C" + driveTempFrom(r)}} {
		if len(s.xy) == 0 {
			continue
		}
		style := draw.LineStyle{Color: s.c, Width: vg.Points(1.5)}
		tp.add(polyline{s.xy, style})
		tp.legend = append(tp.legend, legendEntry{s.label, style})
		lo, hi := s.xy[0][1], s.xy[0][1]
		for _, v := range s.xy {
			lo, hi = min(lo, v[1]), max(hi, v[1])
		}
		if tp.y.min == 0 || lo < tp.y.min {
			tp.y.min = lo
		}
		tp.y.max = max(tp.y.max, hi)
	}
	if tp.y.max > tp.y.min {
		tp.y.max += (tp.y.max-tp.y.min)*0.35 + 1 // headroom for the legend
	}
	return tp
}

// longCopyRate is the rate a long copy keeps as the sustained block records it: the settled
// rate, else the rate after the cliff; 0 when the write found neither.
func longCopyRate(t *record.Test) float64 {
	switch s := t.Sustained; {
	case s == nil:
		return 0
	case s.SteadyState && s.SteadyMBPerS > 0:
		return s.SteadyMBPerS
	case s.CliffFound && s.AfterMBPerS > 0:
		return s.AfterMBPerS
	}
	return 0
}
