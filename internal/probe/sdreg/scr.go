package sdreg

// SCR is the SD configuration register (SD Physical Layer Simplified Specification, section
// 5.6): 64 bits saying which spec version and optional features the card supports.
type SCR struct {
	Structure          int    // SCR_STRUCTURE [63:60]; 0 is the only defined value
	SpecVersion        string // from SD_SPEC, SD_SPEC3, SD_SPEC4, SD_SPECX (Table 5-17); "" if not a defined combination
	SDSpec             int    // SD_SPEC [59:56]
	SDSpec3            bool   // SD_SPEC3 [47]
	SDSpec4            bool   // SD_SPEC4 [42]
	SDSpecX            int    // SD_SPECX [41:38]
	DataStatAfterErase int    // DATA_STAT_AFTER_ERASE [55]: the value erased bits read as
	Security           int    // SD_SECURITY [54:52]: 0 none, 2 SDSC (CPRM 1.01), 3 SDHC, 4 SDXC
	BusWidths          []int  // from SD_BUS_WIDTHS [51:48]: 1 and/or 4
	ExSecurity         int    // EX_SECURITY [46:43]
	CommandSupport     CommandSupport
}

// CommandSupport is CMD_SUPPORT [35:32] of the SCR.
type CommandSupport struct {
	SpeedClassControl bool // CMD20, needed for video speed class recording
	SetBlockCount     bool // CMD23, used by Linux for multi-block transfers when present
	ExtensionRegister bool // CMD48/49, single-block extension register access
	ExtensionMulti    bool // CMD58/59, multi-block extension register access
}

// DecodeSCR decodes the 16 hex digits of /sys/block/mmcblkN/device/scr.
func DecodeSCR(hexText string) (SCR, error) {
	r, err := parseRegister("SCR", hexText, 16)
	if err != nil {
		return SCR{}, err
	}
	var s SCR
	s.Structure = int(r.bits(60, 4))
	s.SDSpec = int(r.bits(56, 4))
	s.DataStatAfterErase = int(r.bits(55, 1))
	s.Security = int(r.bits(52, 3))
	widths := r.bits(48, 4)
	if widths&0x1 != 0 {
		s.BusWidths = append(s.BusWidths, 1)
	}
	if widths&0x4 != 0 {
		s.BusWidths = append(s.BusWidths, 4)
	}
	s.SDSpec3 = r.bits(47, 1) == 1
	s.ExSecurity = int(r.bits(43, 4))
	s.SDSpec4 = r.bits(42, 1) == 1
	s.SDSpecX = int(r.bits(38, 4))
	s.CommandSupport = CommandSupport{
		SpeedClassControl: r.bits(32, 1) == 1,
		SetBlockCount:     r.bits(33, 1) == 1,
		ExtensionRegister: r.bits(34, 1) == 1,
		ExtensionMulti:    r.bits(35, 1) == 1,
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
