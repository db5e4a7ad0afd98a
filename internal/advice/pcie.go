package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// pcieLinkDegraded: a PCIe link trained below what both ends support (fewer lanes or a lower
// generation): a bad riser or FFC cable, a dirty slot, or power management.
func pcieLinkDegraded(r *probe.Report) []record.Finding {
	var out []record.Finding
	for _, h := range r.Link {
		if h.Bus != "pcie" || h.SpeedMbps == 0 || h.MaxSpeedMbps <= h.SpeedMbps {
			continue
		}
		out = append(out, record.Finding{
			ID:       "pcie-link-degraded",
			Severity: record.SeverityWarn,
			Message:  fmt.Sprintf("PCIe link of %s runs below what both ends support: %s", h.Name, h.Detail),
			Fix:      "reseat the drive and the ribbon/riser cable (on a Pi 5 HAT check the FFC cable's orientation and contacts); a gen3 link on a Pi 5 also needs dtparam=pciex1_gen=3",
			Evidence: fmt.Sprintf("negotiated %d Mb/s, capable of %d Mb/s", h.SpeedMbps, h.MaxSpeedMbps),
		})
	}
	return out
}
