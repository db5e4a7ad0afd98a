package probe

import (
	"strings"
	"testing"
)

// The qemu-* trees are captured from Debian kernels under QEMU (internal/testkit/qemu, `go run
// ./scripts/qemu-lab capture CONFIG`), not assembled by hand: they hold what real kernels
// publish. Drives are found by size (each drive of a configuration has its own), so a new
// capture that names them in another order still passes.

// byCapacity finds the disk of sizeMiB in a fixture and probes it.
func byCapacity(t *testing.T, fix string, sizeMiB int) *Report {
	t.Helper()
	l, err := List(fixture(fix))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l {
		if e.CapacityBytes == uint64(sizeMiB)<<20 {
			r, err := Probe("/dev/"+e.Name, fixture(fix))
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
	}
	t.Fatalf("%s: no %d MiB disk in %+v", fix, sizeMiB, l)
	return nil
}

func TestQEMUq35Identity(t *testing.T) {
	const fix = "qemu-q35-identity"
	ssd := byCapacity(t, fix, 66)
	if ssd.Device.Class != ClassSATASSD || ssd.Device.Model != "Samsung SSD 870 EVO 250GB" || ssd.SATA.Firmware != "SVT01B6Q" ||
		ssd.Device.SerialHash != hashSerial("S6PENL0T123456X") || ssd.SATA.LinkGbps != 1.5 || ssd.SATA.Driver != "ahci" {
		t.Errorf("sata ssd: %+v %+v", ssd.Device, ssd.SATA)
	}
	hdd := byCapacity(t, fix, 70)
	if hdd.Device.Class != ClassSATAHDD || hdd.Device.Model != "WDC WD40EFRX-68N32N0" || hdd.SATA.RotationRateRPM != 5400 {
		t.Errorf("sata hdd: %+v %+v", hdd.Device, hdd.SATA)
	}
	nv := byCapacity(t, fix, 65)
	if n := nv.NVMe; n == nil || nv.Device.Model != "QEMU NVMe Ctrl" || n.PCIeGen != 1 || n.PCIeWidth != 1 || n.PortMaxGen != 3 || n.PortMaxWidth != 4 || n.TempC == nil {
		t.Errorf("nvme: %+v", nv.NVMe)
	}
	uas := byCapacity(t, fix, 67)
	if uas.Device.Class != ClassUSBSSD || uas.USB.Driver != "uas" || uas.USB.SpeedMbps != 5000 || uas.Device.Model != "PSSD T7" {
		t.Errorf("uas: %+v %+v", uas.Device, uas.USB)
	}
	hub := byCapacity(t, fix, 71)
	if len(hub.Link) != 2 || hub.Link[0].SpeedMbps != 12 || hub.Link[1].Driver != "hub" || !strings.Contains(hub.Link[1].Detail, "0409:55aa") {
		t.Errorf("stick behind the full-speed hub: %+v", hub.Link)
	}
	usb2 := byCapacity(t, fix, 69)
	if usb2.USB.SpeedMbps != 480 || usb2.USB.PortMaxSpeedMbps != 480 || usb2.Device.Class != ClassUSBFlash {
		t.Errorf("ehci stick: %+v", usb2.USB)
	}
	sd := byCapacity(t, fix, 64)
	if s := sd.SD; s == nil || s.Name != "QEMU!" || s.OEMID != "XY" || s.SpecVersion != "3.0x" || s.HostDriver != "sdhci-pci" || s.Timing == "" {
		t.Errorf("sd: %+v", sd.SD)
	}
	if b := sd.Board; b == nil || !strings.Contains(b.Model, "Q35") || b.Kernel != "6.1.0-56-amd64" || b.CPUs != 1 {
		t.Errorf("board: %+v", sd.Board)
	}
}

func TestQEMURaspi3BRevision(t *testing.T) {
	const fix = "qemu-raspi3b-rev"
	sd := byCapacity(t, fix, 64)
	if s := sd.SD; s == nil || s.HostDriver != "sdhost-bcm2835" || s.Date != "2006-02" || s.CapacityBytes != 64<<20 || s.CommandQueue == nil {
		t.Errorf("sd: %+v", sd.SD)
	}
	// QEMU's card is standard capacity (CSD v1): SECTOR_SIZE 63, 64 write blocks of 512 bytes.
	if s := sd.SD; s == nil || s.EraseSectorBytes != 32<<10 || s.PreferredEraseBytes != 512<<10 {
		t.Errorf("sd erase units: %+v", sd.SD)
	}
	for _, why := range sd.SD.SuspectReasons {
		if strings.Contains(why, "future") {
			t.Errorf("1970 clock: %q", why)
		}
	}
	if b := sd.Board; b == nil || b.Model != "Raspberry Pi 3 Model B" || b.Revision != "a02082" || b.Pi == nil || b.Pi.Type != "3B" ||
		b.Pi.BoardRevision != "1.2" || b.Pi.Manufacturer != "Sony UK" || !strings.HasSuffix(b.Kernel, "-arm64") {
		t.Errorf("board: %+v", sd.Board)
	}
	for _, mib := range []int{65, 66} {
		s := byCapacity(t, fix, mib)
		if s.USB == nil || s.USB.Driver != "usb-storage" || s.USB.PortMaxSpeedMbps != 480 || len(s.Link) != 2 || s.Link[1].Bus != "usb" || s.Link[1].SpeedMbps != 12 {
			t.Errorf("%d MiB stick: %+v %+v", mib, s.USB, s.Link)
		}
	}
}

// TestQEMUq35BOS: Debian's backports kernel (6.12) publishes bos_descriptors: the maximum
// speed of a USB 3 device on xHCI comes from its SuperSpeed capability. QEMU's device on EHCI
// says bcdUSB 2.00 and has no BOS: no maximum is claimed.
func TestQEMUq35BOS(t *testing.T) {
	const fix = "qemu-q35-bos"
	for _, mib := range []int{67, 68} {
		r := byCapacity(t, fix, mib)
		if u := r.USB; u == nil || u.SpeedMbps != 5000 || u.MaxSpeedMbps != 5000 || u.MaxSpeedSource != "bos" {
			t.Errorf("%d MiB on xHCI: %+v", mib, r.USB)
		}
		if !strings.HasPrefix(r.Board.Kernel, "6.12.") {
			t.Errorf("kernel %q", r.Board.Kernel)
		}
	}
	r := byCapacity(t, fix, 69)
	if u := r.USB; u == nil || u.SpeedMbps != 480 || u.MaxSpeedMbps != 0 || u.Version != "2.00" {
		t.Errorf("EHCI: %+v", r.USB)
	}
}
