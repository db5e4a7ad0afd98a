package probe

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// idText writes IDENTIFY words as libata's id attribute does: "%04x" each, eight to a line.
func idText(words [256]uint16) string {
	var b strings.Builder
	for i, w := range words {
		sep := " "
		if (i+1)%8 == 0 {
			sep = "\n"
		}
		fmt.Fprintf(&b, "%04x%s", w, sep)
	}
	return b.String()
}

// identifyWords builds an IDENTIFY answer with the strings of the Samsung 870 EVO.
func identifyWords(model, fw, serial string, rotation uint16) [256]uint16 {
	var w [256]uint16
	put := func(word, n int, s string) {
		s = fmt.Sprintf("%-*s", 2*n, s)
		for i := 0; i < n; i++ {
			w[word+i] = uint16(s[2*i])<<8 | uint16(s[2*i+1])
		}
	}
	put(10, 10, serial)
	put(23, 4, fw)
	put(27, 20, model)
	w[217] = rotation
	return w
}

func TestParseATAIDText(t *testing.T) {
	id, err := parseATAIDText(idText(identifyWords("Samsung SSD 870 EVO 250GB", "SVT01B6Q", "S6PENL0T123456X", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if id.Model != "Samsung SSD 870 EVO 250GB" || id.Firmware != "SVT01B6Q" || id.RotationRateRPM != 1 ||
		id.SerialHash != hashSerial("S6PENL0T123456X") {
		t.Errorf("id = %+v", id)
	}
	id, err = parseATAIDText(idText(identifyWords("WDC WD40EFRX-68N32N0", "82.00A82", "WD-1", 5400)))
	if err != nil || id.RotationRateRPM != 5400 {
		t.Errorf("hdd: %+v %v", id, err)
	}
	for _, bad := range []string{"", "0000 0000", strings.Repeat("zzzz ", 256), strings.Repeat("12345 ", 256)} {
		if _, err := parseATAIDText(bad); err == nil {
			t.Errorf("parseATAIDText(%.20q…) accepted", bad)
		}
	}
}

// TestSATAIdentityFromSysfs: the model, firmware and rotation come from libata's id file,
// not from its 16-character INQUIRY (the defect a Debian 6.1 guest showed).
func TestSATAIdentityFromSysfs(t *testing.T) {
	for _, tc := range []struct {
		rotation uint16
		class    string
	}{{1, ClassSATASSD}, {7200, ClassSATAHDD}, {0, ClassSATA}} {
		root := t.TempDir()
		port := filepath.Join(root, "sys/devices/pci0000:00/0000:00:1f.2/ata3")
		disk := filepath.Join(port, "host2/target2:0:0/2:0:0:0")
		devDir := filepath.Join(port, "link3/dev3.0/ata_device/dev3.0")
		for _, d := range []string{disk, devDir, filepath.Join(port, "link3/ata_link/link3")} {
			os.MkdirAll(d, 0o755)
		}
		os.WriteFile(filepath.Join(disk, "model"), []byte("Samsung SSD 870 \n"), 0o644)
		os.WriteFile(filepath.Join(disk, "rev"), []byte("1B6Q\n"), 0o644)
		os.WriteFile(filepath.Join(devDir, "id"), []byte(idText(identifyWords("Samsung SSD 870 EVO 250GB", "SVT01B6Q", "S6PENL0T123456X", tc.rotation))), 0o644)
		blk := filepath.Join(disk, "block/sda")
		os.MkdirAll(blk, 0o755)
		os.Symlink("../../../2:0:0:0", filepath.Join(blk, "device"))
		s, _ := readSATA(Options{Root: root}, port, blk)
		if s.Model != "Samsung SSD 870 EVO 250GB" || s.Firmware != "SVT01B6Q" || s.SerialHash == "" || sataClass(s) != tc.class {
			t.Errorf("rotation %d: sata = %+v, class %s, want %s", tc.rotation, s, sataClass(s), tc.class)
		}
	}
	// Without libata's id file the INQUIRY strings stay, and the class cannot be told.
	root := t.TempDir()
	port := filepath.Join(root, "sys/devices/pci0000:00/0000:00:1f.2/ata1")
	disk := filepath.Join(port, "host0/target0:0:0/0:0:0:0")
	os.MkdirAll(disk, 0o755)
	os.WriteFile(filepath.Join(disk, "model"), []byte("Samsung SSD 870 \n"), 0o644)
	os.MkdirAll(filepath.Join(disk, "block/sda"), 0o755)
	os.Symlink("../../../0:0:0:0", filepath.Join(disk, "block/sda/device"))
	s, _ := readSATA(Options{Root: root}, port, filepath.Join(disk, "block/sda"))
	if s.Model != "Samsung SSD 870" || sataClass(s) != ClassSATA {
		t.Errorf("no id file: %+v", s)
	}
}

func FuzzParseATAIDText(f *testing.F) {
	f.Add(idText(identifyWords("QEMU HARDDISK", "2.5+", "QM00001", 0)))
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := parseATAIDText(s)
		if err == nil && id.Model == "" {
			t.Error("an identity without a model was accepted")
		}
	})
}
