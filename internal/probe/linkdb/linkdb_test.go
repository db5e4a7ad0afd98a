package linkdb

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestUSB(t *testing.T) {
	tests := []struct {
		speedMbps int
		driver    string
		mbPerS    float64
	}{
		{480, "usb-storage", 35},
		{480, "usb_storage", 35},
		{480, "uas", 40},
		{5000, "uas", 420},
		{5000, " UAS\n", 420},
		{5000, "usb-storage", 250},
		{10000, "uas", 1000},
		{10000, "usb-storage", 580},
		{20000, "uas", 2000},
		{12, "usb-storage", 1},
		// Unknown inputs give zero.
		{20000, "usb-storage", 0},
		{1, "usb-storage", 0},
		{0, "uas", 0},
		{480, "", 0},
		{480, "sd", 0},
		{5000, "usbhid", 0},
		{-1, "uas", 0},
	}
	for _, tc := range tests {
		c := USB(tc.speedMbps, tc.driver)
		if c.MBPerS != tc.mbPerS {
			t.Errorf("USB(%d, %q) = %v, want %v", tc.speedMbps, tc.driver, c.MBPerS, tc.mbPerS)
		}
		if c.MBPerS == 0 && (c.Basis != "" || c.Source != "") {
			t.Errorf("USB(%d, %q): zero ceiling with basis %q", tc.speedMbps, tc.driver, c.Basis)
		}
	}
	// UAS never loses to BOT at the same speed.
	for _, s := range []int{12, 480, 5000, 10000} {
		if USB(s, "uas").MBPerS < USB(s, "usb-storage").MBPerS {
			t.Errorf("at %d Mb/s uas < usb-storage", s)
		}
	}
}

func TestSD(t *testing.T) {
	tests := []struct {
		timing   string
		clockHz  int
		width    int
		mbPerS   float64
		contains string
	}{
		{"sd uhs DDR50", 50_000_000, 4, 45, "DDR50"},        // Pi 4: 50 MB/s bus
		{"6 (sd uhs SDR104)", 200_000_000, 4, 90, "SDR104"}, // Pi 5 as debugfs prints it
		{"timing spec:\t6 (sd uhs SDR104)", 200_000_000, 4, 90, "SDR104"},
		{"sd high-speed", 50_000_000, 4, 22.5, "high speed"},
		{"legacy", 25_000_000, 1, 2.8, "legacy"},
		{"mmc HS200", 200_000_000, 8, 180, "HS200"},
		{"mmc HS400 enhanced strobe", 200_000_000, 8, 360, "HS400"},
		{"mmc high-speed SDR200", 200_000_000, 8, 180, "HS200"},
		// Zero: unknown timing, zero clock, bad width, SD mode on 8 bits, absurd clock.
		{"sd uhs SDR999", 200_000_000, 4, 0, ""},
		{"", 50_000_000, 4, 0, ""},
		{"sd uhs DDR50", 0, 4, 0, ""},
		{"sd uhs DDR50", 50_000_000, 0, 0, ""},
		{"sd uhs DDR50", 50_000_000, 2, 0, ""},
		{"sd uhs SDR104", 200_000_000, 8, 0, ""},
		{"sd uhs SDR104", 500_000_000, 4, 0, ""},
		{"invalid", 50_000_000, 4, 0, ""},
	}
	for _, tc := range tests {
		c := SD(tc.timing, tc.clockHz, tc.width)
		if math.Abs(c.MBPerS-tc.mbPerS) > 0.05 {
			t.Errorf("SD(%q, %d, %d) = %v, want %v", tc.timing, tc.clockHz, tc.width, c.MBPerS, tc.mbPerS)
		}
		if !strings.Contains(c.Basis, tc.contains) {
			t.Errorf("SD(%q): basis %q lacks %q", tc.timing, c.Basis, tc.contains)
		}
	}
}

func TestPCIe(t *testing.T) {
	tests := []struct {
		gen, width int
		mbPerS     float64
	}{
		{2, 1, 425},
		{3, 1, 836.9}, // measured 837 MB/s on a Pi 5 (docs/ceilings.md#pcie)
		{1, 1, 212.5},
		{3, 4, 3347.7},
		{4, 4, 6695.4},
		{5, 4, 13390.8},
		{0, 1, 0},
		{6, 1, 0},
		{3, 0, 0},
		{3, 3, 0},
		{-1, -1, 0},
	}
	for _, tc := range tests {
		if c := PCIe(tc.gen, tc.width); math.Abs(c.MBPerS-tc.mbPerS) > 0.05 {
			t.Errorf("PCIe(%d, %d) = %v, want %v", tc.gen, tc.width, c.MBPerS, tc.mbPerS)
		}
	}
}

func TestSATA(t *testing.T) {
	tests := []struct {
		gbps   float64
		mbPerS float64
	}{
		{1.5, 138}, {3.0, 276}, {6.0, 552}, {0, 0}, {12, 0}, {-6, 0}, {math.NaN(), 0},
	}
	for _, tc := range tests {
		if c := SATA(tc.gbps); c.MBPerS != tc.mbPerS {
			t.Errorf("SATA(%v) = %v, want %v", tc.gbps, c.MBPerS, tc.mbPerS)
		}
	}
}

func TestSlowest(t *testing.T) {
	usb := USB(480, "usb-storage")
	sata := SATA(6)
	if got := Slowest(sata, Ceiling{}, usb); got != usb {
		t.Errorf("Slowest = %+v, want the USB 2 hop", got)
	}
	if got := Slowest(Ceiling{}, Ceiling{}); !got.IsZero() {
		t.Errorf("Slowest of unknowns = %+v", got)
	}
	if got := Slowest(); !got.IsZero() {
		t.Errorf("Slowest() = %+v", got)
	}
}

func TestBridge(t *testing.T) {
	b, ok := Bridge(0x174c, 0x55aa)
	if !ok || b.Vendor != "ASMedia" || b.Kind != "usb-sata" || !b.UAS || !strings.Contains(b.Note, "174c:55aa:u") {
		t.Errorf("Bridge(174c:55aa) = %+v, %v", b, ok)
	}
	b, ok = Bridge(0x0bda, 0x9210)
	if !ok || b.Chip != "RTL9210/RTL9210B" || b.Kind != "usb-nvme" {
		t.Errorf("Bridge(0bda:9210) = %+v, %v", b, ok)
	}
	b, ok = Bridge(0x2537, 0x1068)
	if !ok || b.UAS {
		t.Errorf("Bridge(2537:1068) = %+v: the kernel ignores UAS on it", b)
	}
	if _, ok := Bridge(0x0781, 0x5583); ok {
		t.Error("a SanDisk flash drive id must not name a bridge")
	}
	kinds := map[string]bool{"usb-sata": true, "usb-nvme": true, "usb-sd": true, "usb-flash": true}
	for id, b := range bridges {
		if b.Vendor == "" || b.Chip == "" || !kinds[b.Kind] || b.Source == "" {
			t.Errorf("entry %04x:%04x incomplete: %+v", id.vid, id.pid, b)
		}
		if v, ok := USBVendor(id.vid); ok && v != b.Vendor && !(id.vid == 0x357d) {
			t.Errorf("entry %04x:%04x vendor %q, vendor table says %q", id.vid, id.pid, b.Vendor, v)
		}
	}
	if v, ok := USBVendor(0x152d); !ok || v != "JMicron" {
		t.Errorf("USBVendor(152d) = %q, %v", v, ok)
	}
	if _, ok := USBVendor(0xffff); ok {
		t.Error("USBVendor(ffff) known")
	}
}

// TestSourcesResolve keeps every Source anchor pointing at a heading of docs/ceilings.md.
func TestSourcesResolve(t *testing.T) {
	text, err := os.ReadFile("../../../docs/ceilings.md")
	if err != nil {
		t.Fatalf("read docs/ceilings.md: %v", err)
	}
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "## ") {
			anchors[slug(line[3:])] = true
		}
	}
	var all []Ceiling
	for _, c := range usbCeilings {
		all = append(all, c)
	}
	for name, tm := range sdTimings {
		all = append(all, SD(name, tm.maxHz, 4), SD(name, tm.maxHz, 8))
	}
	all = append(all, PCIe(1, 1), SATA(6))
	for _, c := range all {
		if c.IsZero() {
			continue
		}
		a, ok := strings.CutPrefix(c.Source, "docs/ceilings.md#")
		if !ok || !anchors[a] {
			t.Errorf("source %q has no heading in docs/ceilings.md (have %v)", c.Source, anchors)
		}
		if c.Basis == "" || strings.Contains(c.Basis, "\n") {
			t.Errorf("basis %q must be one line", c.Basis)
		}
	}
	if !anchors["usb-bridge-sources"] {
		t.Error("docs/ceilings.md lacks the usb-bridge-sources section bridge.go points to")
	}
}

// slug is GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens.
func slug(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = regexp.MustCompile(`[^a-z0-9 \-]`).ReplaceAllString(h, "")
	return strings.ReplaceAll(h, " ", "-")
}

func FuzzSD(f *testing.F) {
	f.Add("sd uhs DDR50", 50_000_000, 4)
	f.Add("6 (sd uhs SDR104)", 200_000_000, 4)
	f.Add("(", -1, 8)
	f.Add("x (", 1, 1)
	f.Fuzz(func(t *testing.T, timing string, clockHz, width int) {
		c := SD(timing, clockHz, width)
		if c.MBPerS < 0 || math.IsNaN(c.MBPerS) || c.MBPerS > 1000 {
			t.Errorf("SD(%q, %d, %d) = %v", timing, clockHz, width, c.MBPerS)
		}
	})
}
