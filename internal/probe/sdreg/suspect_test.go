package sdreg

import (
	"strings"
	"testing"
	"time"
)

// judged is the date the heuristics are evaluated at in these tests.
var judged = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// mustDecode decodes hex with decode (DecodeCID, DecodeCSD), failing the test on an error.
func mustDecode[T any](t *testing.T, decode func(string) (T, error), hex string) T {
	t.Helper()
	v, err := decode(hex)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSuspectGenuineCards(t *testing.T) {
	cards := []struct{ name, cid, csd string }{
		{"SanDisk SN64G", cidSanDiskSN64G, csdSanDiskSN64G},
		{"Samsung GD4QT", cidSamsungGD4QT, csdSamsungGD4QT},
		{"Phison SD16G", cidPhisonSD16G, csdPhisonSD16G},
		{"SanDisk SN512", cidSanDiskSN512, csdSanDiskSN512},
		{"Toshiba SA04G", cidToshibaSA04G, csdToshibaSA04G},
		{"Toshiba SA16G", cidToshibaSA16G, csdToshibaSA16G},
		{"Samsung GF8S5", cidSamsungGF8S5, csdSamsungGF8S5},
	}
	for _, c := range cards {
		if bad, why := SuspectAt(mustDecode(t, DecodeCID, c.cid), mustDecode(t, DecodeCSD, c.csd), judged); bad {
			t.Errorf("%s judged suspect: %v", c.name, why)
		}
	}
}

// withCID returns the SanDisk SN64G CID with some bytes replaced (constructed cases).
func withCID(t *testing.T, edit func(b []byte)) CID {
	t.Helper()
	r, err := parseRegister("CID", cidSanDiskSN64G, 32)
	if err != nil {
		t.Fatal(err)
	}
	b := []byte(r)
	edit(b)
	return mustDecode(t, DecodeCID, hexOf(b))
}

func TestSuspectEachHeuristic(t *testing.T) {
	genuineCSD := mustDecode(t, DecodeCSD, csdSanDiskSN64G)
	tests := []struct {
		name   string
		cid    CID
		csd    CSD
		reason string
	}{
		{"manfid zero", withCID(t, func(b []byte) { b[0] = 0 }), genuineCSD, "manufacturer id 0x00"},
		{"blank OEM", withCID(t, func(b []byte) { b[1], b[2] = 0, 0 }), genuineCSD, "OEM id 0x0000 is blank"},
		{"non-ASCII OEM", withCID(t, func(b []byte) { b[1] = 0x9c }), genuineCSD, "not two ASCII characters"},
		{"SanDisk id, Samsung OEM", withCID(t, func(b []byte) { b[1], b[2] = 'S', 'M' }), genuineCSD, `always comes with OEM id "SD"`},
		{"non-ASCII name", withCID(t, func(b []byte) { b[5] = 0xff }), genuineCSD, "product name is not ASCII"},
		{"month 0", withCID(t, func(b []byte) { b[14] = 0x60 }), genuineCSD, "month 0 is not a month"},
		{"month 13", withCID(t, func(b []byte) { b[14] = 0x6d }), genuineCSD, "month 13 is not a month"},
		{"future date", withCID(t, func(b []byte) { b[13], b[14] = 0x01, 0xb1 }), genuineCSD, "2027-01 is in the future"},
		{"year field zero", withCID(t, func(b []byte) { b[13], b[14] = 0x00, 0x01 }), genuineCSD, "year field is 0"},
		{"SDHC before 2006", withCID(t, func(b []byte) { b[13], b[14] = 0x00, 0x31 }), genuineCSD, "predates SDHC"},
		{"serial zero", withCID(t, func(b []byte) { copy(b[9:13], []byte{0, 0, 0, 0}) }), genuineCSD, "is zero"},
		{"serial all ones", withCID(t, func(b []byte) { copy(b[9:13], []byte{0xff, 0xff, 0xff, 0xff}) }), genuineCSD, "all ones"},
		{"serial repeated byte", withCID(t, func(b []byte) { copy(b[9:13], []byte{0xaa, 0xaa, 0xaa, 0xaa}) }), genuineCSD, "repeats one byte"},
		{"serial 12345678", withCID(t, func(b []byte) { copy(b[9:13], []byte{0x12, 0x34, 0x56, 0x78}) }), genuineCSD, "consecutive digits"},
		{"serial 87654321", withCID(t, func(b []byte) { copy(b[9:13], []byte{0x87, 0x65, 0x43, 0x21}) }), genuineCSD, "consecutive digits"},
		{"serial 01020304", withCID(t, func(b []byte) { copy(b[9:13], []byte{0x01, 0x02, 0x03, 0x04}) }), genuineCSD, "consecutive bytes"},
		{"32 GiB claimed", mustDecode(t, DecodeCID, cidSanDiskSN64G), CSD{Structure: CSDv2, Class: "SDXC", CSize: 0xffff, CapacityBytes: 32 << 30}, "does not match any size"},
		{"C_SIZE between SDHC and SDXC", mustDecode(t, DecodeCID, cidSanDiskSN64G), CSD{Structure: CSDv2, CSize: 0xff80, CapacityBytes: 0xff81 * 512 * 1024}, "outside the SDHC/SDXC range"},
		{"v1 over 4 GB", mustDecode(t, DecodeCID, cidSanDiskSN64G), CSD{Structure: CSDv1, CapacityBytes: 8 << 30}, "impossible for a standard-capacity"},
		{"SDHC C_SIZE too small", mustDecode(t, DecodeCID, cidSanDiskSN64G), CSD{Structure: CSDv2, CSize: 0x0fff, CapacityBytes: 0x1000 * 512 * 1024}, "outside the SDHC/SDXC range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad, why := SuspectAt(tc.cid, tc.csd, judged)
			if !bad {
				t.Fatalf("not suspect; want a reason containing %q", tc.reason)
			}
			found := false
			for _, r := range why {
				found = found || strings.Contains(r, tc.reason)
			}
			if !found {
				t.Errorf("reasons %q lack %q", why, tc.reason)
			}
		})
	}
}

func TestSuspectUnknownCapacityIsNotAReason(t *testing.T) {
	// Without a CSD (CapacityBytes 0) the capacity rule must stay silent.
	if bad, why := SuspectAt(mustDecode(t, DecodeCID, cidSanDiskSN64G), CSD{}, judged); bad {
		t.Errorf("suspect without CSD: %v", why)
	}
}

func TestSerialPatternLeavesRealSerialsAlone(t *testing.T) {
	for _, s := range []uint32{0x7e650771, 0xc0305565, 0xda89b829, 0xfff7b17b, 0x4182bbc7, 0x145} {
		if r := serialPattern(s); r != "" {
			t.Errorf("serial %#08x: %s", s, r)
		}
	}
}

// TestSuspectUnsetClock: a board without a real-time clock reads 1970 until NTP answers (a
// Raspberry Pi's first boot, QEMU's raspi3b); its clock cannot put a card's date in the
// future (a Debian 6.1 guest on raspi3b warned "manufacture date 2006-02 is in the future").
func TestSuspectUnsetClock(t *testing.T) {
	cid := withCID(t, func(b []byte) { b[13], b[14] = 0x00, 0x62 }) // 2006-02
	epoch := time.Unix(0, 0).UTC()
	if bad, why := SuspectAt(cid, mustDecode(t, DecodeCSD, csdSanDiskSN64G), epoch); bad {
		t.Errorf("suspect at a 1970 clock: %v", why)
	}
	// A clock that is set still catches a future date.
	future := withCID(t, func(b []byte) { b[13], b[14] = 0x01, 0xb1 }) // 2027-01
	if bad, _ := SuspectAt(future, mustDecode(t, DecodeCSD, csdSanDiskSN64G), time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)); !bad {
		t.Error("a 2027 card on a 2026 clock must be suspect")
	}
}
