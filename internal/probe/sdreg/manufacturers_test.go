package sdreg

import "testing"

func TestManufacturer(t *testing.T) {
	tests := []struct {
		id        uint8
		name      string
		ok        bool
		uncertain bool
	}{
		{0x03, "SanDisk", true, false},
		{0x02, "Toshiba/Kioxia", true, false},
		{0x1b, "Samsung", true, false},
		{0x27, "Phison", true, false},
		{0x28, "Lexar", true, false},
		{0x74, "Transcend", true, false},
		{0x9f, "Kingston", true, true},
		{0x12, "Gigastone", true, true},
		{0x00, "", false, false},
		{0xff, "", false, false},
	}
	for _, tc := range tests {
		name, ok := Manufacturer(tc.id)
		if name != tc.name || ok != tc.ok || ManufacturerUncertain(tc.id) != tc.uncertain {
			t.Errorf("Manufacturer(%#02x) = %q, %v, uncertain %v", tc.id, name, ok, ManufacturerUncertain(tc.id))
		}
	}
	// The real cards' ids all resolve.
	for _, cid := range []string{cidSanDiskSN64G, cidSamsungGD4QT, cidPhisonSD16G, cidTranscendUSD, cidToshibaSA04G} {
		c, _ := DecodeCID(cid)
		if _, ok := Manufacturer(c.ManufacturerID); !ok {
			t.Errorf("manufacturer %#02x of %s unknown", c.ManufacturerID, cid)
		}
	}
	for id, m := range sdManufacturers {
		if m.Name == "" {
			t.Errorf("SD id %#02x has no name", id)
		}
	}
	for id, m := range mmcManufacturers {
		if m.Name == "" {
			t.Errorf("MMC id %#02x has no name", id)
		}
	}
}
