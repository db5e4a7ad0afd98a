package sdreg

import "fmt"

// CID is the SD card identification register (SD Physical Layer Simplified Specification,
// section 5.2): 128 bits, fixed at the factory.
type CID struct {
	ManufacturerID uint8  // MID [127:120], assigned by the SD-3C LLC; see Manufacturer
	OEMID          string // OID [119:104] as two ASCII characters, '?' for non-printable bytes
	OEMIDRaw       uint16 // OID as a number, to compare bytes that do not print
	Name           string // PNM [103:64], five ASCII characters, trimmed
	NameRaw        [5]byte
	Revision       string // PRV [63:56], two BCD digits "n.m"
	Serial         uint32 // PSN [55:24]
	Year           int    // MDT [19:12] + 2000
	Month          int    // MDT [11:8]; 1-12 on a conforming card
	Date           string // "YYYY-MM"
	CRC            uint8  // CRC7 [7:1]; hosts may report it as 0
}

// DecodeCID decodes the 32 hex digits of /sys/block/mmcblkN/device/cid of an SD card.
// An eMMC device has a different CID layout: use DecodeMMCCID for it.
func DecodeCID(hexText string) (CID, error) {
	r, err := parseRegister("CID", hexText, 32)
	if err != nil {
		return CID{}, err
	}
	var c CID
	c.ManufacturerID = uint8(r.bits(120, 8))
	c.OEMIDRaw = uint16(r.bits(104, 16))
	c.OEMID = printable(r.bytesAt(119, 2))
	copy(c.NameRaw[:], r.bytesAt(103, 5))
	c.Name = printable(c.NameRaw[:])
	c.Revision = bcdRevision(uint8(r.bits(56, 8)))
	c.Serial = uint32(r.bits(24, 32))
	c.Year = 2000 + int(r.bits(12, 8))
	c.Month = int(r.bits(8, 4))
	c.Date = fmt.Sprintf("%04d-%02d", c.Year, c.Month)
	c.CRC = uint8(r.bits(1, 7))
	return c, nil
}

// bcdRevision renders a product revision byte "n.m" from its two nibbles (SD PRV, MMC PRV).
func bcdRevision(b uint8) string {
	return fmt.Sprintf("%d.%d", b>>4, b&0x0f)
}
