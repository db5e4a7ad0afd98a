package health

import (
	"testing"
)

// FuzzDecodeNVMeLog: any bytes decode to a health or an error, never a panic; counters never
// wrap below what the drive said.
func FuzzDecodeNVMeLog(f *testing.F) {
	f.Add(loadHex(f, "nvme/checkbox-102.hex"))
	f.Add(loadHex(f, "nvme/smartmontools-537.hex"))
	f.Add(make([]byte, 511))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := decodeNVMeLog(b)
		if err != nil {
			return
		}
		if h.Source != SourceNVMe || h.PercentageUsed == nil || h.CriticalWarnings == nil {
			t.Fatalf("decoded log without its mandatory fields: %+v", h)
		}
		if h.TemperatureC != nil && (*h.TemperatureC < -100 || *h.TemperatureC > 200) {
			t.Fatalf("temperature %v", *h.TemperatureC)
		}
		_ = h.Summary()
	})
}

// FuzzDecodeATA: any four sectors (or fewer bytes) decode or fail without a panic.
func FuzzDecodeATA(f *testing.F) {
	for _, name := range []string{"qemu-ide", "samsung-850evo-worn", "crucial-mx500-worn", "sct-35c"} {
		a := ataFixture(f, name)
		f.Add(a.identify, a.data, a.thresholds, a.sct, "Samsung SSD 850 EVO 500GB")
	}
	f.Add([]byte{}, make([]byte, 10), []byte{1}, []byte{3, 0}, "CT500MX500SSD1")
	f.Fuzz(func(t *testing.T, identify, data, thresholds, sct []byte, model string) {
		h, err := decodeATA(ataAnswers{identify: identify, data: data, thresholds: thresholds, sct: sct}, model)
		if err != nil {
			return
		}
		if h.PercentageUsed != nil && (*h.PercentageUsed < 0 || *h.PercentageUsed > 255) {
			t.Fatalf("percentage used %d", *h.PercentageUsed)
		}
		if len(h.Attributes) > 30 {
			t.Fatalf("%d attributes from 30 slots", len(h.Attributes))
		}
		_ = h.Summary()
	})
}

// FuzzDecodeEMMC: any attribute text decodes or fails without a panic.
func FuzzDecodeEMMC(f *testing.F) {
	f.Add("0x01 0x01\n", "0x01\n")
	f.Add("0x0b 0x0a", "0x03")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, lifeTime, preEOL string) {
		h, err := decodeEMMC(lifeTime, preEOL)
		if err != nil {
			return
		}
		if h.PercentageUsed != nil && (*h.PercentageUsed < 0 || *h.PercentageUsed > 100) {
			t.Fatalf("percentage used %d", *h.PercentageUsed)
		}
		_ = h.Summary()
	})
}
