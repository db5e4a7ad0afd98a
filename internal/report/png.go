package report

import (
	"fmt"
	"io"

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
	if err := renderChart(w, c, "png"); err != nil {
		return fmt.Errorf("png export: %w", err)
	}
	return nil
}
