package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// usbFakeSizeMinBytes: no genuine USB flash drive this large is a USB 2.0-only device. The
// "2TB" USB 2.0 sticks sold online are fakes (f3's documentation shows such drives with a
// few GB of real flash); genuine 1-2 TB sticks (Kingston DataTraveler Max and Ultimate GT)
// are USB 3.
const usbFakeSizeMinBytes = 1e12

// usbCapacitySuspect: a USB flash drive that claims a terabyte or more but can only do USB
// 2.0 is almost certainly a fake-capacity drive.
func usbCapacitySuspect(r *probe.Report) []record.Finding {
	u, d := r.USB, r.Device
	if u == nil || d == nil || d.Class != probe.ClassUSBFlash || d.CapacityBytes < usbFakeSizeMinBytes {
		return nil
	}
	if u.MaxSpeedMbps == 0 || u.MaxSpeedMbps > 480 {
		return nil
	}
	return one(record.Finding{
		ID:       "usb-capacity-suspect",
		Severity: record.SeverityWarn,
		Message:  fmt.Sprintf("a USB 2.0 flash drive claiming %s: no genuine one that large exists, so it is probably a fake that stores far less", siBytes(int64(d.CapacityBytes))),
		Fix:      fmt.Sprintf("check its real capacity before trusting it with data: sudo iomark verify %s --confirm %s (saves and restores what it overwrites)", diskPath(r), diskPath(r)),
		Evidence: fmt.Sprintf("%s:%s %q %q, %d bytes, device speed at most %d Mb/s (from %s)", u.VID, u.PID, u.Manufacturer, u.Product, d.CapacityBytes, u.MaxSpeedMbps, u.MaxSpeedSource),
	})
}
