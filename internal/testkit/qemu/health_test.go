package qemu

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/health"
)

// checkHealth asserts what QEMU's drives of q35-identity tell iomark about their health
// (docs/health.md). QEMU 7.2 builds the answers in hw/nvme/ctrl.c (nvme_smart_info: composite
// temperature 323 K, no wear, no errors, no critical warning under the default 343 K
// threshold) and hw/ide/core.c (cmd_smart: the smart_attributes table "based on a Seagate
// ST3500418AS": power-on hours raw 1, Airflow_Temperature_Cel raw 0x1f = 31 °C, every
// attribute above its threshold), which libata's SCSI-ATA translation passes through SG_IO.
// The USB sticks, the UAS disk behind QEMU's own bridge and the SD card report nothing, and
// iomark says why.
func checkHealth(t *testing.T, d map[string]info) {
	t.Helper()
	u := func(p *uint64) int64 {
		if p == nil {
			return -1
		}
		return int64(*p)
	}
	nv := d["nvme"].Health
	if nv == nil || nv.Source != health.SourceNVMe || nv.TemperatureC == nil || *nv.TemperatureC != 50 ||
		nv.PercentageUsed == nil || *nv.PercentageUsed != 0 || u(nv.MediaErrors) != 0 ||
		nv.CriticalWarnings == nil || len(nv.CriticalWarnings) != 0 {
		t.Errorf("nvme health: %+v", nv)
	}
	for _, id := range []string{"sata-ssd", "sata-hdd"} {
		h := d[id].Health
		if h == nil || h.Source != health.SourceATA || u(h.PowerOnHours) != 1 || h.TemperatureC == nil || *h.TemperatureC != 31 ||
			u(h.ReallocatedSectors) != 0 || h.CriticalWarnings == nil || len(h.CriticalWarnings) != 0 || len(h.Attributes) != 7 {
			t.Errorf("%s health: %+v", id, h)
			continue
		}
		for _, at := range h.Attributes {
			if at.Failing || at.Threshold == nil {
				t.Errorf("%s: attribute %+v", id, at)
			}
		}
	}
	// The SSD's model is a Samsung's: its attributes are read with Samsung's table; the HDD's
	// is in no family, and the note says the standard meanings were assumed.
	if h := d["sata-ssd"].Health; h != nil && h.Family != "Samsung based SSDs" {
		t.Errorf("sata-ssd family %q", h.Family)
	}
	if h := d["sata-hdd"].Health; h != nil && (h.Family != "" || !strings.Contains(h.Note, sataHDDModel)) {
		t.Errorf("sata-hdd family %q, note %q", h.Family, h.Note)
	}
	for id, why := range map[string]string{"bot": "USB flash drives report no health data", "hub": "USB flash drives report no health data",
		"usb2": "USB flash drives report no health data",
		"uas":  "not known to pass ATA commands", "sd": "SD cards report no health data"} {
		if h := d[id].Health; h == nil || h.Source != health.SourceNone || !strings.Contains(h.Note, why) {
			t.Errorf("%s health: %+v, want a note saying %q", id, h, why)
		}
	}
	for id, i := range d {
		for _, f := range []string{"health-worn", "media-errors", "health-critical"} {
			if i.hasFinding(f) {
				t.Errorf("%s: %s on QEMU's new drive", id, f)
			}
		}
	}
}
