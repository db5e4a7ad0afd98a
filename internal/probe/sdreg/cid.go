package sdreg

import "fmt"

// CID is the SD card identification register (SD Physical Layer Simplified Specification,
// section 5.2): 128 bits, fixed at the factory.
type CID struct {
	ManufacturerID uint8  `reg:"127:120"` // MID, assigned by the SD-3C LLC; see Manufacturer
	OEMID          string // OID [119:104] as two ASCII characters, '?' for non-printable bytes
	OEMIDRaw       uint16 `reg:"119:104"` // OID as a number, to compare bytes that do not print
	Name           string // PNM [103:64], five ASCII characters, trimmed
	NameRaw        [5]byte
	Revision       string // PRV [63:56], two BCD digits "n.m"
	Serial         uint32 `reg:"55:24"` // PSN
	Year           int    // MDT [19:12] + 2000
	Month          int    `reg:"11:8"` // MDT [11:8]; 1-12 on a conforming card
	Date           string // "YYYY-MM"
	CRC            uint8  `reg:"7:1"` // CRC7; hosts may report it as 0
}

// DecodeCID decodes the 32 hex digits of /sys/block/mmcblkN/device/cid of an SD card.
// An eMMC device has a different CID layout: use DecodeMMCCID for it.
func DecodeCID(hexText string) (CID, error) {
	c, r, err := decode[CID]("CID", hexText, 32)
	if err != nil {
		return CID{}, err
	}
	c.OEMID = printable(r.bytesAt(119, 2))
	copy(c.NameRaw[:], r.bytesAt(103, 5))
	c.Name = printable(c.NameRaw[:])
	c.Revision = bcdRevision(uint8(r.bits(56, 8)))
	c.Year = 2000 + int(r.bits(12, 8))
	c.Date = fmt.Sprintf("%04d-%02d", c.Year, c.Month)
	return c, nil
}

// bcdRevision renders a product revision byte "n.m" from its two nibbles (SD PRV, MMC PRV).
func bcdRevision(b uint8) string {
	return fmt.Sprintf("%d.%d", b>>4, b&0x0f)
}
