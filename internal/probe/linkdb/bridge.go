package linkdb

// BridgeInfo describes the chip of a USB storage bridge or flash controller.
type BridgeInfo struct {
	Vendor string
	Chip   string // one chip, or several "/"-separated when they share a VID:PID
	Kind   string // "usb-sata", "usb-nvme", "usb-sd", "usb-flash"
	UAS    bool   // the chip implements USB Attached SCSI
	Note   string // known quirks and their fix, "" if none known
}

type vidPID struct{ vid, pid uint16 }

// Source keys used below (docs/ceilings.md#usb-bridge-sources):
//
//	usbids   the linux-usb.org usb.ids list (usbutils)
//	uas-h    Linux drivers/usb/storage/unusual_uas.h
//	pifw     Raspberry Pi forum "STICKY: If you have a Raspberry Pi 4 and are getting bad speeds
//	         transferring data to/from USB3.0 SSDs, read this" thread and its quirk list
var bridges = map[vidPID]BridgeInfo{
	{0x174c, 0x55aa}: {"ASMedia", "ASM1051E/ASM1053E/ASM1153/ASM1153E", "usb-sata", true,
		"the ASM1051E does not do UAS well; some enclosures need usb-storage.quirks=174c:55aa:u on a Pi"}, // usbids; pifw; uas-h
	{0x174c, 0x1153}: {"ASMedia", "ASM1153", "usb-sata", true, ""}, // usbids
	{0x174c, 0x2362}: {"ASMedia", "ASM2362", "usb-nvme", true, ""}, // usbids
	{0x152d, 0x0578}: {"JMicron", "JMS578", "usb-sata", true,
		"firmware before 2019 mishandles UAS on a Pi 4: update it or use usb-storage.quirks=152d:0578:u"}, // usbids; pifw; uas-h
	{0x152d, 0x0583}: {"JMicron", "JMS583", "usb-nvme", true, ""},        // usbids
	{0x152d, 0x0567}: {"JMicron", "JMS567", "usb-sata", true, ""},        // usbids
	{0x152d, 0x3562}: {"JMicron", "JMS567", "usb-sata", true, ""},        // usbids ("JMS567 SATA 6Gb/s bridge")
	{0x152d, 0x1561}: {"JMicron", "JMS561U", "usb-sata", true, ""},       // usbids
	{0x2109, 0x0715}: {"VIA Labs", "VL817 (SATA)", "usb-sata", true, ""}, // usbids ("VL817 SATA Adaptor")
	{0x0bda, 0x9210}: {"Realtek", "RTL9210", "usb-nvme", true, ""},       // usbids ("RTL9210 M.2 NVME Adapter")
}

// Bridge names the bridge chip of a USB storage device from its VID:PID. ok is false when
// no public source ties the pair to a chip (a brand's own VID:PID hides the chip).
func Bridge(vid, pid uint16) (BridgeInfo, bool) {
	b, ok := bridges[vidPID{vid, pid}]
	return b, ok
}

// usbVendors names common storage-related USB vendor ids (usb.ids vendor lines).
var usbVendors = map[uint16]string{
	0x0781: "SanDisk",
	0x0951: "Kingston",
	0x090c: "Silicon Motion",
	0x0930: "Toshiba",
	0x04e8: "Samsung",
	0x1058: "Western Digital",
	0x0bc2: "Seagate",
	0x174c: "ASMedia",
	0x152d: "JMicron",
	0x2109: "VIA Labs",
	0x0bda: "Realtek",
	0x05e3: "Genesys Logic",
	0x13fd: "Initio",
	0x8564: "Transcend",
	0x1f75: "Innostor",
	0x125f: "ADATA",
	0x058f: "Alcor Micro",
}

// USBVendor names a USB vendor id for the common storage vendors this table knows.
func USBVendor(vid uint16) (string, bool) {
	v, ok := usbVendors[vid]
	return v, ok
}
