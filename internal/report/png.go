package report

import (
	"fmt"
	"io"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/iomark/iomark/internal/record"
)

// pngExporter draws the chart of one run as a PNG image.
type pngExporter struct{}

func (pngExporter) Name() string { return "png" }
func (pngExporter) Ext() string  { return "png" }

func (pngExporter) Export(w io.Writer, runs []*record.Run, opts Options) error {
	if err := needOneRun("png", runs); err != nil {
		return err
	}
	c, err := buildChart(runs[0], opts)
	if err != nil {
		return fmt.Errorf("png export: %w", err)
	}
	img := vgimg.NewWith(vgimg.UseWH(c.width, c.height()), vgimg.UseDPI(110))
	c.draw(draw.New(img))
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("png export: %w", err)
	}
	return nil
}
