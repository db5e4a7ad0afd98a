package linkdb

// BridgeInfo describes the chip of a USB storage bridge or flash controller.
type BridgeInfo struct {
	Vendor string
	Chip   string // one chip, or several "/"-separated when they share a VID:PID
	Kind   string // "usb-sata", "usb-nvme", "usb-sd", "usb-flash"
	UAS    bool   // the chip speaks UAS and Linux binds the uas driver to it by default
	Note   string // known quirks and their fix, "" if none known
	Source string // where the VID:PID-to-chip link comes from (keys below)
}

type vidPID struct{ vid, pid uint16 }

// Source keys (full references in docs/ceilings.md#usb-bridge-sources):
//
//	usbids      the usb.ids list of linux-usb.org (usbids/usbids), product lines
//	lsusb       lsusb output quoted in public bug reports and guides (newer usb.ids names)
//	uas-h       Linux drivers/usb/storage/unusual_uas.h entries and their quirk flags
//	uas-detect  Linux drivers/usb/storage/uas-detect.h (the ASMedia comment)
//	pi-uas      the Raspberry Pi forum post on slow USB 3 SSDs on the Pi 4 (usb-storage.quirks)
var bridges = map[vidPID]BridgeInfo{
	{0x174c, 0x55aa}: {"ASMedia", "ASM1051E/ASM1053E/ASM1153/ASM1153E", "usb-sata", true,
		"one id for several chips: Linux refuses UAS on the ASM1051 and keeps it on the ASM1053/1153; if UAS errors appear, usb-storage.quirks=174c:55aa:u",
		"usbids, uas-detect, pi-uas"},
	{0x174c, 0x1153}: {"ASMedia", "ASM1153", "usb-sata", true, "", "usbids"},
	{0x174c, 0x5106}: {"ASMedia", "ASM1051", "usb-sata", false,
		"Linux does not use UAS with the ASM1051 (broken UAS); expect usb-storage", "usbids, uas-detect"},
	{0x174c, 0x5136}: {"ASMedia", "ASM1053", "usb-sata", true,
		"early ASM1053 has problems with large transfers over UAS", "usbids, uas-detect"},
	{0x174c, 0x2362}: {"ASMedia", "ASM2362", "usb-nvme", true,
		"usb.ids gives no chip name; enclosures with this id (Ugreen and others) report the ASM2362", "lsusb"},
	{0x152d, 0x0539}: {"JMicron", "JMS539", "usb-sata", true,
		"kernel quirk NO_REPORT_OPCODES", "usbids, uas-h"},
	{0x152d, 0x0567}: {"JMicron", "JMS567", "usb-sata", true,
		"kernel quirks BROKEN_FUA, NO_REPORT_OPCODES", "usbids, uas-h"},
	{0x152d, 0x0578}: {"JMicron", "JMS567/JMS578", "usb-sata", true,
		"kernel quirk BROKEN_FUA; old firmware misbehaves with UAS on a Pi 4: update it, or usb-storage.quirks=152d:0578:u",
		"usbids (JMS567), uas-h (JMS567), pi-uas"},
	{0x152d, 0x0583}: {"JMicron", "JMS583", "usb-nvme", true,
		"kernel quirk NO_REPORT_OPCODES; some users need usb-storage.quirks=152d:0583:u for stability",
		"lsusb (JMS583Gen 2 to PCIe Gen3x2 Bridge), uas-h"},
	{0x152d, 0x2590}: {"JMicron", "JMS567", "usb-sata", true, "", "usbids"},
	{0x152d, 0x3562}: {"JMicron", "JMS567", "usb-sata", true, "", "usbids"},
	{0x357d, 0x7788}: {"JMicron", "JMS566", "usb-sata", false,
		"Linux ignores UAS on this id (kernel quirk IGNORE_UAS); expect usb-storage", "uas-h"},
	{0x2109, 0x0711}: {"VIA Labs", "VL711", "usb-sata", true, "kernel quirk NO_ATA_1X", "uas-h"},
	{0x2109, 0x0715}: {"VIA Labs", "VL817 (SATA)", "usb-sata", true, "", "lsusb (VL817 SATA Adaptor)"},
	{0x0bda, 0x9210}: {"Realtek", "RTL9210/RTL9210B", "usb-nvme", true,
		"the RTL9210B also bridges M.2 SATA drives", "lsusb (RTL9210 M.2 NVME Adapter)"},
	{0x13fd, 0x3940}: {"Initio", "INIC-3069", "usb-sata", true,
		"kernel quirks NO_ATA_1X, IGNORE_RESIDUE", "uas-h"},
	{0x2537, 0x1068}: {"Norelsys", "NS1068X", "usb-sata", false,
		"Linux ignores UAS on this id (kernel quirk IGNORE_UAS); expect usb-storage", "uas-h"},
}

// Bridge names the bridge chip of a USB storage device from its VID:PID. ok is false when
// no public source ties the pair to a chip (a brand's own VID:PID hides the chip).
func Bridge(vid, pid uint16) (BridgeInfo, bool) {
	b, ok := bridges[vidPID{vid, pid}]
	return b, ok
}

// usbVendors names storage-related USB vendor ids. Each id was seen with this name in a
// source: usb.ids (usbids), lsusb output in public reports (lsusb), or the vendor strings of
// the kernel's unusual_uas.h (uas-h).
var usbVendors = map[uint16]string{
	0x0781: "SanDisk",         // lsusb "SanDisk Corp."
	0x0951: "Kingston",        // sysfs manufacturer string "Kingston" with idVendor 0951 (nwipe#560)
	0x04e8: "Samsung",         // usbids "Samsung Electronics Co., Ltd"
	0x1058: "Western Digital", // usbids "Western Digital Technologies, Inc."
	0x0bc2: "Seagate",         // uas-h "Seagate"
	0x174c: "ASMedia",         // usbids "ASMedia Technology Inc."
	0x152d: "JMicron",         // usbids "JMicron Technology Corp. / JMicron USA Technology Corp."
	0x2109: "VIA Labs",        // lsusb "VIA Labs, Inc."
	0x0bda: "Realtek",         // lsusb "Realtek Semiconductor Corp."
	0x05e3: "Genesys Logic",   // lsusb "Genesys Logic, Inc."
	0x13fd: "Initio",          // uas-h "Initio Corporation"
	0x2537: "Norelsys",        // uas-h "Norelsys"
	0x125f: "ADATA",           // uas-h "ADATA"
	0x154b: "PNY",             // usbids "PNY"
	0x18a5: "Verbatim",        // usbids "Verbatim, Ltd"
	0x059f: "LaCie",           // usbids "LaCie, Ltd"
}

// USBVendor names a USB vendor id for the common storage vendors this table knows.
func USBVendor(vid uint16) (string, bool) {
	v, ok := usbVendors[vid]
	return v, ok
}
