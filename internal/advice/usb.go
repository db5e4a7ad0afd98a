package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// usbPortUSB2: a USB 3 device negotiated USB 2.0 (480 Mb/s): a black port, a USB 2 hub or
// extension cable, or a worn plug. The fix is a blue USB 3 port.
func usbPortUSB2(r *probe.Report) []record.Finding {
	u := r.USB
	if u == nil || u.SpeedMbps == 0 || u.SpeedMbps > 480 || u.MaxSpeedMbps < 5000 {
		return nil
	}
	f := record.Finding{
		ID: "usb-port-usb2",
		Message: fmt.Sprintf("USB 3 device linked at %d Mb/s (USB 2.0): it is limited to about 40 MB/s",
			u.SpeedMbps),
		Evidence: fmt.Sprintf("%s:%s speed %d Mb/s, device capable of %d Mb/s (from %s)",
			u.VID, u.PID, u.SpeedMbps, u.MaxSpeedMbps, u.MaxSpeedSource),
	}
	switch {
	case u.PortMaxSpeedMbps >= 5000:
		f.Severity = record.SeverityBad
		f.Fix = "plug it into a blue USB 3 port, directly (no USB 2 hub or extension cable)"
		f.Evidence += fmt.Sprintf("; its host controller has a %d Mb/s bus", u.PortMaxSpeedMbps)
	case u.PortMaxSpeedMbps > 0:
		f.Severity = record.SeverityInfo
		f.Message = fmt.Sprintf("USB 3 device on a USB 2.0-only host (%d Mb/s): the board cannot go faster over USB",
			u.PortMaxSpeedMbps)
		f.Fix = "a board with USB 3 ports (Raspberry Pi 4 or 5) or a faster interface would lift this limit"
	default:
		f.Severity = record.SeverityWarn
		f.Fix = "plug it into a USB 3 port (blue, or marked SS), directly rather than through a USB 2 hub"
	}
	return one(f)
}

// usbNoUAS: a USB 3 link driven by usb-storage (Bulk-Only Transport, one command at a time)
// instead of uas: random I/O and throughput suffer.
func usbNoUAS(r *probe.Report) []record.Finding {
	u := r.USB
	if u == nil || u.Driver != "usb-storage" || u.SpeedMbps < 5000 {
		return nil
	}
	f := record.Finding{
		ID:       "usb-no-uas",
		Severity: record.SeverityWarn,
		Message:  "USB 3 drive uses usb-storage (one command at a time) instead of UAS: random I/O and throughput are lower",
		Evidence: fmt.Sprintf("%s:%s driver usb-storage at %d Mb/s", u.VID, u.PID, u.SpeedMbps),
	}
	switch {
	case u.UASDisabledByQuirk:
		f.Evidence += fmt.Sprintf("; usb-storage.quirks has %q", u.Quirks)
		f.Fix = fmt.Sprintf("UAS is switched off for this device by the quirk %q (cmdline.txt or modprobe.d); "+
			"remove it if the adapter's firmware now handles UAS, else use a UAS-capable adapter", u.Quirks)
	case u.Bridge != nil && u.Bridge.UAS:
		f.Evidence += fmt.Sprintf("; bridge %s %s supports UAS", u.Bridge.Vendor, u.Bridge.Chip)
		f.Fix = "the bridge supports UAS but the kernel did not bind uas: check that the uas module is available (lsmod, dmesg)"
		if u.Bridge.Note != "" {
			f.Fix += "; " + u.Bridge.Note
		}
	default:
		f.Fix = "use an enclosure or adapter whose bridge supports UAS (USB Attached SCSI)"
	}
	return one(f)
}
