package record

import (
	"fmt"
	"strings"
)

// Sources of health data (the `source` key).
const (
	HealthSourceNVMe = "nvme-smart-log" // NVMe Get Log Page 02h
	HealthSourceATA  = "ata-smart"      // ATA SMART READ DATA, thresholds, SCT status
	HealthSourceEMMC = "emmc-sysfs"     // eMMC EXT_CSD life time and pre-EOL, as the kernel exports them
	HealthSourceNone = "none"           // the drive reports nothing, or could not be asked (Note says why)
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
	// Family names the ATA attribute table used (internal/health/ata_table.go).
	Family     string            `json:"family,omitempty"`
	Attributes []HealthAttribute `json:"attributes,omitempty"`
}

// HealthAttribute is one ATA SMART attribute as the drive reported it.
type HealthAttribute struct {
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

// Summary is a one-line account of h for people (`iomark list`'s column, `iomark info`):
// the wear, the errors and the alarms the drive reports, or "-" when it reports nothing.
func (h *Health) Summary() string {
	if h == nil || h.Source == HealthSourceNone {
		return "-"
	}
	var parts []string
	if n := len(h.CriticalWarnings); n > 0 {
		parts = append(parts, "ALARM "+strings.Join(h.CriticalWarnings, ","))
	}
	if h.PercentageUsed != nil {
		if h.Source == HealthSourceEMMC {
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
