package sdreg

import "fmt"

// CSD structure versions (CSD_STRUCTURE, bits [127:126]).
const (
	CSDv1 = 0 // SDSC: byte-addressed, up to 2 GB (4 GB with a 2048-byte READ_BL_LEN)
	CSDv2 = 1 // SDHC and SDXC: C_SIZE counts 512 KiB units, up to 2 TB
	CSDv3 = 2 // SDUC: 28-bit C_SIZE, up to 128 TB
)

// CSD is the SD card-specific data register (SD Physical Layer Simplified Specification,
// section 5.3): capacity, access timings and command classes.
type CSD struct {
	Structure        int    `reg:"127:126"` // 0 = v1 SDSC, 1 = v2 SDHC/SDXC, 2 = v3 SDUC
	Class            string // "SDSC", "SDHC", "SDXC" or "SDUC", from Structure and C_SIZE
	CapacityBytes    uint64
	TranSpeedHz      int    // TRAN_SPEED decoded as Linux does: the card's highest default clock
	TranSpeedRaw     uint8  `reg:"103:96"`  // TRAN_SPEED as read: 0x32 = 25 MHz, 0x5A = 50 MHz, 0x0B, 0x2B in UHS
	TAAC             uint8  `reg:"119:112"` // raw read access time byte
	NSAC             uint8  `reg:"111:104"` // raw read access time in clock cycles (x100)
	CCC              uint16 `reg:"95:84"`   // card command classes, bit n = class n supported
	ReadBlLen        int    `reg:"83:80"`   // log2 of the read block length (9 = 512 bytes)
	CSize            uint32 // C_SIZE as read (12, 22 or 28 bits by version)
	CSizeMult        int    // C_SIZE_MULT (v1 only)
	EraseBlkEn       bool   `reg:"46"` // erase of single 512-byte blocks allowed
	SectorSize       int    // erase sector size in write blocks (SECTOR_SIZE + 1)
	WriteBlLen       int    `reg:"25:22"` // log2 of the write block length
	PermWriteProtect bool   `reg:"13"`
	TmpWriteProtect  bool   `reg:"12"`
}

// DecodeCSD decodes the 32 hex digits of /sys/block/mmcblkN/device/csd of an SD card.
// A reserved CSD_STRUCTURE (3) is an error: the layout of the rest is then unknown.
func DecodeCSD(hexText string) (CSD, error) {
	c, r, err := decode[CSD]("CSD", hexText, 32)
	if err != nil {
		return CSD{}, err
	}
	c.TranSpeedHz = tranSpeedHz(c.TranSpeedRaw)
	c.SectorSize = int(r.bits(39, 7)) + 1

	switch c.Structure {
	case CSDv1:
		c.CSize = uint32(r.bits(62, 12))
		c.CSizeMult = int(r.bits(47, 3))
		// memory capacity = BLOCKNR * BLOCK_LEN, BLOCKNR = (C_SIZE+1) * 2^(C_SIZE_MULT+2)
		c.CapacityBytes = uint64(c.CSize+1) << uint(c.CSizeMult+2) << uint(c.ReadBlLen)
		c.Class = "SDSC"
	case CSDv2:
		c.CSize = uint32(r.bits(48, 22))
		c.CapacityBytes = uint64(c.CSize+1) * 512 * 1024
		// Spec 5.3.3: SDHC C_SIZE 0x001010-0x00FF5F (2 GB + 8.5 MB to 32 GB - 80 MB), SDXC
		// 0x00FFFF-0x3FFEFF; Linux marks a card SDXC from 0xFFFF (mmc_card_set_ext_capacity).
		if c.CSize >= 0xFFFF {
			c.Class = "SDXC"
		} else {
			c.Class = "SDHC"
		}
	case CSDv3:
		c.CSize = uint32(r.bits(48, 28))
		c.CapacityBytes = uint64(c.CSize+1) * 512 * 1024
		c.Class = "SDUC"
	default:
		return c, fmt.Errorf("CSD register: CSD_STRUCTURE %d is reserved by the SD specification; the card or the host reports a corrupt CSD", c.Structure)
	}
	return c, nil
}

// tranSpeedHz decodes TRAN_SPEED with the tables of drivers/mmc/core/sd.c (tran_exp,
// tran_mant): bits [2:0] select 100 kbit/s .. 100 Mbit/s, bits [6:3] a multiplier 1.0 .. 8.0.
// Reserved codes give 0.
func tranSpeedHz(b uint8) int {
	exps := [8]int{10000, 100000, 1000000, 10000000, 0, 0, 0, 0}
	mants := [16]int{0, 10, 12, 13, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80}
	return exps[b&7] * mants[(b>>3)&0xf]
}
