package health

import "regexp"

// meaning says what an ATA SMART attribute tells about a drive's health. Vendors number and
// scale their attributes differently; the table below says, per family, which attribute
// means what and in which unit. Learned from smartmontools' drive database (drivedb.h,
// https://github.com/smartmontools/smartmontools/blob/master/drivedb/drivedb.h) and the
// vendors' documents it cites; the table is our own, and small: only the attributes iomark
// reports.
type meaning int

const (
	mNone          meaning = iota
	mPowerOnHours          // raw, low 24 bits: hours (drivedb "raw24(raw8)"; "msec24hour32" keeps hours in the low 32)
	mPowerCycles           // raw: count
	mTemperature           // raw, low byte: °C (drivedb "tempminmax")
	mReallocated           // raw: reallocated sectors or retired blocks
	mPending               // raw: sectors waiting to be remapped
	mUncorrectable         // raw: errors ECC could not correct (media_errors)
	mWritten               // raw × unitBytes: host writes
	mRead                  // raw × unitBytes: host reads
	mLifeLeftValue         // normalized value: percent of rated life remaining (100 new)
	mLifeUsedRaw           // raw: percent of rated life used
)

// attrDef is what one attribute means in a family. unitBytes 0 means the drive's logical
// sector size (attributes counting LBAs). rawMask keeps the bits of the raw field that hold
// the count (0: all 48).
type attrDef struct {
	name      string
	meaning   meaning
	unitBytes uint64
	rawMask   uint64
}

const (
	gib    = 1 << 30
	mib32  = 32 << 20
	mask16 = 0xffff
	mask24 = 0xffffff
)

// defaultAttrs are the meanings most drives share (drivedb.h, entry "DEFAULT"; ATA/ATAPI-8
// and SFF-8035i name 5, 9, 12, 194, 197 and 198); entries with mNone only name an attribute
// for people. A family entry replaces an attribute's meaning, or removes it with mNone.
var defaultAttrs = map[int]attrDef{
	1:   {"Raw_Read_Error_Rate", mNone, 0, 0},
	3:   {"Spin_Up_Time", mNone, 0, 0},
	4:   {"Start_Stop_Count", mNone, 0, 0},
	5:   {"Reallocated_Sector_Ct", mReallocated, 0, mask16}, // drivedb: raw16(raw16)
	7:   {"Seek_Error_Rate", mNone, 0, 0},
	10:  {"Spin_Retry_Count", mNone, 0, 0},
	177: {"Wear_Leveling_Count", mNone, 0, 0}, // its scale is the vendor's: see the families
	183: {"Runtime_Bad_Block", mNone, 0, 0},
	184: {"End-to-End_Error", mNone, 0, 0},
	188: {"Command_Timeout", mNone, 0, 0},
	192: {"Power-Off_Retract_Count", mNone, 0, 0},
	193: {"Load_Cycle_Count", mNone, 0, 0},
	195: {"Hardware_ECC_Recovered", mNone, 0, 0},
	196: {"Reallocated_Event_Count", mNone, 0, 0},
	199: {"UDMA_CRC_Error_Count", mNone, 0, 0},
	9:   {"Power_On_Hours", mPowerOnHours, 0, mask24}, // drivedb: raw24(raw8)
	12:  {"Power_Cycle_Count", mPowerCycles, 0, 0},
	187: {"Reported_Uncorrect", mUncorrectable, 0, 0},
	190: {"Airflow_Temperature_Cel", mTemperature, 0, 0xff},
	194: {"Temperature_Celsius", mTemperature, 0, 0xff},
	197: {"Current_Pending_Sector", mPending, 0, 0},
	198: {"Offline_Uncorrectable", mUncorrectable, 0, 0},
	241: {"Total_LBAs_Written", mWritten, 0, 0},
	242: {"Total_LBAs_Read", mRead, 0, 0},
}

// ssdDefaultAttrs apply to solid-state drives (IDENTIFY word 217 = 1) of no known family:
// drivedb's DEFAULT names 233 Media_Wearout_Indicator for SSDs, the normalized remaining life
// of Intel's documents ("Intel SSD 320 Series ... SMART Attributes", attribute E9h).
var ssdDefaultAttrs = map[int]attrDef{
	233: {"Media_Wearout_Indicator", mLifeLeftValue, 0, 0},
}

// family is a set of drives whose attributes differ from the defaults.
type family struct {
	name  string // drivedb's family name
	model *regexp.Regexp
	attrs map[int]attrDef
}

// families, first match wins. Model patterns are simplified from drivedb's (the common
// consumer drives of each family); names and units are drivedb's.
var families = []family{
	{
		// drivedb "Samsung based SSDs". 177 is the normalized remaining life per Samsung's
		// "SSD Application Note: SMART attributes" (Wear Leveling Count: "the normalized
		// value starts at 100 and decreases"); a worn 850 EVO reads 001 (public smartctl
		// output in Napsty/check_smart#73).
		name:  "Samsung based SSDs",
		model: regexp.MustCompile(`(?i)^(samsung )?(ssd (8[4-8]0|750|470|830|pm8[0-9]{2}|sm8[0-9]{2})|samsung ssd|mz7|mz-7|mzn|portable ssd t5)`),
		attrs: map[int]attrDef{
			177: {"Wear_Leveling_Count", mLifeLeftValue, 0, 0},
			187: {"Uncorrectable_Error_Cnt", mUncorrectable, 0, 0},
		},
	},
	{
		// drivedb "Crucial/Micron Client SSDs" (MX100-MX500, BX300, BX500, M500-M600, 1100,
		// 1300): 202 "norm = max(100-raw,0); raw = percent_lifetime_used", 246 counts LBAs,
		// 197 "MX500: May flip 0 <> 1" (ticket 1227) so it is not read as pending sectors.
		name:  "Crucial/Micron Client SSDs",
		model: regexp.MustCompile(`(?i)^(crucial_)?ct[0-9]+(mx[0-9]{3}|bx[0-9]{3}|m5[0-9]{2}|m6[0-9]{2})ssd|^micron[_ ](m5[0-9]{2}|m600|1100|1300)`),
		attrs: map[int]attrDef{
			5:   {"Reallocate_NAND_Blk_Cnt", mReallocated, 0, 0},
			197: {"Current_Pending_ECC_Cnt", mNone, 0, 0},
			202: {"Percent_Lifetime_Remain", mLifeUsedRaw, 0, 0},
			241: {"", mNone, 0, 0},
			246: {"Total_LBAs_Written", mWritten, 0, 0},
		},
	},
	{
		// drivedb "Kingston SSDNow UV400/500": 231 SSD_Life_Left, host reads and writes
		// in GiB.
		name:  "Kingston SSDNow UV400/500",
		model: regexp.MustCompile(`(?i)^kingston suv[45]00`),
		attrs: map[int]attrDef{
			231: {"SSD_Life_Left", mLifeLeftValue, 0, 0},
			241: {"Host_Writes_GiB", mWritten, gib, 0},
			242: {"Host_Reads_GiB", mRead, gib, 0},
		},
	},
	{
		// drivedb "Phison Driven SSDs" (Kingston A400, UV300, Patriot, PNY CS900, KIOXIA
		// EXCERIA SATA, Goodram CX400, ...): 231 SSD_Life_Left, lifetime writes and reads
		// in GiB, 5 retired blocks, 197 not in use.
		name:  "Phison Driven SSDs",
		model: regexp.MustCompile(`(?i)^kingston  ?sa400|^kingston suv300|^kingston skc[34]|^patriot (blast|blaze|flare|ignite|burst)|^pny cs(900|1311|2211)|^kioxia-exceria sata|^ssdpr-cx400|^team l3 evo|^msi s270`),
		attrs: map[int]attrDef{
			5:   {"Retired_Block_Count", mReallocated, 0, 0},
			197: {"Not_In_Use", mNone, 0, 0},
			231: {"SSD_Life_Left", mLifeLeftValue, 0, 0},
			241: {"Lifetime_Writes_GiB", mWritten, gib, 0},
			242: {"Lifetime_Reads_GiB", mRead, gib, 0},
		},
	},
	{
		// drivedb "WD Blue / Red / Green SSDs" and "Marvell based SanDisk SSDs" (SSD PLUS,
		// Ultra 3D): host writes and reads in GiB.
		name:  "WD Blue / Red / Green and Marvell based SanDisk SSDs",
		model: regexp.MustCompile(`(?i)^wdc  ?wds|^wd (green|blue|red)|^sandisk (ssd plus|sdssda|sdssdh|ultra ii|sd[5-9]s)|^sd ultra 3d`),
		attrs: map[int]attrDef{
			241: {"Host_Writes_GiB", mWritten, gib, 0},
			242: {"Host_Reads_GiB", mRead, gib, 0},
		},
	},
	{
		// drivedb "Intel 320/330/335/520/53x/540/545s ... Series SSDs": 241 and 242 count
		// 32 MiB units; 233 is the normalized remaining life.
		name:  "Intel SSDs",
		model: regexp.MustCompile(`(?i)^intel ssdsc`),
		attrs: map[int]attrDef{
			233: {"Media_Wearout_Indicator", mLifeLeftValue, 0, 0},
			241: {"Host_Writes_32MiB", mWritten, mib32, 0},
			242: {"Host_Reads_32MiB", mRead, mib32, 0},
		},
	},
}

// familyOf returns the family of a drive model, or nil.
func familyOf(model string) *family {
	for i := range families {
		if families[i].model.MatchString(model) {
			return &families[i]
		}
	}
	return nil
}

// defFor is what attribute id means for a drive of family f (nil: none known).
func defFor(f *family, ssd bool, id int) (attrDef, bool) {
	if f != nil {
		if d, ok := f.attrs[id]; ok {
			return d, d.meaning != mNone || d.name != ""
		}
	}
	if ssd {
		if d, ok := ssdDefaultAttrs[id]; ok {
			return d, true
		}
	}
	d, ok := defaultAttrs[id]
	return d, ok
}
