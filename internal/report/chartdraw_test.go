package report

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// Figures no drive gives (NaN, ±Inf, 0, negative) and a sustained series of one point still
// draw: no panic, a PNG that decodes and an SVG that parses.
func TestChartsOfOddFigures(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, -5, 1e-300, 1e300} {
		r := sampleRun()
		for i := range r.Tests {
			r.Tests[i].MBPerS, r.Tests[i].IOPS = v, v
		}
		if _, err := png.Decode(bytes.NewReader(export(t, "png", []*record.Run{r}, Options{Chart: ChartBars}))); err != nil {
			t.Errorf("bars at %v: png does not decode: %v", v, err)
		}
		svgText(t, export(t, "svg", []*record.Run{r}, Options{Chart: ChartBars}))

		s := sampleSustainedRun()
		for i := range s.Tests {
			if len(s.Tests[i].Series) > 0 {
				s.Tests[i].Series = s.Tests[i].Series[:1]
				s.Tests[i].Series[0].MBPerS = v
			}
		}
		svgText(t, export(t, "svg", []*record.Run{s}, Options{}))
	}
}

// The bars of one panel sit in the order given, first on top, inside the data area, and the
// y axis of a nominal panel has no tick marks.
func TestHBarsLayout(t *testing.T) {
	p, err := hbars("t", "x", []string{"first", "second", "third"}, []float64{3, 2, 1}, -1, "MB/s", barRowHeight)
	if err != nil {
		t.Fatal(err)
	}
	if p.y.tickLen != 0 {
		t.Errorf("nominal axis has %v long ticks", p.y.tickLen)
	}
	ticks := p.y.ticks.Ticks(p.y.min, p.y.max)
	var names []string
	for _, tk := range ticks {
		names = append([]string{tk.Label}, names...) // top first
	}
	if got := strings.Join(names, ","); got != "first,second,third" {
		t.Errorf("names top to bottom: %s", got)
	}
	if p.x.min != 0 || p.x.max < 3 {
		t.Errorf("value axis [%v, %v] does not hold the bars from 0", p.x.min, p.x.max)
	}
	if _, err := hbars("t", "x", nil, nil, -1, "MB/s", barRowHeight); err == nil {
		t.Error("a panel of no bars was drawn")
	}
}

// The one embedded face measures text: wider strings are wider, and the SVG fitting uses it.
func TestChartFontMeasures(t *testing.T) {
	sty := textStyle(10, nil, 0, 0)
	if w1, w2 := sty.Width("i"), sty.Width("iiii"); !(w2 > 3*w1) || w1 <= 0 {
		t.Errorf("widths %v, %v", w1, w2)
	}
}

// TestChartFontIsLiberationSans: the embedded font is the TTF font/README.md names, byte for
// byte, and parses.
func TestChartFontIsLiberationSans(t *testing.T) {
	ttf, err := chartFontTTF()
	if err != nil {
		t.Fatal(err)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256(ttf)); sum != "597589a852868f782c68e25112bab7785b34bc726f6160dca1519198c6e8c762" {
		t.Errorf("embedded TTF has SHA-256 %s, not Liberation Sans Regular 2.1.5's", sum)
	}
	if chartFonts() == nil {
		t.Error("no font cache")
	}
}
