package report

import (
	"fmt"
	"io"

	"github.com/iomark/iomark/internal/record"
)

// writePNG draws the chart of one run as a PNG image.
func writePNG(w io.Writer, runs []*record.Run, opts Options) error {
	c, err := buildChart(runs[0], opts)
	if err != nil {
		return fmt.Errorf("png export: %w", err)
	}
	if err := renderChart(w, c, "png"); err != nil {
		return fmt.Errorf("png export: %w", err)
	}
	return nil
}
