package sdreg

import (
	"slices"
	"testing"
)

func TestDecodeSCRRealCards(t *testing.T) {
	tests := []struct {
		name, hex    string
		version      string
		security     int
		erasedOnes   int
		cmd20, cmd23 bool
		cmd48, cmd58 bool
	}{
		// SN64G: p2cat labels the card "SD 6.x"; SD_SPECX = 2.
		{"p2cat SanDisk SN64G", scrSanDiskSN64G, "6.xx", 4, 0, true, true, true, false},
		{"smc45 SanDisk SN512", scrSanDiskSN512, "6.xx", 4, 0, true, true, true, false},
		// GD4QT: p2cat labels it "SD 3.x" and DATA_STAT_AFTER_ERASE = 1.
		{"p2cat Samsung GD4QT", scrSamsungGD4QT, "3.0x", 4, 1, true, true, false, false},
		{"armbian Phison SD16G", scrPhisonSD16G, "3.0x", 3, 0, false, true, false, false},
		// usbsdmux decodes SD_SECURITY 2 (SDSC, 1.01), 3 (SDHC, 2.00), 3 and 0 for these.
		{"usbsdmux Transcend", scrTranscendUSD, "3.0x", 2, 0, false, false, false, false},
		{"usbsdmux Toshiba SA04G", scrToshibaSA04G, "3.0x", 3, 0, false, false, false, false},
		{"usbsdmux 0x9f 00000", scr9F00000, "3.0x", 3, 1, false, true, false, false},
		{"usbsdmux Samsung GF8S5", scrSamsungGF8S5, "6.xx", 0, 0, true, true, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := DecodeSCR(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			if s.SpecVersion != tc.version || s.Security != tc.security || s.DataStatAfterErase != tc.erasedOnes {
				t.Errorf("DecodeSCR(%s) = %+v", tc.hex, s)
			}
			if !slices.Equal(s.BusWidths, []int{1, 4}) {
				t.Errorf("bus widths %v, want [1 4]", s.BusWidths)
			}
			cs := s.CommandSupport
			if cs.SpeedClassControl != tc.cmd20 || cs.SetBlockCount != tc.cmd23 ||
				cs.ExtensionRegister != tc.cmd48 || cs.ExtensionMulti != tc.cmd58 {
				t.Errorf("command support %+v", cs)
			}
		})
	}
}

func TestSpecVersionTable(t *testing.T) {
	// Table 5-17 of the simplified specification, one row per version.
	tests := []struct {
		spec         int
		spec3, spec4 bool
		specX        int
		want         string
	}{
		{0, false, false, 0, "1.0"},
		{1, false, false, 0, "1.10"},
		{2, false, false, 0, "2.00"},
		{2, true, false, 0, "3.0x"},
		{2, true, true, 0, "4.xx"},
		{2, true, false, 1, "5.xx"},
		{2, true, true, 1, "5.xx"},
		{2, true, true, 2, "6.xx"},
		{2, true, true, 3, "7.xx"},
		{2, true, true, 4, "8.xx"},
		{2, true, true, 5, "9.xx"},
		{2, true, true, 6, ""},  // reserved
		{1, true, false, 0, ""}, // SD_SPEC3 needs SD_SPEC 2
		{3, false, false, 0, ""},
		{2, false, false, 1, ""},
	}
	for _, tc := range tests {
		if got := specVersion(tc.spec, tc.spec3, tc.spec4, tc.specX); got != tc.want {
			t.Errorf("specVersion(%d,%v,%v,%d) = %q, want %q", tc.spec, tc.spec3, tc.spec4, tc.specX, got, tc.want)
		}
	}
}
