package sdreg

import (
	"strings"
	"testing"
)

func TestDecodeCIDRealCards(t *testing.T) {
	tests := []struct {
		name, hex   string
		mid         uint8
		oem         string
		oemRaw      uint16
		product     string
		rev         string
		serial      uint32
		year, month int
		date        string
	}{
		{"p2cat SanDisk Extreme 64GB", cidSanDiskSN64G, 0x03, "SD", 0x5344, "SN64G", "8.6", 0x7e650771, 2022, 11, "2022-11"},
		{"p2cat Samsung EVO Select 128GB", cidSamsungGD4QT, 0x1b, "SM", 0x534d, "GD4QT", "3.0", 0xc0305565, 2018, 5, "2018-05"},
		{"armbian Phison SD16G", cidPhisonSD16G, 0x27, "PH", 0x5048, "SD16G", "3.0", 0xda89b829, 2015, 11, "2015-11"},
		{"smc45 SanDisk SN512", cidSanDiskSN512, 0x03, "SD", 0x5344, "SN512", "8.0", 0xfff7b17b, 2021, 7, "2021-07"},
		{"usbsdmux Transcend", cidTranscendUSD, 0x74, "J`", 0x4a60, "USD", "1.0", 1099086791, 2016, 6, "2016-06"},
		{"usbsdmux Toshiba SA04G", cidToshibaSA04G, 0x02, "TM", 0x544d, "SA04G", "1.0", 666334341, 2011, 12, "2011-12"},
		{"usbsdmux Samsung GF8S5", cidSamsungGF8S5, 0x1b, "SM", 0x534d, "GF8S5", "3.0", 3628491619, 2022, 7, "2022-07"},
		{"usbsdmux 0x9f 00000", cid9F00000, 0x9f, "TI", 0x5449, "00000", "0.0", 2702265269, 2017, 4, "2017-04"},
		// litesd prints "Product name: A16GC" by reading one byte late; the bytes say SA16G.
		{"litesd Toshiba SA16G", cidToshibaSA16G, 0x02, "TM", 0x544d, "SA16G", "4.3", 0x001af44c, 2018, 9, "2018-09"},
		// The kernel fixup for this card matches name "ASTC", OEM 0x3456, 2022-02.
		{"kernel Gigastone ASTC", cidGigastoneASTC, 0x12, "4V", 0x3456, "ASTC", "2.0", 0x145, 2022, 2, "2022-02"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := DecodeCID(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			if c.ManufacturerID != tc.mid || c.OEMID != tc.oem || c.OEMIDRaw != tc.oemRaw ||
				c.Name != tc.product || c.Revision != tc.rev || c.Serial != tc.serial ||
				c.Year != tc.year || c.Month != tc.month || c.Date != tc.date {
				t.Errorf("DecodeCID(%s) = %+v", tc.hex, c)
			}
		})
	}
}

func TestDecodeCIDTextForms(t *testing.T) {
	// The kernel prints lower case and a trailing newline; people paste upper case, spaces
	// between words, or a 0x prefix.
	forms := []string{
		cidSanDiskSN64G + "\n",
		strings.ToUpper(cidSanDiskSN64G),
		"  0x" + cidSanDiskSN64G + "  ",
		"035344534e363447 867e650771016b8d\r\n",
		"03534453\t4e363447\n867e6507\n71016b8d",
	}
	for _, f := range forms {
		c, err := DecodeCID(f)
		if err != nil {
			t.Errorf("DecodeCID(%q): %v", f, err)
			continue
		}
		if c.Name != "SN64G" || c.Serial != 0x7e650771 {
			t.Errorf("DecodeCID(%q) = %+v", f, c)
		}
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	bad := []string{
		"",
		"\n",
		cidSanDiskSN64G[:30],
		cidSanDiskSN64G + "00",
		"zz5344534e363447867e650771016b8d",
		"035344534e363447867e650771016b8-",
		"0x",
	}
	for _, b := range bad {
		if _, err := DecodeCID(b); err == nil {
			t.Errorf("DecodeCID(%q): want an error", b)
		} else if !strings.Contains(err.Error(), "CID register") {
			t.Errorf("DecodeCID(%q): error %q does not name the register", b, err)
		}
		if _, err := DecodeMMCCID(b); err == nil {
			t.Errorf("DecodeMMCCID(%q): want an error", b)
		}
		if _, err := DecodeCSD(b); err == nil {
			t.Errorf("DecodeCSD(%q): want an error", b)
		}
	}
	if _, err := DecodeSCR(scrSanDiskSN64G + "0"); err == nil {
		t.Error("DecodeSCR with 17 digits: want an error")
	}
	if _, err := DecodeSSR(ssrRustCrateCard[:127]); err == nil {
		t.Error("DecodeSSR with 127 digits: want an error")
	}
	if _, err := DecodeSSR(cidSanDiskSN64G); err == nil {
		t.Error("DecodeSSR of a CID: want an error")
	}
}

func TestCIDNonPrintableBytes(t *testing.T) {
	// Constructed: OEM bytes 0x00 0x00 and a product name with a control byte (0x01) must
	// print safely while the raw bytes are kept.
	c, err := DecodeCID("0300004e0153363447867e650771016b")
	if err != nil {
		t.Fatal(err)
	}
	if c.OEMIDRaw != 0 || c.OEMID != "" {
		t.Errorf("OEM: raw %#04x text %q, want 0 and empty", c.OEMIDRaw, c.OEMID)
	}
	if c.Name != "N?S64" || c.NameRaw != [5]byte{'N', 0x01, 'S', '6', '4'} {
		t.Errorf("name %q raw %v", c.Name, c.NameRaw)
	}
}
