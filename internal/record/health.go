package health

import (
	"fmt"
	"strings"
)

// Summary is a one-line account of h for people (`iomark list`'s column, `iomark info`):
// the wear, the errors and the alarms the drive reports, or "-" when it reports nothing.
func (h *Health) Summary() string {
	if h == nil || h.Source == SourceNone {
		return "-"
	}
	var parts []string
	if n := len(h.CriticalWarnings); n > 0 {
		parts = append(parts, "ALARM "+strings.Join(h.CriticalWarnings, ","))
	}
	if h.PercentageUsed != nil {
		if h.Source == SourceEMMC {
			parts = append(parts, fmt.Sprintf("≥%d%% used", *h.PercentageUsed))
		} else {
			parts = append(parts, fmt.Sprintf("%d%% used", *h.PercentageUsed))
		}
	}
	if h.PreEOL != "" && h.PreEOL != "normal" {
		parts = append(parts, "pre-EOL "+h.PreEOL)
	}
	if h.MediaErrors != nil && *h.MediaErrors > 0 {
		parts = append(parts, fmt.Sprintf("%d media errors", *h.MediaErrors))
	}
	if h.ReallocatedSectors != nil && *h.ReallocatedSectors > 0 {
		parts = append(parts, fmt.Sprintf("%d reallocated", *h.ReallocatedSectors))
	}
	if h.PendingSectors != nil && *h.PendingSectors > 0 {
		parts = append(parts, fmt.Sprintf("%d pending", *h.PendingSectors))
	}
	if h.PowerOnHours != nil {
		parts = append(parts, fmt.Sprintf("%d h on", *h.PowerOnHours))
	}
	if h.DataWrittenBytes != nil {
		parts = append(parts, fmtTB(*h.DataWrittenBytes)+" written")
	}
	if len(parts) == 0 {
		return "reported, nothing notable"
	}
	return strings.Join(parts, ", ")
}

// fmtTB prints bytes in decimal units, as drive makers rate endurance (TBW).
func fmtTB(b uint64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.1f TB", float64(b)/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	}
	return fmt.Sprintf("%.0f MB", float64(b)/1e6)
}
