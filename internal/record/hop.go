package record

import (
	"fmt"
	"strings"
)

// Summary is a hop in one line, the one way iomark prints a hop (list, info, run reports):
// its bus and name, the negotiated speed (and the maximum when that is different), the
// driver unless the detail already names it, and the detail, e.g.
// "sd mmc0 400 Mb/s sdhci-iproc SD UHS-I DDR50, 50 MHz, 4-bit". The ceiling is left to the
// caller, which prints it in its own column or brackets.
func (h Hop) Summary() string {
	parts := []string{h.Bus}
	if h.Name != "" {
		parts = append(parts, h.Name)
	}
	if h.SpeedMbps > 0 {
		s := fmt.Sprintf("%d Mb/s", h.SpeedMbps)
		if h.MaxSpeedMbps > 0 && h.MaxSpeedMbps != h.SpeedMbps {
			s += fmt.Sprintf(" (max %d Mb/s)", h.MaxSpeedMbps)
		}
		parts = append(parts, s)
	}
	if h.Driver != "" && !strings.Contains(h.Detail, h.Driver) {
		parts = append(parts, h.Driver)
	}
	if h.Detail != "" {
		parts = append(parts, h.Detail)
	}
	return strings.Join(parts, " ")
}
