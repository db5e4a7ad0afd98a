package health

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

const emmcSysfs = "/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0"

func emmcReport() *probe.Report {
	return &probe.Report{Device: &probe.Device{Name: "mmcblk0", Path: "/dev/mmcblk0", Class: probe.ClassEMMC, Sysfs: emmcSysfs}}
}

func TestEMMCFixtures(t *testing.T) {
	for _, tc := range []struct {
		tree, source, a, b, preEOL string
		used                       int
	}{
		{"fresh", SourceEMMC, "0-10%", "0-10%", "normal", 0},
		{"worn", SourceEMMC, "90-100%", "80-90%", "urgent", 90},
		{"pre50", SourceNone, "", "", "", -1},
		{"old-kernel", SourceNone, "", "", "", -1},
	} {
		t.Run(tc.tree, func(t *testing.T) {
			h := Read(emmcReport(), probe.Options{Root: "testdata/emmc/" + tc.tree})
			if h.Source != tc.source || h.LifeTimeEstA != tc.a || h.LifeTimeEstB != tc.b || h.PreEOL != tc.preEOL || intOr(h.PercentageUsed) != tc.used {
				t.Errorf("health = %+v", h)
			}
			if tc.source == SourceNone && h.Note == "" {
				t.Error("nothing reported and no note saying why")
			}
		})
	}
}

func TestDecodeEMMCExceeded(t *testing.T) {
	h, err := decodeEMMC("0x0b 0x01\n", "0x02\n")
	if err != nil || h.LifeTimeEstA != "exceeded" || intOr(h.PercentageUsed) != 100 || h.PreEOL != "warning" {
		t.Errorf("exceeded: %+v, %v", h, err)
	}
	if _, err := decodeEMMC("garbage", "zz"); err == nil {
		t.Error("garbage decoded")
	}
}

// TestReadSaysWhyNothing: every class without health data gets a plain sentence, and nothing
// is asked of a drive under a fixture root.
func TestReadSaysWhyNothing(t *testing.T) {
	fixture := probe.Options{Root: "testdata/emmc/fresh"}
	for name, rep := range map[string]*probe.Report{
		"sd":        {Device: &probe.Device{Class: probe.ClassMicroSD}},
		"usb-flash": {Device: &probe.Device{Class: probe.ClassUSBFlash}, USB: &probe.USB{VID: "0781", PID: "5581"}},
		"usb-nvme":  {Device: &probe.Device{Class: probe.ClassUSBSSD}, USB: &probe.USB{VID: "0bda", PID: "9210", Bridge: &probe.Bridge{Vendor: "Realtek", Chip: "RTL9210", Kind: "usb-nvme"}}},
		"unknown":   {Device: &probe.Device{Class: probe.ClassUSBSSD}, USB: &probe.USB{VID: "1234", PID: "5678"}},
		"nvme":      {Device: &probe.Device{Class: probe.ClassNVMe, Path: "/dev/nvme0n1"}, NVMe: &probe.NVMe{}},
		"sata":      {Device: &probe.Device{Class: probe.ClassSATA, Path: "/dev/sda"}, SATA: &probe.SATA{}},
		"virtio":    {Device: &probe.Device{Class: probe.ClassVirtio}},
		"loop":      {Device: &probe.Device{Class: probe.ClassLoop}},
		"none":      nil,
	} {
		h := Read(rep, fixture)
		if h == nil || h.Source != SourceNone || h.Note == "" {
			t.Errorf("%s: %+v", name, h)
			continue
		}
		if (name == "nvme" || name == "sata") && !strings.Contains(h.Note, "fixture") {
			t.Errorf("%s: note %q should say no drive was asked", name, h.Note)
		}
		if h.Summary() != "-" {
			t.Errorf("%s: summary %q", name, h.Summary())
		}
	}
	noIoctl := probe.Options{NoIoctl: true}
	h := Read(&probe.Report{Device: &probe.Device{Class: probe.ClassNVMe, Path: "/dev/nvme0n1"}, NVMe: &probe.NVMe{}}, noIoctl)
	if !strings.Contains(h.Note, "--no-ioctl") {
		t.Errorf("--no-ioctl: %q", h.Note)
	}
}

func TestSummary(t *testing.T) {
	h, _ := decodeNVMeLog(loadHex(t, "nvme/smartmontools-537.hex"))
	if s := h.Summary(); !strings.Contains(s, "ALARM reliability-degraded") || !strings.Contains(s, "100% used") {
		t.Errorf("summary %q", s)
	}
	h, _ = decodeEMMC("0x0a 0x09", "0x03")
	if s := h.Summary(); !strings.Contains(s, "≥90% used") || !strings.Contains(s, "pre-EOL urgent") {
		t.Errorf("summary %q", s)
	}
}
