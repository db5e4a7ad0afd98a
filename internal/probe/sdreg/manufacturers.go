package sdreg

// The SD-3C LLC assigns SD manufacturer ids but does not publish the list, and JEDEC's eMMC
// ids live in JEP106-derived tables of the MMC spec. These tables are collected from public
// sources; each entry names its sources, and Uncertain marks ids whose owner differs between
// sources or that are only seen on a few cards. Source keys (docs/sd-identification.md):
//
//	lsmmc   mmc-utils lsmmc.c sd_database / mmc_database (ST-Ericsson, in mmc-utils upstream)
//	kernel  Linux drivers/mmc/core/card.h CID_MANFID_* and quirks.h
//	p2cat   ironsheep/P2-uSD-FS DOCs/cards/*.md register dumps of retail cards
type manufacturer struct {
	Name      string
	Uncertain bool
}

// sdManufacturers maps an SD card's CID MID to the company that made the card controller
// or had the id assigned (a retail brand often buys cards made under another id).
var sdManufacturers = map[uint8]manufacturer{
	0x01: {Name: "Panasonic"},                           // lsmmc
	0x02: {Name: "Toshiba/Kioxia"},                      // lsmmc ("Toshiba/Kingston/Viking"); Kioxia is Toshiba Memory since 2019
	0x03: {Name: "SanDisk"},                             // lsmmc; kernel CID_MANFID_SANDISK_SD; p2cat (OID "SD")
	0x08: {Name: "Silicon Power", Uncertain: true},      // lsmmc only
	0x18: {Name: "Infineon", Uncertain: true},           // lsmmc only
	0x1b: {Name: "Samsung"},                             // p2cat (OID "SM"); lsmmc says "Transcend/Samsung"
	0x1c: {Name: "Transcend", Uncertain: true},          // lsmmc only
	0x1d: {Name: "ADATA"},                               // lsmmc ("Corsair/AData")
	0x1e: {Name: "Transcend", Uncertain: true},          // lsmmc only
	0x1f: {Name: "Kingston", Uncertain: true},           // lsmmc only
	0x27: {Name: "Phison"},                              // lsmmc ("Delkin/Phison"); p2cat (PNY, Gigastone cards, OID "PH")
	0x28: {Name: "Lexar"},                               // lsmmc; p2cat
	0x30: {Name: "SanDisk", Uncertain: true},            // lsmmc only
	0x31: {Name: "Silicon Power"},                       // lsmmc
	0x33: {Name: "STMicroelectronics", Uncertain: true}, // lsmmc only
	0x41: {Name: "Kingston"},                            // lsmmc; kernel CID_MANFID_KINGSTON_SD
	0x6f: {Name: "STMicroelectronics", Uncertain: true}, // lsmmc only
	0x74: {Name: "Transcend"},                           // lsmmc
	0x76: {Name: "Patriot"},                             // lsmmc
	0x82: {Name: "Sony", Uncertain: true},               // lsmmc ("Gobe/Sony")
}

// mmcManufacturers maps an eMMC CID MID (JEDEC-assigned) to its maker.
var mmcManufacturers = map[uint8]manufacturer{
	0x02: {Name: "SanDisk"},          // kernel CID_MANFID_SANDISK (MMC); lsmmc "Kingston/SanDisk"
	0x11: {Name: "Toshiba/Kioxia"},   // kernel CID_MANFID_TOSHIBA; lsmmc
	0x13: {Name: "Micron"},           // kernel CID_MANFID_MICRON; lsmmc
	0x15: {Name: "Samsung"},          // kernel CID_MANFID_SAMSUNG; lsmmc "Samsung/SanDisk/LG"
	0x45: {Name: "SanDisk"},          // lsmmc "SanDisk Corporation"
	0x70: {Name: "Kingston"},         // kernel CID_MANFID_KINGSTON; lsmmc
	0x90: {Name: "SK hynix"},         // kernel CID_MANFID_HYNIX
	0xfe: {Name: "Micron (Numonyx)"}, // kernel CID_MANFID_NUMONYX; lsmmc "Micron"
}

// Manufacturer names the maker of an SD card from its CID manufacturer id. ok is false for an
// id no public source lists.
func Manufacturer(id uint8) (name string, ok bool) {
	m, ok := sdManufacturers[id]
	return m.Name, ok
}

// ManufacturerUncertain reports whether the public sources disagree on, or only thinly
// support, the owner of an SD manufacturer id; a user interface may print such a name with
// a question mark.
func ManufacturerUncertain(id uint8) bool {
	return sdManufacturers[id].Uncertain
}

// MMCManufacturer names the maker of an eMMC device from its CID manufacturer id.
func MMCManufacturer(id uint8) (name string, ok bool) {
	m, ok := mmcManufacturers[id]
	return m.Name, ok
}
