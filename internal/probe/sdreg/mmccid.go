package sdreg

import "fmt"

// MMCCID is the CID of an eMMC device (JEDEC JESD84-B51 section 7.2, the layout of MMC system
// specification 4.x and later): its fields and widths differ from the SD CID.
type MMCCID struct {
	ManufacturerID uint8  // MID [127:120], assigned by JEDEC; see MMCManufacturer
	DeviceType     int    // CBX [113:112]: 0 removable, 1 BGA (embedded), 2 POP
	OEMID          uint8  // OID [111:104]
	Name           string // PNM [103:56], six ASCII characters, trimmed
	NameRaw        [6]byte
	Revision       string // PRV [55:48], "n.m"
	Serial         uint32 // PSN [47:16]
	Year           int    // from MDT [11:8]; see DecodeMMCCIDRev
	Month          int    // MDT [15:12]
	Date           string // "YYYY-MM"
	CRC            uint8  // CRC7 [7:1]
}

// DecodeMMCCID decodes an eMMC CID assuming EXT_CSD_REV 5 or later (eMMC 4.41+, every device
// made since 2010), where the 4-bit year counts from 2013 for values 0-12 and from 1997 above.
// Use DecodeMMCCIDRev when /sys/block/mmcblkN/device/rev gives the EXT_CSD revision.
func DecodeMMCCID(hexText string) (MMCCID, error) {
	return DecodeMMCCIDRev(hexText, 5)
}

// DecodeMMCCIDRev decodes an eMMC CID knowing the device's EXT_CSD_REV. The 4-bit MDT year
// counts from 1997; JESD84-B451 added a second cycle from 2013, which Linux applies when
// EXT_CSD_REV >= 5 and the year would otherwise fall before 2010 (drivers/mmc/core/mmc.c).
func DecodeMMCCIDRev(hexText string, extCSDRev int) (MMCCID, error) {
	r, err := parseRegister("CID", hexText, 32)
	if err != nil {
		return MMCCID{}, err
	}
	var c MMCCID
	c.ManufacturerID = uint8(r.bits(120, 8))
	c.DeviceType = int(r.bits(112, 2))
	c.OEMID = uint8(r.bits(104, 8))
	copy(c.NameRaw[:], r.bytesAt(103, 6))
	c.Name = printable(c.NameRaw[:])
	c.Revision = bcdRevision(uint8(r.bits(48, 8)))
	c.Serial = uint32(r.bits(16, 32))
	c.Month = int(r.bits(12, 4))
	c.Year = 1997 + int(r.bits(8, 4))
	if extCSDRev >= 5 && c.Year < 2010 {
		c.Year += 16
	}
	c.Date = fmt.Sprintf("%04d-%02d", c.Year, c.Month)
	c.CRC = uint8(r.bits(1, 7))
	return c, nil
}
