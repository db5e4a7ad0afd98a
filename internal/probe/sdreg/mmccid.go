package sdreg

import "fmt"

// MMCCID is the CID of an eMMC device (JEDEC JESD84-B51 section 7.2, the layout of MMC system
// specification 4.x and later): its fields and widths differ from the SD CID.
type MMCCID struct {
	ManufacturerID uint8  `reg:"127:120"` // MID, assigned by JEDEC; see MMCManufacturer
	DeviceType     int    `reg:"113:112"` // CBX: 0 removable, 1 BGA (embedded), 2 POP
	OEMID          uint8  `reg:"111:104"` // OID
	Name           string // PNM [103:56], six ASCII characters, trimmed
	NameRaw        [6]byte
	Revision       string // PRV [55:48], "n.m"
	Serial         uint32 `reg:"47:16"` // PSN
	Year           int    // from MDT [11:8]; see DecodeMMCCIDRev
	Month          int    `reg:"15:12"` // MDT [15:12]
	Date           string // "YYYY-MM"
	CRC            uint8  `reg:"7:1"` // CRC7
}

// defaultExtCSDRev is EXT_CSD_REV 8 (eMMC 5.1), what most eMMC devices in the field report.
const defaultExtCSDRev = 8

// DecodeMMCCID decodes an eMMC CID assuming EXT_CSD_REV 5-8 (eMMC 4.41 to 5.1, the devices
// made since 2010), where the 4-bit year reads 2013-2025 for values 0-12 and 2010-2012 above.
// Use DecodeMMCCIDRev when the EXT_CSD revision is known (debugfs ext_csd byte 192, or
// /sys/block/mmcblkN/device/rev on recent kernels).
func DecodeMMCCID(hexText string) (MMCCID, error) {
	return DecodeMMCCIDRev(hexText, defaultExtCSDRev)
}

// DecodeMMCCIDRev decodes an eMMC CID knowing the device's EXT_CSD_REV. The 4-bit MDT year
// counts from 1997 and wraps every 16 years: Linux (drivers/mmc/core/mmc.c,
// mmc_decode_ext_csd) adds 16 when EXT_CSD_REV >= 5 and the year is before 2010 (JESD84-B451),
// and 16 more when EXT_CSD_REV >= 9 and the year is before 2023 (JESD84-B51B, 2025).
func DecodeMMCCIDRev(hexText string, extCSDRev int) (MMCCID, error) {
	c, r, err := decode[MMCCID]("CID", hexText, 32)
	if err != nil {
		return MMCCID{}, err
	}
	copy(c.NameRaw[:], r.bytesAt(103, 6))
	c.Name = printable(c.NameRaw[:])
	c.Revision = bcdRevision(uint8(r.bits(48, 8)))
	c.Year = 1997 + int(r.bits(8, 4))
	if extCSDRev >= 5 && c.Year < 2010 {
		c.Year += 16
	}
	if extCSDRev >= 9 && c.Year < 2023 {
		c.Year += 16
	}
	c.Date = fmt.Sprintf("%04d-%02d", c.Year, c.Month)
	return c, nil
}
