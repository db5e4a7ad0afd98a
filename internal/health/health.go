package health

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/probe"
)

// Sources of health data (the `source` key).
const (
	SourceNVMe = "nvme-smart-log" // NVMe Get Log Page 02h
	SourceATA  = "ata-smart"      // ATA SMART READ DATA, thresholds, SCT status
	SourceEMMC = "emmc-sysfs"     // eMMC EXT_CSD life time and pre-EOL, as the kernel exports them
	SourceNone = "none"           // the drive reports nothing, or could not be asked (Note says why)
)

// Health is what a drive reports about itself. A key is present only when the drive reported
// it; Note says why keys are missing (a drive that reports nothing, a bridge that does not
// pass commands, no permission). Its JSON form is `health` in `iomark info --json` and in
// every run record (docs/health.md).
type Health struct {
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`

	// PercentageUsed estimates the share of the rated endurance used (NVMe may exceed 100;
	// eMMC reports 10% bands, given here by their lower bound).
	PercentageUsed *int `json:"percentage_used,omitempty"`
	// PercentageUsedBasis says where PercentageUsed comes from (the NVMe field, an ATA
	// attribute by name, the eMMC estimate).
	PercentageUsedBasis string  `json:"percentage_used_basis,omitempty"`
	PowerOnHours        *uint64 `json:"power_on_hours,omitempty"`
	// DataWrittenBytes and DataReadBytes are the host's bytes as the drive counts them
	// (NVMe data units of 512 000 bytes, an ATA attribute times its unit).
	DataWrittenBytes *uint64 `json:"data_written_bytes,omitempty"`
	DataReadBytes    *uint64 `json:"data_read_bytes,omitempty"`
	// MediaErrors counts unrecovered data integrity errors (NVMe media and data integrity
	// errors; ATA reported or offline uncorrectable sectors).
	MediaErrors  *uint64  `json:"media_errors,omitempty"`
	TemperatureC *float64 `json:"temperature_c,omitempty"`
	// CriticalWarnings are the drive's own alarms: NVMe critical warning bits, ATA attributes
	// at or below their failure threshold. Present (possibly empty) when the drive has such a
	// field; absent when it has none.
	CriticalWarnings []string `json:"critical_warnings,omitzero"`

	AvailableSparePct          *int    `json:"available_spare_pct,omitempty"`
	AvailableSpareThresholdPct *int    `json:"available_spare_threshold_pct,omitempty"`
	PowerCycles                *uint64 `json:"power_cycles,omitempty"`
	UnsafeShutdowns            *uint64 `json:"unsafe_shutdowns,omitempty"`
	ReallocatedSectors         *uint64 `json:"reallocated_sectors,omitempty"`
	PendingSectors             *uint64 `json:"pending_sectors,omitempty"`
	// PreEOL is an eMMC's pre-end-of-life state: normal, warning (80% of the reserved blocks
	// used) or urgent (90%).
	PreEOL string `json:"pre_eol,omitempty"`
	// LifeTimeEstA and LifeTimeEstB are the eMMC's two estimates (SLC and MLC areas) as
	// bands such as "0-10%".
	LifeTimeEstA string `json:"life_time_est_a,omitempty"`
	LifeTimeEstB string `json:"life_time_est_b,omitempty"`
	// Family names the ATA attribute table used (ata_table.go).
	Family     string      `json:"family,omitempty"`
	Attributes []Attribute `json:"attributes,omitempty"`
}

// Attribute is one ATA SMART attribute as the drive reported it.
type Attribute struct {
	ID        int    `json:"id"`
	Name      string `json:"name"`
	Value     int    `json:"value"`
	Worst     int    `json:"worst"`
	Threshold *int   `json:"threshold,omitempty"`
	Raw       uint64 `json:"raw"` // the 48-bit raw field, little-endian
	PreFail   bool   `json:"prefail,omitempty"`
	// Failing: a pre-fail attribute at or below its (non-zero) threshold, the drive's own
	// prediction of failure.
	Failing bool `json:"failing,omitempty"`
}

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
