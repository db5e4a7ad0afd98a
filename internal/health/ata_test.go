package health

import (
	"slices"
	"strings"
	"testing"
)

func u64(p *uint64) int64 {
	if p == nil {
		return -1
	}
	return int64(*p)
}

func intOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func TestATAFixtures(t *testing.T) {
	for _, tc := range []struct {
		file, model     string
		family          string
		used            int
		hours           int64
		writtenBytes    int64
		mediaErrors     int64
		reallocated     int64
		pending         int64
		tempC           float64
		criticalWarning []string
	}{
		// QEMU: no family; 190 raw low byte 0x1f; POH raw 1; 5 raw 0; nothing failing.
		{"qemu-ide", "QEMU HARDDISK", "", -1, 1, -1, -1, 0, -1, 31, []string{}},
		// Samsung: 177's normalized 001 means 99% of the life used; LBAs of 512 bytes.
		{"samsung-850evo-worn", "Samsung SSD 850 EVO 500GB", "Samsung based SSDs", 99, 20837, 572549452098 * 512, 0, 0, -1, 24, []string{}},
		{"samsung-860qvo", "Samsung SSD 860 QVO 1TB", "Samsung based SSDs", 0, 7, -1, 0, 0, -1, 26, []string{}},
		// Crucial BX500: 5 counts NAND blocks in all 48 bits; no 202 in this dump.
		{"crucial-bx500", "CT120BX500SSD1", "Crucial/Micron Client SSDs", -1, 32867, -1, 0, 0, -1, 0, []string{}},
		// Crucial MX500: 202 raw is the percent used; 197 flips and is not pending; 246
		// counts LBAs; 202 at its threshold is old-age, so no alarm.
		{"crucial-mx500-worn", "CT1000MX500SSD1", "Crucial/Micron Client SSDs", 99, 12000, 23996625190 * 512, -1, 0, -1, 0, []string{}},
		// SCT status's 35 °C wins over attribute 194's 40 °C.
		{"sct-35c", "ACME SSD 256GB", "", -1, 1000, -1, -1, -1, -1, 35, []string{}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			h, err := decodeATA(ataFixture(t, tc.file), tc.model)
			if err != nil {
				t.Fatal(err)
			}
			if h.Source != SourceATA || h.Family != tc.family {
				t.Errorf("source %q family %q, want %q", h.Source, h.Family, tc.family)
			}
			if got := intOr(h.PercentageUsed); got != tc.used {
				t.Errorf("percentage used = %d (%s), want %d", got, h.PercentageUsedBasis, tc.used)
			}
			if got := u64(h.PowerOnHours); got != tc.hours {
				t.Errorf("power-on hours = %d, want %d", got, tc.hours)
			}
			if got := u64(h.DataWrittenBytes); got != tc.writtenBytes {
				t.Errorf("written = %d bytes, want %d", got, tc.writtenBytes)
			}
			if got := u64(h.MediaErrors); got != tc.mediaErrors {
				t.Errorf("media errors = %d, want %d", got, tc.mediaErrors)
			}
			if got := u64(h.ReallocatedSectors); got != tc.reallocated {
				t.Errorf("reallocated = %d, want %d", got, tc.reallocated)
			}
			if got := u64(h.PendingSectors); got != tc.pending {
				t.Errorf("pending = %d, want %d", got, tc.pending)
			}
			switch {
			case tc.tempC == 0 && h.TemperatureC != nil:
				t.Errorf("temperature = %v, want none", *h.TemperatureC)
			case tc.tempC != 0 && (h.TemperatureC == nil || *h.TemperatureC != tc.tempC):
				t.Errorf("temperature = %v, want %v", h.TemperatureC, tc.tempC)
			}
			if !slices.Equal(h.CriticalWarnings, tc.criticalWarning) || h.CriticalWarnings == nil {
				t.Errorf("critical warnings = %#v, want %#v", h.CriticalWarnings, tc.criticalWarning)
			}
			if strings.Contains(h.Note, "checksum") {
				t.Errorf("note %q: the fixtures carry checksums", h.Note)
			}
		})
	}
}

// TestATAFailingPrefail: a pre-fail attribute at or below its threshold is the drive's alarm.
func TestATAFailingPrefail(t *testing.T) {
	a := ataFixture(t, "qemu-ide")
	data := slices.Clone(a.data)
	// Row 3 is attribute 5 (remapped sectors), pre-fail (flags 0x03), threshold 0x24.
	if data[2+12*3] != 5 {
		t.Fatalf("row 3 is attribute %d", data[2+12*3])
	}
	data[2+12*3+3] = 0x20    // normalized value below the threshold
	data[511] += 0x64 - 0x20 // keep the checksum
	a.data = data
	h, err := decodeATA(a, "QEMU HARDDISK")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.CriticalWarnings, []string{"attribute-failing:Reallocated_Sector_Ct"}) {
		t.Errorf("critical warnings = %v", h.CriticalWarnings)
	}
	if strings.Contains(h.Note, "checksum") {
		t.Errorf("checksum not kept: %q", h.Note)
	}
	var failing int
	for _, at := range h.Attributes {
		if at.Failing {
			failing++
			if at.ID != 5 || at.Threshold == nil || *at.Threshold != 0x24 {
				t.Errorf("failing attribute %+v", at)
			}
		}
	}
	if failing != 1 {
		t.Errorf("%d failing attributes", failing)
	}
}

func TestATARefusesEmptyAndNotesBadChecksum(t *testing.T) {
	if _, err := decodeATA(ataAnswers{data: make([]byte, 512)}, "x"); err == nil {
		t.Error("an all-zero SMART READ DATA decoded")
	}
	a := ataFixture(t, "samsung-860qvo")
	a.data = slices.Clone(a.data)
	a.data[511]++
	h, err := decodeATA(a, "Samsung SSD 860 QVO 1TB")
	if err != nil || !strings.Contains(h.Note, "checksum") {
		t.Errorf("bad checksum: %v, note %q", err, h.Note)
	}
	// Without IDENTIFY, LBA counters assume 512-byte sectors and say so.
	a = ataFixture(t, "samsung-850evo-worn")
	a.identify = nil
	h, err = decodeATA(a, "Samsung SSD 850 EVO 500GB")
	if err != nil || !strings.Contains(h.Note, "512-byte") || u64(h.DataWrittenBytes) != 572549452098*512 {
		t.Errorf("no IDENTIFY: %v, note %q, written %d", err, h.Note, u64(h.DataWrittenBytes))
	}
}

// TestATAUnknownModelNote: a model outside the table is read with the standard meanings,
// and the note says so.
func TestATAUnknownModelNote(t *testing.T) {
	h, err := decodeATA(ataFixture(t, "qemu-ide"), "QEMU HARDDISK")
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range h.Attributes {
		if at.Name == "Unknown_Attribute" {
			t.Errorf("attribute %d of QEMU's table has no name", at.ID)
		}
	}
	if !strings.Contains(h.Note, "QEMU HARDDISK") || !strings.Contains(h.Note, "standard meanings") {
		t.Errorf("note %q", h.Note)
	}
}

func TestDecodeIdentifyLogicalSector(t *testing.T) {
	b := make([]byte, 512)
	put := func(w int, v uint16) { b[2*w], b[2*w+1] = byte(v), byte(v>>8) }
	put(106, 0x4000|1<<12)
	put(117, 2048) // 4096-byte logical sectors (in words)
	put(82, 0x4001)
	put(83, 0x4000)
	put(85, 0x4000) // supported but disabled
	put(87, 0x4000)
	id, err := decodeIdentify(b)
	if err != nil || id.logicalSectorBytes != 4096 || !id.smartSupported || id.smartEnabled {
		t.Errorf("identify = %+v, %v", id, err)
	}
}

// TestFamilies: the table's patterns match the drives they are for and not their neighbours.
func TestFamilies(t *testing.T) {
	for model, want := range map[string]string{
		"Samsung SSD 870 EVO 1TB":   "Samsung based SSDs",
		"Samsung SSD 860 PRO 256GB": "Samsung based SSDs",
		"CT500MX500SSD1":            "Crucial/Micron Client SSDs",
		"Crucial_CT250MX200SSD1":    "Crucial/Micron Client SSDs",
		"KINGSTON SA400S37240G":     "Phison Driven SSDs",
		"KINGSTON SUV500240G":       "Kingston SSDNow UV400/500",
		"WDC  WDS500G2B0A-00SM50":   "WD Blue / Red / Green and Marvell based SanDisk SSDs",
		"SanDisk SSD PLUS 1000GB":   "WD Blue / Red / Green and Marvell based SanDisk SSDs",
		"INTEL SSDSC2KW512G8":       "Intel SSDs",
		"ST2000DM008-2FR102":        "",
		"WDC WD10EZEX-08WN4A0":      "",
		"QEMU HARDDISK":             "",
	} {
		got := ""
		if f := familyOf(model); f != nil {
			got = f.name
		}
		if got != want {
			t.Errorf("%q: family %q, want %q", model, got, want)
		}
	}
	// Every family entry names its attributes.
	for _, f := range families {
		for id, d := range f.attrs {
			if d.meaning != mNone && d.name == "" {
				t.Errorf("%s: attribute %d has a meaning but no name", f.name, id)
			}
		}
	}
}
