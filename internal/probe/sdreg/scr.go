package sdreg

// SCR is the SD configuration register (SD Physical Layer Simplified Specification, section
// 5.6): 64 bits saying which spec version and optional features the card supports.
type SCR struct {
	Structure          int    `reg:"63:60"` // SCR_STRUCTURE; 0 is the only defined value
	SpecVersion        string // from SD_SPEC, SD_SPEC3, SD_SPEC4, SD_SPECX (Table 5-17); "" if not a defined combination
	SDSpec             int    `reg:"59:56"` // SD_SPEC
	SDSpec3            bool   `reg:"47"`    // SD_SPEC3
	SDSpec4            bool   `reg:"42"`    // SD_SPEC4
	SDSpecX            int    `reg:"41:38"` // SD_SPECX
	DataStatAfterErase int    `reg:"55"`    // DATA_STAT_AFTER_ERASE: the value erased bits read as
	Security           int    `reg:"54:52"` // SD_SECURITY: 0 none, 2 SDSC (CPRM 1.01), 3 SDHC, 4 SDXC
	BusWidths          []int  // from SD_BUS_WIDTHS [51:48]: 1 and/or 4
	ExSecurity         int    `reg:"46:43"` // EX_SECURITY
	CommandSupport     CommandSupport
}

// CommandSupport is CMD_SUPPORT [35:32] of the SCR.
type CommandSupport struct {
	SpeedClassControl bool `reg:"32"` // CMD20, needed for video speed class recording
	SetBlockCount     bool `reg:"33"` // CMD23, used by Linux for multi-block transfers when present
	ExtensionRegister bool `reg:"34"` // CMD48/49, single-block extension register access
	ExtensionMulti    bool `reg:"35"` // CMD58/59, multi-block extension register access
}

// DecodeSCR decodes the 16 hex digits of /sys/block/mmcblkN/device/scr.
func DecodeSCR(hexText string) (SCR, error) {
	s, r, err := decode[SCR]("SCR", hexText, 16)
	if err != nil {
		return SCR{}, err
	}
	widths := r.bits(48, 4)
	if widths&0x1 != 0 {
		s.BusWidths = append(s.BusWidths, 1)
	}
	if widths&0x4 != 0 {
		s.BusWidths = append(s.BusWidths, 4)
	}
	s.SpecVersion = specVersion(s.SDSpec, s.SDSpec3, s.SDSpec4, s.SDSpecX)
	return s, nil
}

// specVersion applies Table 5-17 ("Physical Layer Specification Version") of the simplified
// specification. Combinations the table does not define give "".
func specVersion(spec int, spec3, spec4 bool, specX int) string {
	switch {
	case spec == 0 && !spec3 && !spec4 && specX == 0:
		return "1.0"
	case spec == 1 && !spec3 && !spec4 && specX == 0:
		return "1.10"
	case spec == 2 && !spec3 && !spec4 && specX == 0:
		return "2.00"
	case spec == 2 && spec3 && !spec4 && specX == 0:
		return "3.0x"
	case spec == 2 && spec3 && spec4 && specX == 0:
		return "4.xx"
	case spec == 2 && spec3 && specX >= 1 && specX <= 5:
		// SD_SPECX 1 = 5.xx, 2 = 6.xx, 3 = 7.xx, 4 = 8.xx, 5 = 9.xx; SD_SPEC4 may be 0 or 1.
		return string(rune('4'+specX)) + ".xx"
	}
	return ""
}
