package advice

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestPCIeLinkDegraded(t *testing.T) {
	hop := func(speed, max int) *probe.Report {
		return &probe.Report{Link: []probe.Hop{{Bus: "pcie", Name: "0000:03:00.0", SpeedMbps: speed, MaxSpeedMbps: max,
			Detail: "PCIe gen3 x2 (link capable of gen3 x4)"}}}
	}
	check(t, "x2 instead of x4", pcieLinkDegraded, hop(16000, 32000), "pcie-link-degraded:warn")
	check(t, "as capable", pcieLinkDegraded, hop(32000, 32000))
	check(t, "capability unknown", pcieLinkDegraded, hop(8000, 0))
	check(t, "usb hop below its max is not PCIe", pcieLinkDegraded,
		&probe.Report{Link: []probe.Hop{{Bus: "usb", SpeedMbps: 480, MaxSpeedMbps: 5000}}})
}
