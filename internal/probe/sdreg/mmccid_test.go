package sdreg

import "testing"

func TestDecodeMMCCIDArmbianSamsung(t *testing.T) {
	// armbian: sysfs name M8G1GC, manfid 0x15, serial 0xdc0db061, EXT_CSD rev 6. Its 3.4
	// kernel (without the JESD84-B451 fix-up) printed the date as 05/1997.
	tests := []struct {
		rev  int
		date string
	}{
		{4, "1997-05"}, // before eMMC 4.41: the 1997 cycle only
		{6, "2013-05"}, // what mainline Linux prints for this device (rev >= 5)
		{9, "2029-05"}, // JESD84-B51B cycle for EXT_CSD_REV >= 9
	}
	for _, tc := range tests {
		c, err := DecodeMMCCIDRev(cidEMMCSamsungM8G1GC, tc.rev)
		if err != nil {
			t.Fatal(err)
		}
		if c.ManufacturerID != 0x15 || c.DeviceType != 1 || c.OEMID != 0x00 || c.Name != "M8G1GC" ||
			c.Revision != "0.3" || c.Serial != 0xdc0db061 || c.Month != 5 || c.Date != tc.date {
			t.Errorf("rev %d: %+v", tc.rev, c)
		}
	}
	c, err := DecodeMMCCID(cidEMMCSamsungM8G1GC)
	if err != nil || c.Date != "2013-05" {
		t.Errorf("DecodeMMCCID default: %+v, %v", c, err)
	}
	if name, ok := MMCManufacturer(c.ManufacturerID); !ok || name != "Samsung" {
		t.Errorf("MMCManufacturer(0x15) = %q, %v", name, ok)
	}
}

func TestMMCYearCycles(t *testing.T) {
	// Every 4-bit year value under the three rules of drivers/mmc/core/mmc.c.
	for y := 0; y < 16; y++ {
		hex := "15010041424344454601000000010" + string("0123456789abcdef"[y]) + "01"
		old, _ := DecodeMMCCIDRev(hex, 4)
		mid, _ := DecodeMMCCIDRev(hex, 8)
		rev9, _ := DecodeMMCCIDRev(hex, 9)
		if old.Year != 1997+y {
			t.Errorf("y=%d rev 4: %d", y, old.Year)
		}
		wantMid := 1997 + y
		if wantMid < 2010 {
			wantMid += 16
		}
		if mid.Year != wantMid {
			t.Errorf("y=%d rev 8: %d, want %d", y, mid.Year, wantMid)
		}
		want9 := wantMid
		if want9 < 2023 {
			want9 += 16
		}
		if rev9.Year != want9 {
			t.Errorf("y=%d rev 9: %d, want %d", y, rev9.Year, want9)
		}
	}
}
