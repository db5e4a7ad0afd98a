package health

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// Sources of health data (the `source` key): the record defines them with Health.
const (
	SourceNVMe = record.HealthSourceNVMe
	SourceATA  = record.HealthSourceATA
	SourceEMMC = record.HealthSourceEMMC
	SourceNone = record.HealthSourceNone
)

// Health and Attribute are the record's types: every run record carries a Health, so its
// shape is defined where the record is.
type (
	Health    = record.Health
	Attribute = record.HealthAttribute
)

// nothing is a Health that reports nothing, with the reason.
func nothing(format string, args ...any) *Health {
	return &Health{Source: SourceNone, Note: fmt.Sprintf(format, args...)}
}

// Read asks the drive the probe report describes for its health, by its class: the NVMe
// log page, ATA SMART (libata disks, and USB-SATA bridges that passed ATA IDENTIFY or are
// known to pass commands), eMMC sysfs attributes. It never returns nil: a drive that reports
// nothing or could not be asked gives Source "none" and a Note saying why. Commands to drives
// are sent only on the live system and without o.NoIoctl, each bounded by o's timeout.
func Read(rep *probe.Report, o probe.Options) *Health {
	if rep == nil || rep.Device == nil {
		return nothing("no drive was identified, so none was asked")
	}
	d := rep.Device
	switch {
	case rep.NVMe != nil:
		if why := mayAsk(o); why != "" {
			return nothing("%s", why)
		}
		h, err := readNVMe(o, d.Path)
		if err != nil {
			return nothing("the NVMe health log of %s could not be read: %v", d.Path, err)
		}
		return h
	case rep.SATA != nil:
		return askATA(o, d.Path, ataModel(rep))
	case rep.USB != nil:
		return usbHealth(rep, o)
	case d.Class == probe.ClassEMMC:
		return readEMMC(o, d)
	case d.Class == probe.ClassMicroSD:
		return nothing("SD cards report no health data: the SD standard has no wear or error counters a host can read")
	case d.Class == probe.ClassVirtio:
		return nothing("a virtio disk is a virtual machine's disk: the drive behind it reports to the host, not here")
	case d.Class == probe.ClassLoop:
		return nothing("a loop device is a file; the drive holding it is the one to ask")
	}
	return nothing("iomark does not know how to ask a %s drive for its health", d.Class)
}

// usbHealth asks the drive behind a USB bridge: ATA SMART through SAT when the bridge passed
// ATA IDENTIFY or is a known USB-SATA bridge; flash drives and other bridges report nothing.
func usbHealth(rep *probe.Report, o probe.Options) *Health {
	u, d := rep.USB, rep.Device
	if d.Class == probe.ClassUSBFlash {
		return nothing("USB flash drives report no health data: their controllers answer no SMART or wear query")
	}
	if u.Drive == nil && (u.Bridge == nil || u.Bridge.Kind != "usb-sata") {
		if u.Bridge != nil && u.Bridge.Kind == "usb-sd" {
			return nothing("SD cards report no health data, and a USB card reader passes no query to them")
		}
		if u.Bridge != nil && u.Bridge.Kind == "usb-nvme" {
			return nothing("the %s %s bridge reaches its NVMe drive only through its vendor's own pass-through, which iomark does not send", u.Bridge.Vendor, u.Bridge.Chip)
		}
		return nothing("the USB bridge %s:%s is not known to pass ATA commands, so the drive behind it was not asked", u.VID, u.PID)
	}
	return askATA(o, d.Path, ataModel(rep))
}

func askATA(o probe.Options, devPath, model string) *Health {
	if why := mayAsk(o); why != "" {
		return nothing("%s", why)
	}
	h, err := readATA(o, devPath, model)
	if err != nil {
		return nothing("ATA SMART of %s could not be read: %v", devPath, err)
	}
	return h
}

// mayAsk says why no command may be sent to the drive, or "" when one may.
func mayAsk(o probe.Options) string {
	switch {
	case !o.Live():
		return "not asked: reading a fixture root, there is no drive to send commands to"
	case o.NoIoctl:
		return "not asked: --no-ioctl sends no command to the drive"
	}
	return ""
}

// ataModel is the model string the attribute tables match: the drive's own, behind a bridge.
func ataModel(rep *probe.Report) string {
	switch {
	case rep.USB != nil && rep.USB.Drive != nil && rep.USB.Drive.Model != "":
		return rep.USB.Drive.Model
	case rep.SATA != nil && rep.SATA.Model != "":
		return rep.SATA.Model
	}
	return strings.TrimSpace(rep.Device.Model)
}
