package sdreg

// The SD-3C LLC assigns SD manufacturer ids but does not publish the list, and eMMC ids are
// JEDEC's. These tables are collected from public sources; each entry names its sources, and
// Uncertain marks ids whose owner the sources disagree on or only one source names.
// Source keys (full references in docs/sd-identification.md):
//
//	lsmmc     mmc-utils lsmmc.c, sd_database and mmc_database
//	kernel    Linux drivers/mmc/core/card.h CID_MANFID_* (used by quirks.h fixups)
//	usbsdmux  linux-automation/usbsdmux usbsdmux/sd_regs.py MID enum and tests/reference dumps
//	p2cat     ironsheep/P2-uSD-FS DOCs/cards/*.md register dumps of retail cards
//	armbian   armbian/build pull request 246 (sysfs dumps of an SD card and an eMMC)
type manufacturer struct {
	Name      string
	Uncertain bool
}

// sdManufacturers maps an SD card's CID MID to the company the id belongs to: often the maker
// of the card's controller rather than the brand on the label.
var sdManufacturers = map[uint8]manufacturer{
	0x01: {Name: "Panasonic"},                           // lsmmc
	0x02: {Name: "Toshiba/Kioxia"},                      // lsmmc "Toshiba/Kingston/Viking"; usbsdmux dump SA04G, OID "TM" (its enum says SanDisk)
	0x03: {Name: "SanDisk"},                             // lsmmc; kernel CID_MANFID_SANDISK_SD; usbsdmux; p2cat SN64G, OID "SD"
	0x08: {Name: "Silicon Power", Uncertain: true},      // lsmmc only
	0x12: {Name: "Gigastone", Uncertain: true},          // kernel CID_MANFID_GIGASTONE (its author notes the MID list is not public)
	0x18: {Name: "Infineon", Uncertain: true},           // lsmmc only
	0x1b: {Name: "Samsung"},                             // usbsdmux; p2cat GD4QT, OID "SM"; lsmmc says "Transcend/Samsung"
	0x1c: {Name: "Transcend", Uncertain: true},          // lsmmc only
	0x1d: {Name: "ADATA", Uncertain: true},              // lsmmc only ("Corsair/AData")
	0x1e: {Name: "Transcend", Uncertain: true},          // lsmmc only
	0x1f: {Name: "Kingston", Uncertain: true},           // lsmmc only
	0x27: {Name: "Phison"},                              // lsmmc "Delkin/Phison"; armbian dump SD16G, OID "PH"
	0x28: {Name: "Lexar"},                               // lsmmc
	0x30: {Name: "SanDisk", Uncertain: true},            // lsmmc only
	0x31: {Name: "Silicon Power"},                       // lsmmc
	0x33: {Name: "STMicroelectronics", Uncertain: true}, // lsmmc only
	0x41: {Name: "Kingston"},                            // lsmmc
	0x6f: {Name: "STMicroelectronics", Uncertain: true}, // lsmmc only
	0x74: {Name: "Transcend"},                           // lsmmc; usbsdmux dump USD, OID "J`"
	0x76: {Name: "Patriot"},                             // lsmmc
	0x82: {Name: "Sony", Uncertain: true},               // lsmmc only ("Gobe/Sony")
	0x9f: {Name: "Kingston", Uncertain: true},           // kernel CID_MANFID_KINGSTON_SD; usbsdmux "Kingston SD"; also seen on unbranded cards (usbsdmux dump "00000", OID "TI")
}

// mmcManufacturers maps an eMMC CID MID (JEDEC-assigned) to its maker.
var mmcManufacturers = map[uint8]manufacturer{
	0x02: {Name: "SanDisk"},                 // kernel CID_MANFID_SANDISK; lsmmc "Kingston/SanDisk"
	0x09: {Name: "ATP", Uncertain: true},    // kernel CID_MANFID_ATP (lsmmc has ATP at 0x44)
	0x11: {Name: "Toshiba/Kioxia"},          // kernel CID_MANFID_TOSHIBA; lsmmc
	0x13: {Name: "Micron"},                  // kernel CID_MANFID_MICRON; lsmmc
	0x15: {Name: "Samsung"},                 // kernel CID_MANFID_SAMSUNG; lsmmc "Samsung/SanDisk/LG"; armbian dump M8G1GC
	0x27: {Name: "Apacer", Uncertain: true}, // kernel CID_MANFID_APACER only
	0x45: {Name: "SanDisk"},                 // lsmmc "SanDisk Corporation"
	0x70: {Name: "Kingston"},                // kernel CID_MANFID_KINGSTON; lsmmc
	0x90: {Name: "SK hynix"},                // kernel CID_MANFID_HYNIX
	0xfe: {Name: "Micron (Numonyx)"},        // kernel CID_MANFID_NUMONYX; lsmmc "Micron"
}

// Manufacturer names the maker of an SD card from its CID manufacturer id. ok is false for an
// id no public source lists.
func Manufacturer(id uint8) (name string, ok bool) {
	m, ok := sdManufacturers[id]
	return m.Name, ok
}

// ManufacturerUncertain reports whether the public sources disagree on, or only one source
// names, the owner of an SD manufacturer id; a user interface may print such a name with a
// question mark.
func ManufacturerUncertain(id uint8) bool {
	return sdManufacturers[id].Uncertain
}

// MMCManufacturer names the maker of an eMMC device from its CID manufacturer id.
func MMCManufacturer(id uint8) (name string, ok bool) {
	m, ok := mmcManufacturers[id]
	return m.Name, ok
}
