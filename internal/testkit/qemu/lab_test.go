package qemu

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
)

// info is `iomark info --json` as a test reads it: the probe report, the drive's health and
// the findings' ids.
type info struct {
	probe.Report
	Health   *health.Health `json:"health"`
	Findings []struct {
		ID string `json:"id"`
	} `json:"findings"`
}

func (i info) hasFinding(id string) bool {
	for _, f := range i.Findings {
		if f.ID == id {
			return true
		}
	}
	return false
}

// serialHash is probe's published form of a serial number.
func serialHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// infos decodes the Inventory's info of every drive of a boot, by drive ID.
func infos(t *testing.T, r *Result) map[string]info {
	t.Helper()
	out := map[string]info{}
	for id := range r.Disks {
		var i info
		if err := r.Info(id, &i); err != nil {
			t.Fatalf("drive %s: %v", id, err)
		}
		if i.Device == nil {
			t.Fatalf("drive %s: no device in %+v", id, i.Report)
		}
		out[id] = i
	}
	var list []probe.ListEntry
	if err := r.JSON("list", &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(out) {
		t.Errorf("iomark list has %d disks, the configuration %d: %+v", len(list), len(out), list)
	}
	for _, e := range list {
		for id, i := range out {
			if i.Device.Name == e.Name && (e.Class != i.Device.Class || e.Model != i.Device.Model) {
				t.Errorf("%s: list says %s %q, info %s %q", id, e.Class, e.Model, i.Device.Class, i.Device.Model)
			}
		}
	}
	return out
}

// hopWant pins down one hop of a link chain.
type hopWant struct {
	bus       string
	speedMbps int
	maxMbps   int // 0: not checked
	driver    string
}

func checkLink(t *testing.T, id string, i info, want ...hopWant) {
	t.Helper()
	if len(i.Link) < len(want) {
		t.Errorf("%s: link %+v, want at least %d hops", id, i.Link, len(want))
		return
	}
	for n, w := range want {
		h := i.Link[n]
		if h.Bus != w.bus || h.SpeedMbps != w.speedMbps || h.Driver != w.driver || w.maxMbps != 0 && h.MaxSpeedMbps != w.maxMbps {
			t.Errorf("%s: hop %d = %+v, want %+v", id, n, h, w)
		}
		if h.CeilingMBPerS <= 0 && h.Bus != "pcie" {
			t.Errorf("%s: hop %d has no ceiling: %+v", id, n, h)
		}
	}
}

// TestQ35Defaults: every PC bus with QEMU's own identity strings (Debian's stable kernel).
func TestQ35Defaults(t *testing.T) {
	t.Parallel()
	r := BootT(t, "q35-defaults", Inventory()...)
	if !strings.HasPrefix(r.Kernel, "6.1.") {
		t.Errorf("kernel %s, want Debian's 6.1", r.Kernel)
	}
	d := infos(t, r)

	nv := d["nvme"]
	if nv.Device.Class != probe.ClassNVMe || nv.Device.Model != "QEMU NVMe Ctrl" || nv.NVMe == nil ||
		nv.NVMe.Firmware == "" || nv.Device.SerialHash != serialHash("deadbeef") {
		t.Errorf("nvme: %+v %+v", nv.Device, nv.NVMe)
	}
	// QEMU's endpoint trains 2.5 GT/s x1 and says so in its capabilities; a root port without
	// x-speed/x-width offers 16 GT/s x32.
	if n := nv.NVMe; n == nil || n.PCIeGen != 1 || n.PCIeWidth != 1 || n.PCIeMaxGen != 1 || n.PCIeMaxWidth != 1 || n.PortMaxGen != 4 || n.PortMaxWidth != 32 {
		t.Errorf("nvme link: %+v", nv.NVMe)
	}
	checkLink(t, "nvme", nv, hopWant{"pcie", 2500, 2500, "nvme"})

	sata := d["sata"]
	// QEMU's ide-hd reports no rotation rate by default: the class cannot be told.
	if sata.Device.Class != probe.ClassSATA || sata.Device.Model != "QEMU HARDDISK" || sata.SATA == nil ||
		sata.SATA.Firmware == "" || sata.SATA.RotationRateRPM != 0 || sata.Device.SerialHash == "" || sata.Device.Vendor != "" {
		t.Errorf("sata: %+v %+v", sata.Device, sata.SATA)
	}
	checkLink(t, "sata", sata, hopWant{"sata", 1500, 0, "ahci"})

	uas := d["uas"]
	if uas.USB == nil || uas.USB.Driver != "uas" || uas.USB.SpeedMbps != 5000 || uas.USB.PortMaxSpeedMbps != 5000 || uas.Device.Model != "QEMU HARDDISK" {
		t.Errorf("uas: %+v %+v", uas.Device, uas.USB)
	}
	checkLink(t, "uas", uas, hopWant{"usb", 5000, 5000, "uas"})
	if uas.hasFinding("usb-no-uas") {
		t.Error("uas: usb-no-uas on a drive driven by uas")
	}

	bot := d["bot"]
	if bot.USB == nil || bot.USB.Driver != "usb-storage" || bot.USB.SpeedMbps != 5000 {
		t.Errorf("bot: %+v", bot.USB)
	}
	checkLink(t, "bot", bot, hopWant{"usb", 5000, 5000, "usb-storage"})
	if !bot.hasFinding("usb-no-uas") {
		t.Errorf("bot: a USB 3 drive on usb-storage must get usb-no-uas: %+v", bot.Findings)
	}

	usb2 := d["usb2"]
	if usb2.USB == nil || usb2.USB.Driver != "usb-storage" || usb2.USB.SpeedMbps != 480 || usb2.USB.PortMaxSpeedMbps != 480 || usb2.USB.Version != "2.00" {
		t.Errorf("usb2: %+v", usb2.USB)
	}
	if usb2.hasFinding("usb-port-usb2") || usb2.hasFinding("usb-no-uas") {
		t.Errorf("usb2: findings %+v on a USB 2 device in a USB 2 port", usb2.Findings)
	}

	sd := d["sd"]
	checkQEMUCard(t, "sd", sd, "sdhci-pci")
	// The default spec_version of QEMU's sd-card is 2 (SCR: SD 2.00).
	if sd.SD != nil && sd.SD.SpecVersion != "2.00" {
		t.Errorf("sd: spec version %q, want 2.00", sd.SD.SpecVersion)
	}
	if sd.Board == nil || !strings.Contains(sd.Board.Model, "Q35") || sd.Board.Kernel != r.Kernel {
		t.Errorf("board: %+v", sd.Board)
	}
}

// checkQEMUCard checks the registers of QEMU's SD card (hw/sd/sd.c: sd_set_cid, sd_set_csd).
func checkQEMUCard(t *testing.T, id string, i info, hostDriver string) {
	t.Helper()
	s := i.SD
	if i.Device.Class != probe.ClassMicroSD || s == nil {
		t.Fatalf("%s: %+v %+v", id, i.Device, s)
	}
	if s.ManfID != 0xaa || s.OEMID != "XY" || s.Name != "QEMU!" || s.Revision != "0.1" || s.Date != "2006-02" ||
		s.SerialHash != serialHash("3735928559") || s.CapacityBytes != 64<<20 || s.HostDriver != hostDriver {
		t.Errorf("%s: card %+v", id, s)
	}
	if s.Timing == "" || s.ClockHz == 0 || s.BusWidthBits != 4 {
		t.Errorf("%s: bus %s %d Hz %d bits (debugfs ios)", id, s.Timing, s.ClockHz, s.BusWidthBits)
	}
	for _, why := range s.SuspectReasons {
		if strings.Contains(why, "future") {
			t.Errorf("%s: %q (a 2006 card is not from the future)", id, why)
		}
	}
}

// TestQ35Identity: identity strings set, an SSD and an HDD on SATA told apart, a stick behind
// a full-speed hub, a gen3 x4 root port; and the capture of this guest replays as a fixture.
func TestQ35Identity(t *testing.T) {
	t.Parallel()
	r := BootT(t, "q35-identity", append(Inventory(), CaptureStep())...)
	d := infos(t, r)

	ssd := d["sata-ssd"]
	// The whole IDENTIFY strings, not libata's INQUIRY cut ("Samsung SSD 870", "1B6Q").
	if ssd.Device.Class != probe.ClassSATASSD || ssd.Device.Model != sataSSDModel || ssd.SATA == nil ||
		ssd.SATA.Firmware != sataSSDFirmware || ssd.Device.SerialHash != serialHash(sataSSDSerial) || ssd.SATA.RotationRateRPM != 1 {
		t.Errorf("sata-ssd: %+v %+v", ssd.Device, ssd.SATA)
	}
	hdd := d["sata-hdd"]
	if hdd.Device.Class != probe.ClassSATAHDD || hdd.Device.Model != sataHDDModel || hdd.SATA == nil ||
		hdd.SATA.Firmware != sataHDDFirmware || hdd.Device.SerialHash != serialHash(sataHDDSerial) || hdd.SATA.RotationRateRPM != 5400 {
		t.Errorf("sata-hdd: %+v %+v", hdd.Device, hdd.SATA)
	}

	nv := d["nvme"]
	if n := nv.NVMe; n == nil || n.PortMaxGen != 3 || n.PortMaxWidth != 4 || n.PCIeGen != 1 || n.PCIeWidth != 1 || nv.Device.SerialHash != serialHash(nvmeSerial) {
		t.Errorf("nvme behind a gen3 x4 port: %+v", nv.NVMe)
	}
	if nv.hasFinding("pcie-link-degraded") {
		t.Error("nvme: the endpoint is capable of gen1 x1 only: its link is not degraded")
	}

	uas := d["uas"]
	// uas reads the rotation rate (VPD page B1): rotation_rate=1 makes it a USB SSD.
	if uas.Device.Class != probe.ClassUSBSSD || uas.Device.Vendor != uasVendor || uas.Device.Model != uasProduct || uas.USB == nil || uas.USB.Driver != "uas" {
		t.Errorf("uas: %+v %+v", uas.Device, uas.USB)
	}
	bot := d["bot"]
	if bot.Device.Class != probe.ClassUSBFlash || bot.Device.SerialHash != serialHash("BOT0123456789") {
		t.Errorf("bot (removable): %+v", bot.Device)
	}

	hub := d["hub"]
	if hub.USB == nil || hub.USB.SpeedMbps != 12 || len(hub.USB.Hubs) != 1 {
		t.Fatalf("stick behind the hub: %+v", hub.USB)
	}
	// The hub is a hop of the chain, between the stick and the root port.
	checkLink(t, "hub", hub, hopWant{"usb", 12, 0, "usb-storage"}, hopWant{"usb", 12, 0, "hub"})
	if hub.Link[1].Name != strings.SplitN(hub.USB.Busdev, ".", 2)[0] || !strings.Contains(hub.Link[1].Detail, "QEMU USB Hub") {
		t.Errorf("hub hop: %+v", hub.Link[1])
	}
	if hub.Ceiling == nil || hub.Ceiling.MBPerS > 1.5 {
		t.Errorf("a full-speed chain's ceiling is about 1 MB/s: %+v", hub.Ceiling)
	}
	if !hub.hasFinding("usb-full-speed") {
		t.Errorf("hub: a 12 Mb/s chain on xHCI must get usb-full-speed: %+v", hub.Findings)
	}
	for _, id := range []string{"bot", "usb2", "uas"} {
		if d[id].hasFinding("usb-full-speed") {
			t.Errorf("%s: usb-full-speed on a %d Mb/s link", id, d[id].USB.SpeedMbps)
		}
	}

	sd := d["sd"]
	checkQEMUCard(t, "sd", sd, "sdhci-pci")
	if sd.SD != nil && sd.SD.SpecVersion != "3.0x" {
		t.Errorf("sd: spec version %q, want 3.0x (spec_version=3)", sd.SD.SpecVersion)
	}

	checkHealth(t, d)
	checkReplay(t, r, d)
}

// checkReplay probes the captured tree of a guest (CaptureStep) and must find what iomark
// found inside it: the capture holds everything probe reads.
func checkReplay(t *testing.T, r *Result, d map[string]info) {
	t.Helper()
	dir := t.TempDir()
	if err := r.Tar("capture", dir); err != nil {
		t.Fatal(err)
	}
	for id, want := range d {
		got, err := probe.Probe(want.Device.Path, probe.Options{Root: dir})
		if err != nil {
			t.Errorf("%s: probe the capture: %v", id, err)
			continue
		}
		if got.Device.Class != want.Device.Class || got.Device.Model != want.Device.Model || got.Device.SerialHash != want.Device.SerialHash ||
			len(got.Link) != len(want.Link) || got.CeilingMBPerS != want.CeilingMBPerS {
			t.Errorf("%s: the capture reads as %+v %+v, the guest as %+v %+v", id, got.Device, got.Link, want.Device, want.Link)
		}
		if got.Board == nil || want.Board == nil || got.Board.Model != want.Board.Model || got.Board.Kernel != want.Board.Kernel || got.Board.Revision != want.Board.Revision {
			t.Errorf("%s: board %+v, guest %+v", id, got.Board, want.Board)
		}
	}
	if _, err := filepath.Glob(filepath.Join(dir, "sys/block/*")); err != nil {
		t.Error(err)
	}
}

// TestRaspi3B: the Pi 3 without a revision in its device tree (QEMU adds none): the board is
// named from the device tree, no revision is invented; the SD card on sdhost and a stick on
// dwc2's root port.
func TestRaspi3B(t *testing.T) {
	t.Parallel()
	r := BootT(t, "raspi3b", Inventory()...)
	if r.Arch != "aarch64" {
		t.Errorf("arch %s", r.Arch)
	}
	d := infos(t, r)
	sd := d["sd"]
	checkQEMUCard(t, "sd", sd, "sdhost-bcm2835")
	if sd.Board == nil || sd.Board.Model != "Raspberry Pi 3 Model B" || sd.Board.Revision != "" || sd.Board.Pi != nil {
		t.Errorf("board without revision: %+v", sd.Board)
	}
	checkLink(t, "sd", sd, hopWant{"sd", sd.SD.ClockHz / 1e6 * 4, 0, "sdhost-bcm2835"})
	stick := d["stick"]
	if stick.Device.Class != probe.ClassUSBFlash || stick.USB == nil || stick.USB.Driver != "usb-storage" ||
		stick.USB.SpeedMbps != 480 || stick.USB.PortMaxSpeedMbps != 480 || len(stick.USB.Hubs) != 0 {
		t.Errorf("stick on dwc2: %+v %+v", stick.Device, stick.USB)
	}
	checkLink(t, "stick", stick, hopWant{"usb", 480, 0, "usb-storage"})
	if len(stick.Link) != 1 {
		t.Errorf("stick directly on the root port: %+v", stick.Link)
	}
}

// TestRaspi3BRevision: revision a02082 injected as the firmware would: decoded as a Pi 3 B
// 1.2 made by Sony UK; two sticks put QEMU's full-speed hub in front of them. The capture
// replays.
func TestRaspi3BRevision(t *testing.T) {
	t.Parallel()
	r := BootT(t, "raspi3b-rev", append(Inventory(), CaptureStep())...)
	d := infos(t, r)
	b := d["sd"].Board
	if b == nil || b.Model != "Raspberry Pi 3 Model B" || b.Revision != "a02082" || b.Pi == nil ||
		b.Pi.Type != "3B" || b.Pi.BoardRevision != "1.2" || b.Pi.MemoryMB != 1024 || b.Pi.Manufacturer != "Sony UK" || b.Pi.Processor != "BCM2837" {
		t.Errorf("board: %+v %+v", b, b.Pi)
	}
	for _, id := range []string{"stick", "stick2"} {
		s := d[id]
		checkLink(t, id, s, hopWant{"usb", 12, 0, "usb-storage"}, hopWant{"usb", 12, 0, "hub"})
		if s.USB == nil || s.USB.PortMaxSpeedMbps != 480 || !s.hasFinding("usb-full-speed") {
			t.Errorf("%s: %+v %+v", id, s.USB, s.Findings)
		}
	}
	checkReplay(t, r, d)
}

// TestQ35BOS: a kernel from bookworm-backports (≥ 6.9) publishes bos_descriptors: a USB 3
// device's maximum comes from its SuperSpeed capability. QEMU's devices in an EHCI (USB 2)
// port describe themselves as bcdUSB 2.00 without a BOS, so "a USB 3 drive in a USB 2 port"
// cannot be made here: that device shows no maximum, and no finding.
func TestQ35BOS(t *testing.T) {
	t.Parallel()
	r := BootT(t, "q35-bos", Inventory()...)
	if strings.HasPrefix(r.Kernel, "6.1.") {
		t.Fatalf("kernel %s: q35-bos needs the backports kernel", r.Kernel)
	}
	d := infos(t, r)
	for _, id := range []string{"bot", "uas"} {
		u := d[id].USB
		if u == nil || u.SpeedMbps != 5000 || u.MaxSpeedMbps != 5000 || u.MaxSpeedSource != "bos" {
			t.Errorf("%s on xHCI: %+v, want 5000 Mb/s from the BOS", id, u)
		}
	}
	u := d["usb2"].USB
	if u == nil || u.SpeedMbps != 480 || u.MaxSpeedMbps != 0 || u.Version != "2.00" || d["usb2"].hasFinding("usb-port-usb2") {
		t.Errorf("usb2 on EHCI: %+v %+v", u, d["usb2"].Findings)
	}
}
