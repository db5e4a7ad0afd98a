package refdata

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

// TestDeviceClassUsesProbeNames: every storage class maps to one of probe's class constants,
// so published rows and measured runs share one set of classes.
func TestDeviceClassUsesProbeNames(t *testing.T) {
	probeClasses := map[string]bool{probe.ClassMicroSD: true, probe.ClassEMMC: true, probe.ClassUSBFlash: true,
		probe.ClassUSBSSD: true, probe.ClassNVMe: true, probe.ClassSATA: true}
	for _, c := range StorageClasses() {
		if dc := DeviceClass(c); !probeClasses[dc] {
			t.Errorf("DeviceClass(%q) = %q, not one of probe's classes", c, dc)
		}
	}
	tests := map[string]string{"usb-ssd-sata": probe.ClassUSBSSD, "usb-ssd-nvme": probe.ClassUSBSSD,
		"msata-usb": probe.ClassUSBSSD, "nvme": probe.ClassNVMe, "emmc": probe.ClassEMMC, "microsd": probe.ClassMicroSD}
	for in, want := range tests {
		if got := DeviceClass(in); got != want {
			t.Errorf("DeviceClass(%q) = %q, want %q", in, got, want)
		}
	}
	if DeviceClass("floppy") != "" {
		t.Error("DeviceClass of an unknown class is not empty")
	}
}
