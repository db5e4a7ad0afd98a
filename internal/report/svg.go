package report

import (
	"bytes"
	"fmt"
	"io"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/iomark/iomark/internal/record"
)

// svgExporter draws the chart of one run as SVG with gonum's fonts embedded, so the file
// renders the same anywhere without the viewer's fonts.
type svgExporter struct{}

func (svgExporter) Name() string { return "svg" }
func (svgExporter) Ext() string  { return "svg" }

func (svgExporter) Export(w io.Writer, runs []*record.Run, opts Options) error {
	if err := needOneRun("svg", runs); err != nil {
		return err
	}
	data, err := chartSVG(runs[0], opts, true)
	if err != nil {
		return fmt.Errorf("svg export: %w", err)
	}
	_, err = w.Write(data)
	return err
}

// chartSVG renders the chart options ask for; embedFonts carries the font files inside.
func chartSVG(r *record.Run, opts Options, embedFonts bool) ([]byte, error) {
	c, err := buildChart(r, opts)
	if err != nil {
		return nil, err
	}
	canvas := vgsvg.NewWith(vgsvg.UseWH(c.width, c.height()), vgsvg.EmbedFonts(embedFonts))
	c.draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
