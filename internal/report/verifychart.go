package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/iomark/iomark/internal/flash"
)

// Shades of the stretches, opaque and light so the rate's line stays readable across them.
var (
	colorBad    = color.RGBA{R: 0xf2, G: 0x8b, B: 0x8c, A: 0xff} // unreadable or read back wrong
	colorSlow   = color.RGBA{R: 0xfd, G: 0xcc, B: 0x8a, A: 0xff} // a slow zone
	colorUnread = color.RGBA{R: 0xd0, G: 0xd0, B: 0xd0, A: 0xff} // never read
)

// VerifyChart draws a verify's speed by position — a full scan's read (and write) rate
// against the offset on the disk, or a fill's write and read rate against its position in
// the fill — with bad regions, slow zones and unread stretches shaded, as PNG or SVG
// (format "png" or "svg").
func VerifyChart(w io.Writer, res *flash.Result, target, format string) error {
	c, err := verifyChart(res, target)
	if err != nil {
		return err
	}
	return renderChart(w, c, format)
}

// renderChart writes a chart as the png and svg exports do.
func renderChart(w io.Writer, c chart, format string) error {
	switch format {
	case "png":
		img := vgimg.NewWith(vgimg.UseWH(c.width, c.height()), vgimg.UseDPI(110))
		c.draw(draw.New(img))
		_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
		return err
	case "svg":
		canvas := vgsvg.NewWith(vgsvg.UseWH(c.width, c.height()), vgsvg.EmbedFonts(false))
		c.draw(draw.New(canvas))
		var buf bytes.Buffer
		if _, err := canvas.WriteTo(&buf); err != nil {
			return err
		}
		_, err := io.WriteString(w, svgStyleClasses(svgFitText(buf.String())))
		return err
	}
	return fmt.Errorf("chart format %q: png or svg", format)
}

func verifyChart(res *flash.Result, target string) (chart, error) {
	v, err := verifyDrawingOf(res)
	if err != nil {
		return chart{}, err
	}
	if len(v.series) == 0 && len(v.bad) == 0 {
		return chart{}, errors.New("this verify read nothing to draw")
	}
	const gb = 1e9
	p := newPlot()
	p.x.ticks, p.y.ticks = niceTicks{want: 8}, niceTicks{want: 6}
	p.title = shorten(fmt.Sprintf("%s: %s", target, strings.ToUpper(string(res.Verdict))), 90) + "\n" + shorten(v.what, 90)
	p.x.label = v.xLabel
	p.y.label = "MB/s (10^6 bytes/s)"
	p.x.min, p.x.max, p.y.min = 0, float64(v.size)/gb, 0
	var read, write [][2]float64
	ymax := 0.0
	for _, s := range v.series {
		// Each point is drawn at the middle of its stretch.
		x := (float64(s.OffsetBytes) + float64(s.Bytes)/2) / gb
		if s.ReadMBPerS > 0 {
			read = append(read, [2]float64{x, s.ReadMBPerS})
			ymax = max(ymax, s.ReadMBPerS)
		}
		if s.WriteMBPerS > 0 {
			write = append(write, [2]float64{x, s.WriteMBPerS})
			ymax = max(ymax, s.WriteMBPerS)
		}
	}
	if ymax <= 0 {
		ymax = 1
	}
	p.y.max = ymax * 1.7 // headroom: the legend sits above the curves
	toGB := func(spans [][2]float64) [][2]float64 {
		out := make([][2]float64, len(spans))
		for i, s := range spans {
			out[i] = [2]float64{s[0] / gb, s[1] / gb}
		}
		return out
	}
	thick := func(c color.Color) draw.LineStyle { return draw.LineStyle{Color: c, Width: vg.Points(6)} }
	for _, s := range []struct {
		spans [][2]float64
		c     color.Color
		label string
	}{{v.unread, colorUnread, "not read"}, {v.slow, colorSlow, "slow zone (under half the median)"}, {v.bad, colorBad, "bad: unreadable or read back wrong"}} {
		if len(s.spans) == 0 {
			continue
		}
		p.add(spanSet{toGB(s.spans), s.c})
		p.legend = append(p.legend, legendEntry{fmt.Sprintf("%s (%d)", s.label, len(s.spans)), thick(s.c)})
	}
	p.add(grid{p})
	if len(write) > 0 {
		st := draw.LineStyle{Color: colorDrive, Width: vg.Points(1.2)}
		p.add(polyline{write, st})
		p.legend = append(p.legend, legendEntry{"write rate, MB/s", st})
	}
	if len(read) > 0 {
		st := draw.LineStyle{Color: colorRun, Width: vg.Points(1.2)}
		p.add(polyline{read, st})
		p.legend = append(p.legend, legendEntry{"read rate, MB/s", st})
	}
	if v.median > 0 {
		st := draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
		p.add(polyline{[][2]float64{{0, v.median}, {p.x.max, v.median}}, st})
		p.legend = append(p.legend, legendEntry{fmt.Sprintf("median read %s MB/s", fmtRate(v.median)), st})
	}
	if len(read) < 2 && len(write) < 2 {
		p.title += "\n(too few good stretches to draw a rate)"
	}
	return chart{width: chartWidth, panels: []panel{{p, 4.2 * vg.Inch}}}, nil
}

// verifyDrawing is what a verify chart draws: the rates by position, the stretches to shade
// (bad, slow, not read), the axis and the title's account of what was measured.
type verifyDrawing struct {
	series            []flash.SeriesPoint
	bad, slow, unread [][2]float64
	size              int64
	xLabel, what      string
	median            float64
}

// verifyDrawingOf takes the drawing from a full verify's surface scan, or else a fill's.
func verifyDrawingOf(res *flash.Result) (verifyDrawing, error) {
	if res == nil {
		return verifyDrawing{}, errors.New("no verify result to draw")
	}
	var v verifyDrawing
	switch {
	case res.Surface != nil:
		sf := res.Surface
		v.series, v.size = sf.Series, sf.ScannedBytes
		v.xLabel = "position on the disk, GB (10^9 bytes)"
		v.what = fmt.Sprintf("surface scan (%s) of %s", sf.Mode, fmtBytes(sf.ScannedBytes))
		v.median = sf.MedianMBPerS
		for _, r := range res.BadRegions {
			v.bad = append(v.bad, [2]float64{float64(r.StartByte), float64(r.EndByte)})
		}
		for _, z := range res.SlowZones {
			v.slow = append(v.slow, [2]float64{float64(z.StartByte), float64(z.EndByte)})
		}
		for _, u := range sf.Unread {
			v.unread = append(v.unread, [2]float64{float64(u.StartByte), float64(u.EndByte)})
		}
	case res.Fill != nil:
		v.series, v.size = res.Fill.Series, res.ClaimedBytes
		v.xLabel = "position in the fill, GB (10^9 bytes)"
		v.what = fmt.Sprintf("fill of %s", fmtBytes(res.ClaimedBytes))
		for _, r := range res.Fill.BadRanges {
			v.bad = append(v.bad, [2]float64{float64(r.StartByte), float64(r.EndByte)})
		}
	default:
		return v, errors.New("this verify has no speed by position to draw: only iomark verify --full and a directory's fill measure one")
	}
	return v, nil
}

// spanSet shades stretches of the x axis, [from, to) in data units, over the whole height;
// a stretch too narrow to see at the chart's scale is drawn 2 pt wide, so a 4 KiB bad block on
// a 32 GB card still shows.
type spanSet struct {
	spans [][2]float64
	color color.Color
}

func (s spanSet) draw(c draw.Canvas, x, _ func(float64) vg.Length) {
	for _, sp := range s.spans {
		x0, x1 := x(sp[0]), x(sp[1])
		if math.IsNaN(float64(x0)) || math.IsNaN(float64(x1)) {
			continue
		}
		if x1-x0 < vg.Points(2) {
			mid := (x0 + x1) / 2
			x0, x1 = mid-vg.Points(1), mid+vg.Points(1)
		}
		x0, x1 = clampX(c, x0), clampX(c, x1)
		c.FillPolygon(s.color, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0, Y: c.Max.Y}, {X: x1, Y: c.Max.Y}, {X: x1, Y: c.Min.Y}})
	}
}
