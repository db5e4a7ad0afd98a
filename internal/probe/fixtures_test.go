package probe

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func fixture(name string) Options {
	return Options{Root: filepath.Join("testdata", name)}
}

// hopWant is the part of a Hop a fixture test pins down.
type hopWant struct {
	bus                string
	speedMbps, maxMbps int
	driver             string
	ceilingAtLeast     float64 // 0: no ceiling expected
}

func TestProbeFixtures(t *testing.T) {
	tests := []struct {
		fixture, target string
		class           string
		model           string
		capacityBytes   uint64
		mountPoint      string
		fstype          string
		partStart       uint64
		aligned1MiB     bool
		link            []hopWant
		ceilingBus      string
		boardModel      string
		revision        string
	}{
		{
			fixture: "pi4-usb3-ssd-uas", target: "/home/pi",
			class: ClassUSBSSD, model: "400-02T-G2", capacityBytes: 3907029168 * 512,
			mountPoint: "/", fstype: "ext4", partStart: 1056768 * 512, aligned1MiB: true,
			link: []hopWant{
				{bus: "usb", speedMbps: 5000, maxMbps: 5000, driver: "uas", ceilingAtLeast: 1},
				{bus: "pcie", speedMbps: 5000, maxMbps: 5000, driver: "xhci_hcd", ceilingAtLeast: 1},
			},
			ceilingBus: "usb", boardModel: "Raspberry Pi 4 Model B Rev 1.4", revision: "c03114",
		},
		{
			fixture: "pi4-usb3-ssd-in-usb2-port", target: "/",
			class: ClassUSBSSD, model: "400-02T-G2", capacityBytes: 3907029168 * 512,
			mountPoint: "/", fstype: "ext4", partStart: 1056768 * 512, aligned1MiB: true,
			link: []hopWant{
				{bus: "usb", speedMbps: 480, maxMbps: 5000, driver: "uas", ceilingAtLeast: 1},
				{bus: "usb", speedMbps: 480, driver: "hub", ceilingAtLeast: 1}, // the VL805's internal hub
				{bus: "pcie", speedMbps: 5000, maxMbps: 5000, driver: "xhci_hcd", ceilingAtLeast: 1},
			},
			ceilingBus: "usb", boardModel: "Raspberry Pi 4 Model B Rev 1.4", revision: "c03114",
		},
		{
			fixture: "pi3bplus-flash-usb-storage", target: "/media/pi/USBDATA/music",
			class: ClassUSBFlash, model: "Cruzer Blade", capacityBytes: 31260672 * 512,
			mountPoint: "/media/pi/USBDATA", fstype: "ext4", partStart: 2048 * 512, aligned1MiB: true,
			link: []hopWant{
				{bus: "usb", speedMbps: 480, driver: "usb-storage", ceilingAtLeast: 1},
				{bus: "usb", speedMbps: 480, driver: "hub", ceilingAtLeast: 1}, // the LAN7515's two hubs
				{bus: "usb", speedMbps: 480, driver: "hub", ceilingAtLeast: 1},
			},
			ceilingBus: "usb", boardModel: "Raspberry Pi 3 Model B Plus Rev 1.3", revision: "a020d3",
		},
		{
			fixture: "pi4-microsd", target: "/var/lib",
			class: ClassMicroSD, model: "SN64G", capacityBytes: 124735488 * 512,
			mountPoint: "/", fstype: "ext4", partStart: 1056768 * 512, aligned1MiB: true,
			link:       []hopWant{{bus: "sd", speedMbps: 400, driver: "sdhci-iproc", ceilingAtLeast: 1}},
			ceilingBus: "sd", boardModel: "Raspberry Pi 4 Model B Rev 1.4", revision: "c03114",
		},
		{
			fixture: "pi5-nvme-gen2", target: "/",
			class: ClassNVMe, model: "Samsung SSD 980 PRO with Heatsink 1TB", capacityBytes: 1000204886016,
			mountPoint: "/", fstype: "ext4", partStart: 1056768 * 512, aligned1MiB: true,
			link:       []hopWant{{bus: "pcie", speedMbps: 5000, maxMbps: 5000, driver: "nvme", ceilingAtLeast: 1}},
			ceilingBus: "pcie", boardModel: "Raspberry Pi 5 Model B Rev 1.0", revision: "d04170",
		},
		{
			fixture: "pi5-nvme-gen3", target: "/boot/firmware",
			class: ClassNVMe, model: "Samsung SSD 980 PRO with Heatsink 1TB", capacityBytes: 1000204886016,
			mountPoint: "/boot/firmware", fstype: "vfat", partStart: 8192 * 512, aligned1MiB: true,
			link:       []hopWant{{bus: "pcie", speedMbps: 8000, maxMbps: 8000, driver: "nvme", ceilingAtLeast: 1}},
			ceilingBus: "pcie", boardModel: "Raspberry Pi 5 Model B Rev 1.0", revision: "d04170",
		},
		{
			fixture: "x86-sata-nvme", target: "/srv/data",
			class: ClassSATA, model: "Samsung SSD 860", capacityBytes: 976773168 * 512,
			mountPoint: "/srv/data", fstype: "ext4", partStart: 2048 * 512, aligned1MiB: true,
			link:       []hopWant{{bus: "sata", speedMbps: 6000, maxMbps: 6000, driver: "ahci", ceilingAtLeast: 1}},
			ceilingBus: "sata", boardModel: "Dell Inc. OptiPlex 7070",
		},
		{
			fixture: "x86-sata-nvme", target: "/home/user",
			class: ClassNVMe, model: "Samsung SSD 970 EVO Plus 1TB", capacityBytes: 1953525168 * 512,
			mountPoint: "/", fstype: "ext4", partStart: 1050624 * 512, aligned1MiB: true,
			link:       []hopWant{{bus: "pcie", speedMbps: 32000, maxMbps: 32000, driver: "nvme", ceilingAtLeast: 1}},
			ceilingBus: "pcie", boardModel: "Dell Inc. OptiPlex 7070",
		},
		{
			fixture: "pi4-flash-sector63", target: "/media/usb0",
			class: ClassUSBFlash, model: "Cruzer Blade", capacityBytes: 15633408 * 512,
			mountPoint: "/media/usb0", fstype: "vfat", partStart: 63 * 512, aligned1MiB: false,
			link: []hopWant{
				{bus: "usb", speedMbps: 480, driver: "usb-storage", ceilingAtLeast: 1},
				{bus: "usb", speedMbps: 480, driver: "hub", ceilingAtLeast: 1},
				{bus: "pcie", speedMbps: 5000, maxMbps: 5000, driver: "xhci_hcd", ceilingAtLeast: 1},
			},
			ceilingBus: "usb", boardModel: "Raspberry Pi 4 Model B Rev 1.4", revision: "c03114",
		},
	}
	for _, tc := range tests {
		t.Run(tc.fixture+tc.target, func(t *testing.T) {
			r, err := Probe(tc.target, fixture(tc.fixture))
			if err != nil {
				t.Fatalf("Probe: %v", err)
			}
			if r.Device == nil {
				t.Fatalf("no device: %+v", r)
			}
			if r.Device.Class != tc.class || r.Device.Model != tc.model || r.Device.CapacityBytes != tc.capacityBytes {
				t.Errorf("device = %+v, want class %s model %q capacity %d", *r.Device, tc.class, tc.model, tc.capacityBytes)
			}
			if r.Mount == nil || r.Mount.MountPoint != tc.mountPoint || r.Mount.FSType != tc.fstype {
				t.Errorf("mount = %+v, want %s %s", r.Mount, tc.mountPoint, tc.fstype)
			}
			if r.Partition == nil || r.Partition.StartBytes != tc.partStart || r.Partition.Aligned1MiB != tc.aligned1MiB {
				t.Errorf("partition = %+v, want start %d aligned %v", r.Partition, tc.partStart, tc.aligned1MiB)
			}
			if len(r.Link) != len(tc.link) {
				t.Fatalf("link = %+v, want %d hops", r.Link, len(tc.link))
			}
			for i, w := range tc.link {
				h := r.Link[i]
				if h.Bus != w.bus || h.SpeedMbps != w.speedMbps || h.MaxSpeedMbps != w.maxMbps || h.Driver != w.driver {
					t.Errorf("hop %d = %+v, want %+v", i, h, w)
				}
				if w.ceilingAtLeast > 0 && (h.CeilingMBPerS < w.ceilingAtLeast || h.CeilingSource == "") {
					t.Errorf("hop %d has no sourced ceiling: %+v", i, h)
				}
			}
			if r.Ceiling == nil || r.Ceiling.Bus != tc.ceilingBus || r.CeilingMBPerS != r.Ceiling.MBPerS {
				t.Errorf("ceiling = %+v (%v), want the %s hop", r.Ceiling, r.CeilingMBPerS, tc.ceilingBus)
			}
			if r.Board == nil || r.Board.Model != tc.boardModel || r.Board.Revision != tc.revision {
				t.Errorf("board = %+v, want %q revision %q", r.Board, tc.boardModel, tc.revision)
			}
		})
	}
}

func TestProbeUSBDetails(t *testing.T) {
	r, err := Probe("/", fixture("pi4-usb3-ssd-in-usb2-port"))
	if err != nil {
		t.Fatal(err)
	}
	u := r.USB
	if u == nil {
		t.Fatal("no usb section")
	}
	if u.VID != "174c" || u.PID != "55aa" || u.Driver != "uas" || u.SpeedMbps != 480 {
		t.Errorf("usb = %+v", *u)
	}
	if u.MaxSpeedMbps != 5000 || u.MaxSpeedSource != "bos" || u.PortMaxSpeedMbps != 5000 {
		t.Errorf("speeds: device %d (%s), port %d; want 5000 from bos, port 5000", u.MaxSpeedMbps, u.MaxSpeedSource, u.PortMaxSpeedMbps)
	}
	if u.Bridge == nil || u.Bridge.Vendor != "ASMedia" || !u.Bridge.UAS {
		t.Errorf("bridge = %+v", u.Bridge)
	}
	if len(u.Hubs) != 1 || !strings.Contains(u.Hubs[0], "2109:3431") {
		t.Errorf("hubs = %q, want the VL805 hub", u.Hubs)
	}
	if u.SerialHash == "" || strings.Contains(u.SerialHash, "123456789394") {
		t.Errorf("serial must be hashed, got %q", u.SerialHash)
	}
	if r.Device.SerialHash != u.SerialHash {
		t.Errorf("device serial hash %q, want the USB device's %q", r.Device.SerialHash, u.SerialHash)
	}

	// Pi 3 B+: USB 2 only controller, USB 2 device: no maximum claimed, port 480.
	r, err = Probe("/media/pi/USBDATA", fixture("pi3bplus-flash-usb-storage"))
	if err != nil {
		t.Fatal(err)
	}
	if r.USB == nil || r.USB.MaxSpeedMbps != 0 || r.USB.PortMaxSpeedMbps != 480 || r.USB.Bridge != nil {
		t.Errorf("pi3 usb = %+v", r.USB)
	}
	if len(r.USB.Hubs) != 2 {
		t.Errorf("pi3 hubs = %q, want the two LAN7515 hubs", r.USB.Hubs)
	}
}

func TestProbeSDDetails(t *testing.T) {
	r, err := Probe("/", fixture("pi4-microsd"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.SD
	if s == nil {
		t.Fatal("no sd section")
	}
	if s.ManfID != 3 || s.OEMID != "SD" || s.Name != "SN64G" || s.Manufacturer == "" || s.Date != "2022-11" {
		t.Errorf("sd = %+v", *s)
	}
	if s.Timing != "DDR50" || s.ClockHz != 50000000 || s.BusWidthBits != 4 || s.SpecVersion == "" {
		t.Errorf("bus = %s %d %d spec %q", s.Timing, s.ClockHz, s.BusWidthBits, s.SpecVersion)
	}
	if s.CapacityBytes != 63864569856 || s.Suspect {
		t.Errorf("capacity %d suspect %v %v", s.CapacityBytes, s.Suspect, s.SuspectReasons)
	}
	// An SDXC card's CSD fixes SECTOR_SIZE at 64 KiB: no erase sector is claimed.
	if s.EraseSectorBytes != 0 {
		t.Errorf("erase sector %d from an SDXC card's CSD", s.EraseSectorBytes)
	}
	if s.CommandQueue == nil || *s.CommandQueue {
		t.Errorf("command queue = %v, want false (of_node without supports-cqe)", s.CommandQueue)
	}
	// No SSR in this fixture: the classes must be absent, not zero.
	if s.SpeedClass != nil || s.AppClass != nil {
		t.Errorf("classes present without an SSR: %v %v", s.SpeedClass, s.AppClass)
	}
}

func TestProbeNVMeDetails(t *testing.T) {
	for _, tc := range []struct {
		fixture      string
		gen, portMax int
	}{{"pi5-nvme-gen2", 2, 2}, {"pi5-nvme-gen3", 3, 3}} {
		r, err := Probe("/", fixture(tc.fixture))
		if err != nil {
			t.Fatal(err)
		}
		n := r.NVMe
		if n == nil || n.PCIeGen != tc.gen || n.PCIeWidth != 1 || n.PCIeMaxGen != 4 || n.PCIeMaxWidth != 4 ||
			n.PortMaxGen != tc.portMax || n.PortMaxWidth != 1 || n.Firmware != "5B2QGXA7" || n.TempC == nil {
			t.Errorf("%s: nvme = %+v", tc.fixture, n)
		}
		// The board does not publish get_throttled in this fixture: absent, not "all clear".
		if r.Board.Throttled != nil {
			t.Errorf("%s: throttled = %+v, want absent", tc.fixture, r.Board.Throttled)
		}
	}
}

// TestJSONContract checks the key names of the contract and that absent hardware
// leaves its key out.
func TestJSONContract(t *testing.T) {
	keys := func(fix, target string) map[string]any {
		r, err := Probe(target, fixture(fix))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	has := func(m map[string]any, path ...string) bool {
		var cur any = m
		for _, p := range path {
			mm, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			if cur, ok = mm[p]; !ok {
				return false
			}
		}
		return true
	}
	usb := keys("pi4-usb3-ssd-uas", "/")
	for _, p := range [][]string{
		{"device", "name"}, {"device", "class"}, {"device", "vendor"}, {"device", "model"}, {"device", "capacity_bytes"},
		{"usb", "vid"}, {"usb", "pid"}, {"usb", "driver"}, {"usb", "speed_mbps"}, {"usb", "bridge"},
		{"board", "model"}, {"board", "revision"}, {"mount", "fstype"}, {"mount", "options"},
		{"partition", "start_bytes"}, {"partition", "aligned_1mib"}, {"ceiling_mb_per_s"},
	} {
		if !has(usb, p...) {
			t.Errorf("pi4 usb JSON lacks %v", p)
		}
	}
	link := usb["link"].([]any)[0].(map[string]any)
	for _, k := range []string{"bus", "speed_mbps", "max_speed_mbps", "driver"} {
		if _, ok := link[k]; !ok {
			t.Errorf("link hop lacks %q", k)
		}
	}
	for _, k := range []string{"sd", "nvme", "sata", "loop"} {
		if has(usb, k) {
			t.Errorf("USB drive JSON has %q", k)
		}
	}
	sd := keys("pi4-microsd", "/")
	for _, k := range []string{"manfid", "oemid", "name", "date", "manufacturer", "suspect"} {
		if !has(sd, "sd", k) {
			t.Errorf("sd JSON lacks %q", k)
		}
	}
	if has(sd, "usb") || has(sd, "nvme") {
		t.Error("SD JSON has usb or nvme")
	}
	nv := keys("pi5-nvme-gen2", "/")
	for _, k := range []string{"model", "firmware", "pcie_gen", "pcie_width", "pcie_max_gen", "pcie_max_width"} {
		if !has(nv, "nvme", k) {
			t.Errorf("nvme JSON lacks %q", k)
		}
	}
	if has(nv, "board", "throttled") {
		t.Error("pi5 JSON invents a throttled state")
	}
}

func TestProbeDeviceTargets(t *testing.T) {
	// A partition and a whole disk as targets, under a fixture root.
	r, err := Probe("/dev/sda1", fixture("pi4-flash-sector63"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Partition == nil || r.Partition.StartBytes != 63*512 || r.Mount == nil || r.Mount.MountPoint != "/media/usb0" {
		t.Errorf("partition target: partition %+v mount %+v", r.Partition, r.Mount)
	}
	r, err = Probe("/dev/nvme0n1", fixture("x86-sata-nvme"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Partition != nil || r.Device == nil || r.Device.Class != ClassNVMe || r.Mount != nil {
		t.Errorf("disk target: %+v", r)
	}
	r, err = Probe("sda1", fixture("pi4-flash-sector63")) // a bare kernel name
	if err != nil || r.Partition == nil || r.Partition.Name != "sda1" {
		t.Errorf("bare name: %+v, %v", r, err)
	}
	if _, err := Probe("/dev/sdz", fixture("x86-sata-nvme")); err == nil {
		t.Error("a missing device must be an error")
	}
}

func TestListFixtures(t *testing.T) {
	tests := []struct {
		fixture string
		want    []string // name:class
	}{
		{"x86-sata-nvme", []string{"nvme0n1:nvme", "sda:sata"}},
		{"pi4-flash-sector63", []string{"mmcblk0:microsd", "sda:usb-flash"}},
		{"pi3bplus-flash-usb-storage", []string{"mmcblk0:microsd", "sda:usb-flash"}},
	}
	for _, tc := range tests {
		l, err := List(fixture(tc.fixture))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range l {
			got = append(got, e.Name+":"+e.Class)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: list = %v, want %v", tc.fixture, got, tc.want)
		}
	}
	l, _ := List(fixture("pi4-flash-sector63"))
	if len(l) != 2 || strings.Join(l[1].MountPoints, " ") != "/media/usb0" || strings.Join(l[0].MountPoints, " ") != "/boot/firmware /" {
		t.Errorf("mount points: %+v", l)
	}
}

func TestDiskPartitions(t *testing.T) {
	parts, err := DiskPartitions(fixture("pi4-microsd"), "mmcblk0")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 || parts[0].Name != "mmcblk0p1" || parts[0].StartBytes != 8192*512 || parts[1].StartBytes != 1056768*512 {
		t.Errorf("partitions %+v", parts)
	}
	if _, err := DiskPartitions(fixture("pi4-microsd"), "mmcblk0p1"); err == nil {
		t.Error("a partition listed as a disk")
	}
	if _, err := DiskPartitions(fixture("pi4-microsd"), "sdz"); err == nil {
		t.Error("a missing disk listed")
	}
}
