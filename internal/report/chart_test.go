package report

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
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
		if b.Dx() < 400 || b.Dx() > 2000 || b.Dy() < 200 || b.Dy() > 6000 {
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

func TestSVGBarsNameSourcesAndDrives(t *testing.T) {
	out := export(t, "svg", []*record.Run{sampleRun()}, Options{Published: published(t), Chart: ChartBars})
	if len(out) < 1000 {
		t.Fatalf("svg of %d bytes", len(out))
	}
	text := svgText(t, out)
	for _, want := range []string{"pidramble-microsd", "chambers-storage-2019", "Samsung Evo+ 32GB", "this run: iomark rand-read-4k-qd1", "MiB/s", "dashed line: link ceiling 45.0 MB/s"} {
		if !strings.Contains(text, want) {
			t.Errorf("bars chart lacks %q", want)
		}
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
