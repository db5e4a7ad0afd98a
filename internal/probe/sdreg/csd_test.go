package sdreg

import (
	"strings"
	"testing"
)

func TestDecodeCSDRealCards(t *testing.T) {
	tests := []struct {
		name, hex     string
		class         string
		cSize         uint32
		capacityBytes uint64
		ccc           uint16
	}{
		// p2cat gives C_SIZE and the sector count (capacity / 512) for each card.
		{"p2cat SanDisk SN64G", csdSanDiskSN64G, "SDXC", 121811, 124735488 * 512, 0xdb7},
		{"p2cat Samsung GD4QT", csdSamsungGD4QT, "SDXC", 244223, 250085376 * 512, 0x5b5},
		// usbsdmux prints C_SIZE and the capacity in bytes.
		{"usbsdmux Toshiba SA04G", csdToshibaSA04G, "SDHC", 7447, 3904897024, 0x5b5},
		{"usbsdmux Samsung GF8S5", csdSamsungGF8S5, "SDXC", 977919, 512711720960, 0xdb7},
		{"usbsdmux 0x9f 00000", csd9F00000, "SDHC", 15239, 7990149120, 0x5b5},
		// armbian and smc45 give only the raw CSD; the capacities follow from C_SIZE.
		{"armbian Phison SD16G", csdPhisonSD16G, "SDHC", 0x73a7, (0x73a7 + 1) * 512 * 1024, 0x5b5},
		{"litesd Toshiba SA16G", csdToshibaSA16G, "SDHC", 0x734f, (0x734f + 1) * 512 * 1024, 0x5b5},
		{"smc45 SanDisk SN512", csdSanDiskSN512, "SDXC", 0xee5b7, (0xee5b7 + 1) * 512 * 1024, 0xdb7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := DecodeCSD(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			if c.Structure != CSDv2 || c.Class != tc.class || c.CSize != tc.cSize ||
				c.CapacityBytes != tc.capacityBytes || c.CCC != tc.ccc {
				t.Errorf("DecodeCSD(%s) = %+v", tc.hex, c)
			}
			// Every one of these cards reports TRAN_SPEED 0x32 = 25 MHz, 512-byte blocks.
			if c.TranSpeedRaw != 0x32 || c.TranSpeedHz != 25_000_000 || c.ReadBlLen != 9 {
				t.Errorf("tran speed %#x = %d Hz, READ_BL_LEN %d", c.TranSpeedRaw, c.TranSpeedHz, c.ReadBlLen)
			}
		})
	}
}

func TestDecodeCSDVersion1(t *testing.T) {
	// Constructed from the CSD v1 layout: C_SIZE 0xF0F (3855), C_SIZE_MULT 7, READ_BL_LEN 10
	// gives (3855+1) << 9 << 10 = 2,021,654,528 bytes, a typical "2 GB" SDSC card.
	c, err := DecodeCSD(csdV1Constructed)
	if err != nil {
		t.Fatal(err)
	}
	if c.Structure != CSDv1 || c.Class != "SDSC" || c.CSize != 0xf0f || c.CSizeMult != 7 || c.ReadBlLen != 10 {
		t.Fatalf("fields: %+v", c)
	}
	if c.CapacityBytes != 2021654528 {
		t.Errorf("capacity %d, want 2021654528", c.CapacityBytes)
	}
}

// csdV1Constructed sets CSD_STRUCTURE 0, TAAC 0x26, TRAN_SPEED 0x32, CCC 0x5f5,
// READ_BL_LEN 0xa, C_SIZE 0xf0f, C_SIZE_MULT 7, WRITE_BL_LEN 0xa, the end bit, zeros elsewhere.
const csdV1Constructed = "002600325f5a03c3c003800002800001"

func TestDecodeCSDeMMCStructureIsAnError(t *testing.T) {
	// The armbian eMMC's CSD has CSD_STRUCTURE 3 ("version in EXT_CSD" for eMMC), which is
	// reserved for SD cards: DecodeCSD must refuse rather than guess a capacity.
	c, err := DecodeCSD(csdEMMCSamsungM8G1GC)
	if err == nil || !strings.Contains(err.Error(), "CSD_STRUCTURE 3") {
		t.Fatalf("want a CSD_STRUCTURE 3 error, got %v", err)
	}
	if c.Structure != 3 || c.CapacityBytes != 0 {
		t.Errorf("got %+v", c)
	}
}

func TestTranSpeed(t *testing.T) {
	tests := []struct {
		raw uint8
		hz  int
	}{
		{0x32, 25_000_000},  // default speed
		{0x5a, 50_000_000},  // high speed
		{0x0b, 100_000_000}, // SDR50
		{0x2b, 200_000_000}, // SDR104
		{0x00, 0},           // reserved multiplier
		{0x37, 0},           // reserved rate unit
	}
	for _, tc := range tests {
		if got := tranSpeedHz(tc.raw); got != tc.hz {
			t.Errorf("tranSpeedHz(%#x) = %d, want %d", tc.raw, got, tc.hz)
		}
	}
}
