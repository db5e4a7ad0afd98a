package probe

import (
	"os"
	"path/filepath"
	"testing"
)

func TestBOSMaxSpeed(t *testing.T) {
	tests := []struct {
		name string
		hex  string
		want int
	}{
		// ASMedia ASM1153E (public lsusb -v): USB 2.0 extension + SuperSpeed capability.
		{"asm1153e", "050f160002" + "0710021ef40000" + "0a1003000e00010aff07", 5000},
		// USB 2.0 extension only: a high-speed device.
		{"usb2 only", "050f0c0001" + "0710021ef40000", 0},
		// SuperSpeedPlus capability with one symmetric sublink pair at 10 Gb/s (LSE 3, LSM 10).
		// (bmAttributes SSAC=1: two sublink attributes, LSE 3 = Gb/s, LP 1 = SuperSpeedPlus).
		{"ssp 10G", "050f230002" + "0a1003000e00010aff07" + "14100a00" + "01000000" + "00110000" + "30400a00" + "b0400a00", 10000},
		{"truncated", "050f16", 0},
		{"not a BOS", "0a1003000e00010aff07", 0},
		{"zero length capability", "050f0a0001" + "0010030000", 0},
		{"empty", "", 0},
	}
	for _, tc := range tests {
		b := mustHex(t, tc.hex)
		if got := bosMaxSpeedMbps(b); got != tc.want {
			t.Errorf("%s: bosMaxSpeedMbps = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func FuzzBOS(f *testing.F) {
	f.Add(mustHexF("050f160002" + "0710021ef40000" + "0a1003000e00010aff07"))
	f.Add([]byte{5, 0x0f, 0xff, 0xff, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		if v := bosMaxSpeedMbps(b); v < 0 {
			t.Fatalf("negative speed %d", v)
		}
	})
}

func TestGenFromGTs(t *testing.T) {
	for in, want := range map[string]int{
		"2.5 GT/s PCIe": 1, "5.0 GT/s PCIe": 2, "5 GT/s": 2, "x": 0, "8.0 GT/s PCIe": 3, "16.0 GT/s PCIe": 4,
		"32.0 GT/s PCIe": 5, "64.0 GT/s PCIe": 6, "Unknown": 0, "": 0, "2.5 GT/s": 1,
	} {
		if got := genFromGTs(in); got != want {
			t.Errorf("genFromGTs(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestActiveScheduler(t *testing.T) {
	for in, want := range map[string]string{
		"none [mq-deadline] kyber bfq": "mq-deadline",
		"[none] mq-deadline":           "none",
		"none":                         "none",
		"mq-deadline kyber":            "",
		"":                             "",
		"[broken":                      "",
	} {
		if got := activeScheduler(in); got != want {
			t.Errorf("activeScheduler(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadIOSAndTimingNames(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ios")
	// Pi 4 second host from the same public dump: requested 50 MHz, actual 41.67 MHz, SD HS.
	os.WriteFile(p, []byte("clock:\t\t50000000 Hz\nactual clock:\t41666667 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\n"), 0o644)
	i, err := readIOS(p)
	if err != nil || i.clockHz != 41666667 || i.busWidth != 4 || i.timing != "HS" || i.kernel != "sd high-speed" || i.mbps() != 164 {
		t.Errorf("readIOS = %+v (%d Mb/s), %v", i, i.mbps(), err)
	}
	os.WriteFile(p, []byte("clock:\t\t0 Hz\n"), 0o644)
	if _, err := readIOS(p); err == nil {
		t.Error("an ios without clock and timing must be an error")
	}
	for in, want := range map[string]string{
		"legacy": "DS", "sd uhs SDR104": "SDR104", "sd uhs DDR50": "DDR50", "mmc HS200": "HS200",
		"mmc HS400 enhanced strobe": "HS400", "mmc DDR52": "DDR52", "": "",
	} {
		if got := timingName(in); got != want {
			t.Errorf("timingName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStorageQuirk(t *testing.T) {
	root := t.TempDir()
	writeTreeFile(t, root, "sys/module/usb_storage/parameters/quirks", "0bc2:2321:u,174C:55AA:u,152d:0578:\n")
	o := Options{Root: root}
	if q, u := storageQuirk(o, "174c", "55aa"); !u || q != "174C:55AA:u" {
		t.Errorf("174c:55aa = %q %v", q, u)
	}
	if q, u := storageQuirk(o, "152d", "0578"); u || q != "152d:0578:" {
		t.Errorf("152d:0578 = %q %v", q, u)
	}
	if q, u := storageQuirk(o, "0781", "5567"); u || q != "" {
		t.Errorf("0781:5567 = %q %v", q, u)
	}
}

func TestUSBClass(t *testing.T) {
	yes, no := true, false
	rot := &Queue{Rotational: &yes}
	nonRot := &Queue{Rotational: &no}
	sata := &Bridge{Kind: "usb-sata"}
	tests := []struct {
		name string
		u    USB
		d    Device
		q    *Queue
		want string
	}{
		{"identify says ssd", USB{Bridge: sata, Drive: &ATAIdentity{RotationRateRPM: 1}}, Device{}, rot, ClassUSBSSD},
		{"identify says hdd", USB{Bridge: sata, Drive: &ATAIdentity{RotationRateRPM: 5400}}, Device{}, nonRot, ClassUSBHDD},
		{"sata bridge, non-rotational", USB{Bridge: sata}, Device{}, nonRot, ClassUSBSSD},
		{"sata bridge, rotational unproven", USB{Bridge: sata}, Device{}, rot, ClassOther},
		{"nvme bridge", USB{Bridge: &Bridge{Kind: "usb-nvme"}}, Device{}, rot, ClassUSBSSD},
		{"flash controller", USB{Bridge: &Bridge{Kind: "usb-flash"}}, Device{}, rot, ClassUSBFlash},
		{"removable stick", USB{}, Device{Removable: true}, rot, ClassUSBFlash},
		{"unknown non-removable", USB{}, Device{}, rot, ClassOther},
		{"unknown non-rotational", USB{}, Device{}, nonRot, ClassUSBSSD},
	}
	for _, tc := range tests {
		if got := usbClass(&tc.u, &tc.d, tc.q); got != tc.want {
			t.Errorf("%s: usbClass = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestParseIdentify(t *testing.T) {
	b := make([]byte, 512)
	put := func(word int, s string) { // ATA strings: two characters per word, first in the high byte
		for i := 0; i+1 < len(s); i += 2 {
			b[2*(word+i/2)] = s[i+1]
			b[2*(word+i/2)+1] = s[i]
		}
	}
	put(10, "S3Z9NB0K123456  ")
	put(23, "RVT04B6Q")
	put(27, "Samsung SSD 860 EVO 500GB               ")
	b[2*217] = 1 // non-rotating
	b[2*76] = 0x0e
	id, err := parseIdentify(b)
	if err != nil {
		t.Fatal(err)
	}
	if id.Model != "Samsung SSD 860 EVO 500GB" || id.Firmware != "RVT04B6Q" || id.RotationRateRPM != 1 || id.SATAGbps != 6 || id.SerialHash == "" {
		t.Errorf("identify = %+v", id)
	}
	if _, err := parseIdentify(make([]byte, 512)); err == nil {
		t.Error("an all-zero answer (bridge that did not pass the command) must be an error")
	}
	if _, err := parseIdentify(b[:100]); err == nil {
		t.Error("a short answer must be an error")
	}
}

// TestSSRFromSysfs reads a card directory with an ssr attribute: the SD status of a real card
// (quoted by an embedded SD host crate's tests, see sdreg) shows class 10, U1, no A class.
func TestSSRFromSysfs(t *testing.T) {
	root := t.TempDir()
	card := filepath.Join(root, "sys/devices/platform/x.mmc/mmc_host/mmc0/mmc0:0001")
	os.MkdirAll(card, 0o755)
	write := func(name, v string) { os.WriteFile(filepath.Join(card, name), []byte(v+"\n"), 0o644) }
	write("type", "SD")
	write("cid", "275048534431364730da89b82900fb61")
	write("csd", "400e00325b59000073a77f800a4000eb")
	write("ssr", "80000000030000000400900014051a00"+
		"0000000000000000000000000000000000000000000000000000000000000000"+
		"00000000000000000000000000000000")
	sd, hop, note := readMMC(Options{Root: root}, card)
	if sd.SpeedClass == nil || *sd.SpeedClass != 10 || sd.UHSClass == nil || *sd.UHSClass != 1 ||
		sd.VideoClass == nil || *sd.VideoClass != 0 || sd.AppClass == nil || *sd.AppClass != "" {
		t.Errorf("classes = %v %v %v %v", sd.SpeedClass, sd.UHSClass, sd.VideoClass, sd.AppClass)
	}
	if sd.Manufacturer == "" || sd.Name != "SD16G" || sd.CommandQueue != nil {
		t.Errorf("sd = %+v", sd)
	}
	if hop.Bus != "sd" || hop.SpeedMbps != 0 || note == "" {
		t.Errorf("without debugfs: hop %+v note %q", hop, note)
	}
}

// writeTreeFile writes content to the file rel below root, making its directories.
func writeTreeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	path := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	return mustHexF(s)
}

func mustHexF(s string) []byte {
	b := make([]byte, len(s)/2)
	for i := range b {
		var v byte
		for _, c := range s[2*i : 2*i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			case c >= 'a' && c <= 'f':
				v |= byte(c - 'a' + 10)
			}
		}
		b[i] = v
	}
	return b
}

// TestEMMCFromSysfs reads an eMMC card directory (Samsung eMMC CID from a public armbian log,
// see sdreg's seeds): MMC CID layout, JEDEC manufacturer table, "mmc" bus, and the device
// tree's supports-cqe property read as command queueing.
func TestEMMCFromSysfs(t *testing.T) {
	root := t.TempDir()
	ctrl := filepath.Join(root, "sys/devices/platform/fe310000.mmc")
	card := filepath.Join(ctrl, "mmc_host/mmc1/mmc1:0001")
	os.MkdirAll(card, 0o755)
	os.MkdirAll(filepath.Join(ctrl, "of_node"), 0o755)
	os.WriteFile(filepath.Join(ctrl, "of_node", "supports-cqe"), nil, 0o644)
	os.WriteFile(filepath.Join(card, "type"), []byte("MMC\n"), 0o644)
	os.WriteFile(filepath.Join(card, "cid"), []byte("1501004d384731474303dc0db061506f\n"), 0o644)
	sd, hop, _ := readMMC(Options{Root: root}, card)
	if sd.Type != "MMC" || sd.ManfID != 0x15 || sd.Name != "M8G1GC" || sd.Manufacturer == "" {
		t.Errorf("emmc = %+v", sd)
	}
	if hop.Bus != "mmc" || hop.Name != "mmc1" {
		t.Errorf("hop = %+v", hop)
	}
	if sd.CommandQueue == nil || !*sd.CommandQueue {
		t.Errorf("command queue = %v, want true from supports-cqe", sd.CommandQueue)
	}
	if sd.Suspect || sd.SpeedClass != nil {
		t.Errorf("SD-only fields set on eMMC: %+v", sd)
	}
}
