package report

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestPNGDecodes(t *testing.T) {
	pub := published(t)
	for _, tt := range []struct {
		name string
		run  *record.Run
		opts Options
	}{
		{"bars with published", sampleRun(), Options{Published: pub}},
		{"bars alone", sampleRun(), Options{}},
		{"sustained", sampleSustainedRun(), Options{Chart: ChartSustained}},
	} {
		out := export(t, "png", []*record.Run{tt.run}, tt.opts)
		img, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Errorf("%s: png does not decode: %v", tt.name, err)
			continue
		}
		b := img.Bounds()
		if b.Dx() < 400 || b.Dx() > 2000 || b.Dy() < 200 || b.Dy() > 9000 {
			t.Errorf("%s: size %dx%d is not sane", tt.name, b.Dx(), b.Dy())
		}
	}
}

// svgText parses an SVG and returns its text elements, failing on malformed XML.
func svgText(t *testing.T, data []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var text strings.Builder
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = el.Name.Local
			}
		case xml.CharData:
			text.Write(el)
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return text.String()
}

// The bars chart of a Pi 4 microSD run against the embedded data: one panel per headline
// figure, each naming its unit and population, the run among the best, the median and the
// fastest Pi 4 microSD cards, the link ceiling on the sequential panels.
func TestSVGBarsNameSourcesAndDrives(t *testing.T) {
	out := export(t, "svg", []*record.Run{sampleRun()}, Options{Published: published(t), Chart: ChartBars})
	if len(out) < 1000 {
		t.Fatalf("svg of %d bytes", len(out))
	}
	text := svgText(t, out)
	for _, want := range []string{"4K random write, MB/s", "4K random read, MB/s", "sequential read, MB/s", "this run",
		"SanDisk Extreme Pro A1 32GB (best)", "(median)", "this run among 24 drives: Pi 4 microSD results at", "SD DDR50",
		"link ceiling 45.0"} {
		if !strings.Contains(text, want) {
			t.Errorf("bars chart lacks %q", want)
		}
	}
}

// The exported PNG of a Pi 4 microSD run against the embedded data: at most 2000 px tall,
// readable at 1200 px wide, each panel at most 12 bars, no panel twice.
func TestPNGPanels(t *testing.T) {
	run := sampleRun()
	img, err := png.Decode(bytes.NewReader(export(t, "png", []*record.Run{run}, Options{Published: published(t)})))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dy() > 2000 || b.Dx() < 800 || b.Dx() > 1200 {
		t.Errorf("PNG %dx%d: want at most 2000 px tall, 800-1200 px wide", b.Dx(), b.Dy())
	}
	c, err := buildChart(run, Options{Published: published(t), Chart: ChartBars})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range c.panels {
		title := p.p.title
		if i := strings.LastIndex(title, "\n"); i >= 0 {
			title = title[i+1:]
		}
		if seen[title] {
			t.Errorf("panel %q twice", title)
		}
		seen[title] = true
		if n := len(p.p.y.ticks.(namedTicks)); n > 12 {
			t.Errorf("panel %q has %d bars", title, n)
		}
	}
	if len(seen) != 4 {
		t.Errorf("panels %v: want the run's four headline figures", seen)
	}
}

func TestSVGSustained(t *testing.T) {
	// Auto picks the sustained chart for a run that has one.
	text := svgText(t, export(t, "svg", []*record.Run{sampleSustainedRun()}, Options{}))
	for _, want := range []string{"cliff at 40.5 s", "SoC, °C", "MB/s"} {
		if !strings.Contains(text, want) {
			t.Errorf("sustained chart lacks %q", want)
		}
	}
	e, _ := ByName("svg")
	if err := e.Export(io.Discard, []*record.Run{sampleRun()}, Options{Chart: ChartSustained}); err == nil || !strings.Contains(err.Error(), "no sustained test") {
		t.Errorf("sustained chart of a quick run: err %v", err)
	}
	if err := e.Export(io.Discard, []*record.Run{sampleRun(), sampleRun()}, Options{}); err == nil {
		t.Error("a chart of two runs was drawn without saying which")
	}
}

// TestChartsIssue11: the bars chart gives IOPS tests their own panel, labels every bar with
// its value, ticks its axes at more than two values, and the SVG embeds no font (it was 529 KB
// for six bars): it names Liberation Sans and its metric-compatible fallbacks, and fits each
// text to the length it was laid out at.
func TestChartsIssue11(t *testing.T) {
	out := export(t, "svg", []*record.Run{sampleRun()}, Options{Chart: ChartBars})
	golden(t, "quick.bars.svg.golden", out)
	if len(out) > 40_000 {
		t.Errorf("svg of six bars is %d bytes", len(out))
	}
	s := string(out)
	for _, bad := range []string{"@font-face", "base64", "font-family:Liberation Sans;"} {
		if strings.Contains(s, bad) {
			t.Errorf("svg contains %q: a font is embedded or named without fallbacks", bad)
		}
	}
	texts := strings.Count(s, "<text ")
	if fitted := strings.Count(s, `lengthAdjust="spacingAndGlyphs"`); texts == 0 || fitted != texts {
		t.Errorf("%d of %d texts carry their laid-out length", fitted, texts)
	}
	if !strings.Contains(s, "font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;") {
		t.Error("svg does not name its fonts with fallbacks")
	}
	text := svgText(t, out)
	for _, want := range []string{
		"MB/s (10^6 bytes/s)", "IOPS (I/O operations per second)", "the same run's random I/O, in IOPS",
		// every bar's value
		"43.1", "19.8", "2460", "702", "3210", "815",
		// ticks of the MB/s axis (0-48) and of the IOPS axis (0-3595)
		"0", "10", "20", "30", "40", "500", "1000", "1500", "2000", "2500", "3000", "3500",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("bars chart lacks %q", want)
		}
	}
	// The IOPS tests are not drawn as MB/s slivers: the MB/s panel holds only the two
	// sequential tests. Their names come before the IOPS axis label, the random ones after.
	mbAxis, iopsTitle := strings.Index(text, "MB/s (10^6 bytes/s)"), strings.Index(text, "the same run's random I/O")
	if r := strings.Index(text, "rand-read-4k-qd1"); r < iopsTitle || mbAxis > iopsTitle {
		t.Errorf("random tests are not in their own panel after the MB/s one:\n%s", text)
	}

	// The PNG draws its text: dark pixels in the names column left of the bars.
	img, err := png.Decode(bytes.NewReader(export(t, "png", []*record.Run{sampleRun()}, Options{Chart: ChartBars})))
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Min.X+100; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0x4000 && g < 0x4000 && bl < 0x4000 {
				dark++
			}
		}
	}
	if dark < 500 {
		t.Errorf("the PNG's names column has %d dark pixels: its text is not drawn", dark)
	}

	// The HTML report inlines the same charts and embeds no font either.
	if html := string(export(t, "html", []*record.Run{sampleRun()}, Options{Published: published(t)})); strings.Contains(html, "@font-face") || len(html) > 400_000 {
		t.Errorf("html report embeds a font or is %d bytes", len(html))
	}
	golden(t, "sustained.svg.golden", export(t, "svg", []*record.Run{sampleSustainedRun()}, Options{}))
}

// TestSVGStylesAreClasses: vgsvg's per-element style attributes become one class per distinct
// style, so a chart set beside ~200 published drives stays small; a class's name follows from
// its style, so two charts inlined in one HTML page never give a name two meanings.
func TestSVGStylesAreClasses(t *testing.T) {
	big := export(t, "svg", []*record.Run{profileRun(t, "pibenchmarks")}, Options{Published: published(t), Chart: ChartBars})
	// Bytes per drawn element, as the published set grows: 162 with a style attribute on each
	// (204 KB for 28 Pi 4 microSD drives), about 105 with classes.
	if n, elems := len(big), strings.Count(string(big), "<text ")+strings.Count(string(big), "<path "); elems == 0 || n/elems > 120 {
		t.Errorf("svg of a pibenchmarks run beside published drives is %d bytes for %d elements", n, elems)
	}
	if strings.Contains(string(big), "style=\"") {
		t.Error("svg keeps style attributes")
	}
	rule := regexp.MustCompile(`\.(iom[0-9a-f]{8})\{([^}]*)\}`)
	meaning := map[string]string{}
	for _, out := range [][]byte{big, export(t, "svg", []*record.Run{sampleSustainedRun()}, Options{})} {
		s := string(out)
		rules := rule.FindAllStringSubmatch(s, -1)
		if len(rules) == 0 {
			t.Fatalf("no style rules in\n%.400s", s)
		}
		for _, r := range rules {
			if m, ok := meaning[r[1]]; ok && m != r[2] {
				t.Errorf("class %s is %q in one chart and %q in another", r[1], m, r[2])
			}
			meaning[r[1]] = r[2]
		}
		for _, used := range regexp.MustCompile(`class="([^"]*)"`).FindAllStringSubmatch(s, -1) {
			if _, ok := meaning[used[1]]; !ok {
				t.Errorf("class %s is used but has no rule", used[1])
			}
		}
	}
}

func TestWrapWords(t *testing.T) {
	got := wrapWords("MB/s: published dd_write_mbps for Raspberry Pi 4, microsd; sources: chambers-storage-2019, pidramble-microsd", 40)
	for _, l := range got {
		if len([]rune(l)) > 40 {
			t.Errorf("line %q longer than 40", l)
		}
	}
	if strings.Join(got, " ") != "MB/s: published dd_write_mbps for Raspberry Pi 4, microsd; sources: chambers-storage-2019, pidramble-microsd" || len(got) != 3 {
		t.Errorf("wrapWords = %q", got)
	}
}
