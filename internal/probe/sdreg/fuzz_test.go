package sdreg

import (
	"testing"
	"time"
)

// The fuzz targets check that no input panics and that every success keeps its invariants.
// Seeds are the real dumps of seeds_test.go plus malformed text.

func FuzzDecodeCID(f *testing.F) {
	for _, s := range []string{cidSanDiskSN64G, cidSamsungGD4QT, cidPhisonSD16G, cidSanDiskSN512,
		cidTranscendUSD, cidToshibaSA04G, cidToshibaSA16G, cidSamsungGF8S5, cid9F00000, cidGigastoneASTC,
		cidSanDiskSN64G + "\n", "", "0x", "zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeCID(s)
		if err != nil {
			return
		}
		if c.Month < 0 || c.Month > 15 || c.Year < 2000 || c.Year > 2255 || len(c.Date) != 7 {
			t.Errorf("out of range: %+v", c)
		}
		// Whatever the card says, the verdict must not panic.
		SuspectAt(c, CSD{}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	})
}

func FuzzDecodeMMCCID(f *testing.F) {
	for _, s := range []string{cidEMMCSamsungM8G1GC, cidSanDiskSN64G, "", "1501"} {
		f.Add(s, 8)
	}
	f.Add(cidEMMCSamsungM8G1GC, 9)
	f.Fuzz(func(t *testing.T, s string, rev int) {
		c, err := DecodeMMCCIDRev(s, rev)
		if err != nil {
			return
		}
		if c.Year < 1997 || c.Year > 2044 || c.DeviceType < 0 || c.DeviceType > 3 {
			t.Errorf("out of range: %+v", c)
		}
	})
}

func FuzzDecodeCSD(f *testing.F) {
	for _, s := range []string{csdSanDiskSN64G, csdSamsungGD4QT, csdPhisonSD16G, csdSanDiskSN512,
		csdToshibaSA04G, csdToshibaSA16G, csdSamsungGF8S5, csd9F00000, csdEMMCSamsungM8G1GC, csdV1Constructed, "", "40"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeCSD(s)
		if err != nil {
			return
		}
		if c.Structure > 2 || c.CapacityBytes == 0 || c.Class == "" {
			t.Errorf("bad success: %+v", c)
		}
		SuspectAt(CID{}, c, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	})
}

func FuzzDecodeSCR(f *testing.F) {
	for _, s := range []string{scrSanDiskSN64G, scrSamsungGD4QT, scrPhisonSD16G, scrTranscendUSD,
		scrToshibaSA04G, scrSamsungGF8S5, scr9F00000, "", "02"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeSCR(s)
		if err != nil {
			return
		}
		if len(c.BusWidths) > 2 {
			t.Errorf("bus widths %v", c.BusWidths)
		}
	})
}

func FuzzDecodeSSR(f *testing.F) {
	f.Add(ssrRustCrateCard)
	f.Add(ssrRustCrateCard + "\n")
	f.Add("")
	f.Add(ssrRustCrateCard[:64])
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeSSR(s)
		if err != nil {
			return
		}
		switch c.SpeedClass {
		case -1, 0, 2, 4, 6, 10:
		default:
			t.Errorf("speed class %d", c.SpeedClass)
		}
		switch c.AppClass {
		case "", "A1", "A2", "reserved":
		default:
			t.Errorf("app class %q", c.AppClass)
		}
	})
}
