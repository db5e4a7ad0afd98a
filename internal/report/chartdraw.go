package report

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"image/color"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The charts are drawn straight on gonum's vg canvases (vgimg for PNG, vgsvg for SVG) by the
// small plot below, not by gonum.org/v1/plot: its root package registers all twelve
// Liberation fonts (4.2 MB) and the PDF, EPS and TeX back ends in every binary. The layout
// follows gonum's (title on top, the y axis's label, tick labels and ticks left of the data,
// the x axis's under it, ticks 8 pt long and minor ones 4 pt, a 0.25 pt grey grid, the legend
// in the data area's top right corner), so the charts read as they did.

// chartFont is the one typeface of every chart, Liberation Sans Regular, embedded once and
// gzipped (212 KB for the 411 KB TTF; font/README.md says where it comes from). An SVG names
// it with metric-compatible fallbacks and embeds nothing (svg.go).
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

//go:embed font/LiberationSans-Regular.ttf.gz
var chartFontGz []byte

var (
	chartFontsOnce sync.Once
	chartFontCache *font.Cache
)

// chartFontTTF is the embedded TTF, uncompressed.
func chartFontTTF() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(chartFontGz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// chartFonts is the font cache holding chartFont. The TTF is unpacked and parsed on first
// use, so a command that draws no chart never pays for it.
func chartFonts() *font.Cache {
	chartFontsOnce.Do(func() {
		ttf, err := chartFontTTF()
		if err != nil {
			// The font is compiled in: a failure is a broken build, not an input.
			panic("report: the embedded Liberation Sans does not unpack: " + err.Error())
		}
		face, err := opentype.Parse(ttf)
		if err != nil {
			panic("report: the embedded Liberation Sans does not parse: " + err.Error())
		}
		chartFontCache = font.NewCache(font.Collection{{Font: chartFont, Face: face}})
	})
	return chartFontCache
}

// textStyle is chartFont at size points in c.
func textStyle(size float64, c color.Color, xa text.XAlignment, ya text.YAlignment) text.Style {
	f := chartFont
	f.Size = vg.Points(size)
	return text.Style{Color: c, Font: f, XAlign: xa, YAlign: ya, Handler: text.Plain{Fonts: chartFonts()}}
}

// tick is a mark on an axis; an empty label makes it a minor tick.
type tick struct {
	Value float64
	Label string
}

type ticker interface{ Ticks(lo, hi float64) []tick }

// namedTicks label category i at value i (a bar chart's names).
type namedTicks []string

func (n namedTicks) Ticks(float64, float64) []tick {
	t := make([]tick, len(n))
	for i, name := range n {
		t[i] = tick{Value: float64(i), Label: name}
	}
	return t
}

// axis is one axis of a plot: its range, label, ticks and the gap between its line and the
// data.
type axis struct {
	min, max  float64
	label     string
	ticks     ticker
	tickSize  float64   // tick label size, points
	tickLen   vg.Length // 0 draws no tick marks and no axis line (a nominal axis)
	padding   vg.Length
	tickLabel text.Style
	labelSty  text.Style
}

func newAxis(vertical bool) axis {
	a := axis{tickSize: 10, tickLen: vg.Points(8), padding: vg.Points(5), ticks: niceTicks{want: 6}}
	a.labelSty = textStyle(12, color.Black, text.XCenter, text.YBottom)
	if vertical {
		a.tickLabel = textStyle(10, color.Black, text.XRight, text.YCenter)
	} else {
		a.tickLabel = textStyle(10, color.Black, text.XCenter, text.YTop)
	}
	return a
}

func (a *axis) sanitize() {
	if math.IsNaN(a.min) || math.IsInf(a.min, 0) {
		a.min = 0
	}
	if math.IsNaN(a.max) || math.IsInf(a.max, 0) {
		a.max = 0
	}
	if a.min > a.max {
		a.min, a.max = a.max, a.min
	}
	if a.min == a.max {
		a.min--
		a.max++
	}
}

func (a axis) norm(v float64) float64 { return (v - a.min) / (a.max - a.min) }

var (
	axisLine  = draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	gridLine  = draw.LineStyle{Color: color.Gray{Y: 128}, Width: vg.Points(0.25)}
	legendSty = func() text.Style { return textStyle(12, color.Black, text.XRight, text.YCenter) }
)

// tickLabelExtent is the widest (vertical axis) or tallest (horizontal) tick label.
func (a axis) tickLabelExtent(marks []tick, vertical bool) vg.Length {
	var e vg.Length
	for _, t := range marks {
		if t.Label == "" {
			continue
		}
		if vertical {
			e = max(e, a.tickLabel.Width(t.Label))
		} else {
			e = max(e, a.tickLabel.Height(t.Label))
		}
	}
	return e
}

// xHeight is the room the horizontal axis takes under the data.
func (a axis) xHeight() vg.Length {
	var h vg.Length
	if a.label != "" {
		h += a.labelSty.Height(a.label)
	}
	if marks := a.ticks.Ticks(a.min, a.max); len(marks) > 0 {
		h += a.tickLen + a.tickLabelExtent(marks, false)
	}
	return h + a.padding
}

// yWidth is the room the vertical axis takes left of the data.
func (a axis) yWidth() vg.Length {
	var w vg.Length
	if a.label != "" {
		w += a.labelSty.FontExtents().Descent + a.labelSty.Height(a.label)
	}
	if marks := a.ticks.Ticks(a.min, a.max); len(marks) > 0 {
		if lw := a.tickLabelExtent(marks, true); lw > 0 {
			w += lw + a.labelSty.Width(" ")
		}
		w += a.tickLen
	}
	return w + a.padding
}

// plotItem is something drawn in the data area; x and y map data to canvas coordinates.
type plotItem interface {
	draw(c draw.Canvas, x, y func(float64) vg.Length)
}

type legendEntry struct {
	label string
	line  draw.LineStyle
}

// plot is one panel: a title, two axes, what is drawn between them, and a legend.
type plot struct {
	title  string
	x, y   axis
	items  []plotItem
	legend []legendEntry
	// yInset keeps the y range's ends this far inside the data area, so that a bar centred
	// on the first or last category fits in it whole.
	yInset vg.Length
}

func newPlot() *plot {
	return &plot{x: newAxis(false), y: newAxis(true)}
}

func (p *plot) add(items ...plotItem) { p.items = append(p.items, items...) }

var titleStyle = func() text.Style { return textStyle(12, color.Black, text.XCenter, text.YTop) }

// draw draws the plot in c; yw, when larger than the plot's own vertical axis, widens it so
// that panels drawn one under another share their data area's left edge.
func (p *plot) draw(c draw.Canvas, yw vg.Length) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if p.title != "" {
		ts := titleStyle()
		c.FillText(ts, vg.Point{X: c.Center().X, Y: c.Max.Y + ts.FontExtents().Descent}, p.title)
		c.Max.Y -= ts.Height(p.title)
	}
	p.x.sanitize()
	p.y.sanitize()
	yw = max(yw, p.y.yWidth())
	xh := p.x.xHeight()
	// Room right of the data for half the last tick label, which is centred on its tick.
	var right vg.Length
	if marks := p.x.ticks.Ticks(p.x.min, p.x.max); len(marks) > 0 {
		if last := marks[len(marks)-1]; last.Label != "" && last.Value >= p.x.max-(p.x.max-p.x.min)*1e-9 {
			right = p.x.tickLabel.Width(last.Label) / 2
		}
	}
	data := draw.Crop(c, yw, -right, xh, 0)
	p.drawX(c, data)
	p.drawY(c, data)
	px := func(v float64) vg.Length { return data.Min.X + vg.Length(p.x.norm(v))*(data.Max.X-data.Min.X) }
	py := func(v float64) vg.Length {
		return data.Min.Y + p.yInset + vg.Length(p.y.norm(v))*(data.Max.Y-data.Min.Y-2*p.yInset)
	}
	for _, it := range p.items {
		it.draw(data, px, py)
	}
	p.drawLegend(data)
}

func (p *plot) drawX(c, data draw.Canvas) {
	a := p.x
	y := c.Min.Y
	if a.label != "" {
		c.FillText(a.labelSty, vg.Point{X: data.Center().X, Y: y + a.labelSty.FontExtents().Descent}, a.label)
		y += a.labelSty.Height(a.label)
	}
	marks := a.ticks.Ticks(a.min, a.max)
	lh := a.tickLabelExtent(marks, false)
	x := func(v float64) vg.Length { return data.Min.X + vg.Length(a.norm(v))*(data.Max.X-data.Min.X) }
	for _, t := range marks {
		if t.Label != "" && t.Value >= a.min && t.Value <= a.max {
			c.FillText(a.tickLabel, vg.Point{X: x(t.Value), Y: y + lh + a.tickLabel.FontExtents().Descent}, t.Label)
		}
	}
	y += lh
	if a.tickLen > 0 {
		for _, t := range marks {
			if t.Value < a.min || t.Value > a.max {
				continue
			}
			start := vg.Length(0)
			if t.Label == "" {
				start = a.tickLen / 2
			}
			c.StrokeLine2(axisLine, x(t.Value), y+start, x(t.Value), y+a.tickLen)
		}
		y += a.tickLen
		c.StrokeLine2(axisLine, data.Min.X, y, data.Max.X, y)
	}
}

func (p *plot) drawY(c, data draw.Canvas) {
	a := p.y
	x := c.Min.X
	yOf := func(v float64) vg.Length {
		return data.Min.Y + p.yInset + vg.Length(a.norm(v))*(data.Max.Y-data.Min.Y-2*p.yInset)
	}
	if a.label != "" {
		sty := a.labelSty
		sty.Rotation += math.Pi / 2
		x += a.labelSty.Height(a.label)
		d := a.labelSty.FontExtents().Descent
		c.FillText(sty, vg.Point{X: x - d, Y: data.Center().Y}, a.label)
		x += d
	}
	// The tick labels end where the ticks begin, right against the data's padded edge.
	right := data.Min.X - a.padding - a.tickLen
	for _, t := range a.ticks.Ticks(a.min, a.max) {
		if t.Label != "" && t.Value >= a.min && t.Value <= a.max {
			c.FillText(a.tickLabel, vg.Point{X: right - a.labelSty.Width(" "), Y: yOf(t.Value) + a.tickLabel.FontExtents().Descent}, t.Label)
		}
	}
	if a.tickLen > 0 {
		for _, t := range a.ticks.Ticks(a.min, a.max) {
			if t.Value < a.min || t.Value > a.max {
				continue
			}
			start := vg.Length(0)
			if t.Label == "" {
				start = a.tickLen / 2
			}
			c.StrokeLine2(axisLine, right+start, yOf(t.Value), right+a.tickLen, yOf(t.Value))
		}
		c.StrokeLine2(axisLine, right+a.tickLen, data.Min.Y, right+a.tickLen, data.Max.Y)
	}
}

// drawLegend lists the entries in the data area's top right corner: each label, right
// aligned, then a sample of its line 20 pt long.
func (p *plot) drawLegend(data draw.Canvas) {
	if len(p.legend) == 0 {
		return
	}
	sty := legendSty()
	const thumb = 20 * vg.Inch / 72
	lineH := sty.Height("M")
	y := data.Max.Y - lineH/2
	for _, e := range p.legend {
		x := data.Max.X - thumb
		data.FillText(sty, vg.Point{X: x - sty.Width(" "), Y: y}, e.label)
		data.StrokeLine2(e.line, x, y, data.Max.X, y)
		y -= lineH
	}
}

// grid is grey lines at the major ticks of both axes.
type grid struct{ p *plot }

func (g grid) draw(c draw.Canvas, x, y func(float64) vg.Length) {
	for _, t := range g.p.x.ticks.Ticks(g.p.x.min, g.p.x.max) {
		if t.Label != "" && t.Value >= g.p.x.min && t.Value <= g.p.x.max {
			c.StrokeLine2(gridLine, x(t.Value), c.Min.Y, x(t.Value), c.Max.Y)
		}
	}
	for _, t := range g.p.y.ticks.Ticks(g.p.y.min, g.p.y.max) {
		if t.Label != "" && t.Value >= g.p.y.min && t.Value <= g.p.y.max {
			c.StrokeLine2(gridLine, c.Min.X, y(t.Value), c.Max.X, y(t.Value))
		}
	}
}

// hbarSet is horizontal bars from 0 to values[i] at category i, thick canvas units; a
// value of 0 draws nothing (the other set's bar is at that row).
type hbarSet struct {
	values []float64
	thick  vg.Length
	color  color.Color
}

func (b hbarSet) draw(c draw.Canvas, x, y func(float64) vg.Length) {
	for i, v := range b.values {
		if v == 0 || math.IsNaN(v) {
			continue
		}
		mid := y(float64(i))
		lo, hi := mid-b.thick/2, mid+b.thick/2
		x0, x1 := clampX(c, x(0)), clampX(c, x(v))
		c.FillPolygon(b.color, []vg.Point{{X: x0, Y: lo}, {X: x0, Y: hi}, {X: x1, Y: hi}, {X: x1, Y: lo}})
	}
}

// clampX keeps a bar's end inside the data area: a figure far off the axis (or infinite)
// would otherwise send the rasteriser across millions of points.
func clampX(c draw.Canvas, x vg.Length) vg.Length {
	if math.IsNaN(float64(x)) {
		return c.Min.X
	}
	return min(max(x, c.Min.X), c.Max.X)
}

// inside reports whether p is a finite point within the data area, with a margin of a few
// points (a label offset from its point).
func inside(c draw.Canvas, p vg.Point) bool {
	const slack = 20
	return !math.IsNaN(float64(p.X)) && !math.IsNaN(float64(p.Y)) &&
		p.X >= c.Min.X-slack && p.X <= c.Max.X+slack && p.Y >= c.Min.Y-slack && p.Y <= c.Max.Y+slack
}

// polyline joins points (x, y) in data units.
type polyline struct {
	pts   [][2]float64
	style draw.LineStyle
}

func (l polyline) draw(c draw.Canvas, x, y func(float64) vg.Length) {
	if len(l.pts) < 2 {
		return
	}
	// A run of finite points is one line; a NaN or infinite figure breaks it. Each run is
	// clipped to the data area.
	var runs [][]vg.Point
	var cur []vg.Point
	for _, p := range l.pts {
		pt := vg.Point{X: x(p[0]), Y: y(p[1])}
		if math.IsNaN(float64(pt.X)) || math.IsNaN(float64(pt.Y)) || math.IsInf(float64(pt.X), 0) || math.IsInf(float64(pt.Y), 0) {
			if len(cur) > 1 {
				runs = append(runs, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, pt)
	}
	if len(cur) > 1 {
		runs = append(runs, cur)
	}
	for _, r := range runs {
		c.StrokeLines(l.style, c.ClipLinesXY(r)...)
	}
}

// pointLabels writes texts at points, offset by off canvas units.
type pointLabels struct {
	pts   [][2]float64
	texts []string
	style text.Style
	off   vg.Point
}

func (l pointLabels) draw(c draw.Canvas, x, y func(float64) vg.Length) {
	for i, p := range l.pts {
		if pt := (vg.Point{X: x(p[0]) + l.off.X, Y: y(p[1]) + l.off.Y}); inside(c, pt) {
			c.FillText(l.style, pt, l.texts[i])
		}
	}
}
