package advice

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// usbFullSpeed: the drive's traffic crosses a USB 1.1 (12 Mb/s) link on a host that can do
// 480 Mb/s or more: about 1 MB/s. The usual cause is a USB 1.1 hub between the drive and the
// board (a QEMU guest shows it: its usb-hub is full speed), else a drive that fell back to
// full speed (worn plug, poor cable). A USB 2 stick on a USB 3 port is not this: it links at
// 480 Mb/s.
func usbFullSpeed(r *probe.Report) []record.Finding {
	u := r.USB
	if u == nil || u.PortMaxSpeedMbps < 480 {
		return nil
	}
	var slow []string
	var hub bool
	for _, h := range r.Link {
		if h.Bus == "usb" && h.SpeedMbps > 0 && h.SpeedMbps <= 12 {
			slow = append(slow, fmt.Sprintf("%s at %d Mb/s", h.Name, h.SpeedMbps))
			hub = hub || h.Driver == "hub"
		}
	}
	if len(slow) == 0 {
		return nil
	}
	f := record.Finding{
		ID:       "usb-full-speed",
		Severity: record.SeverityBad,
		Message:  "the drive's USB link runs at 12 Mb/s (USB 1.1 full speed): about 1 MB/s at best",
		Evidence: fmt.Sprintf("%s; the host controller has a %d Mb/s bus", strings.Join(slow, ", "), u.PortMaxSpeedMbps),
		Fix:      "the drive fell back to USB 1.1: unplug and replug it, try another cable and port",
	}
	if hub {
		f.Fix = "a USB 1.1 hub sits between the drive and the board: plug the drive in directly, or through a USB 2/3 hub"
	}
	return one(f)
}
