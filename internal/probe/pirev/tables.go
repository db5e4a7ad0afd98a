package pirev

// Source of every table here: raspberrypi/documentation
// documentation/asciidoc/computers/raspberry-pi/revision-codes.adoc ("revision-codes"),
// as of the CM0 addition (type 0x1b).

// boardType is one value of the new-style TTTTTTTT field.
type boardType struct {
	Short string // as the revision-codes page names it: "4B", "5", "CM4"
	Model string // the product name as the device tree model string spells it
}

// newTypes maps the new-style type field (bits 4-11) to a board.
var newTypes = map[uint32]boardType{
	0x00: {"A", "Raspberry Pi Model A"},
	0x01: {"B", "Raspberry Pi Model B"},
	0x02: {"A+", "Raspberry Pi Model A+"},
	0x03: {"B+", "Raspberry Pi Model B+"},
	0x04: {"2B", "Raspberry Pi 2 Model B"},
	0x05: {"Alpha", "Raspberry Pi Alpha (early prototype)"},
	0x06: {"CM1", "Raspberry Pi Compute Module 1"},
	0x08: {"3B", "Raspberry Pi 3 Model B"},
	0x09: {"Zero", "Raspberry Pi Zero"},
	0x0a: {"CM3", "Raspberry Pi Compute Module 3"},
	0x0c: {"Zero W", "Raspberry Pi Zero W"},
	0x0d: {"3B+", "Raspberry Pi 3 Model B+"},
	0x0e: {"3A+", "Raspberry Pi 3 Model A+"},
	0x0f: {"Internal", "Raspberry Pi (internal use only)"},
	0x10: {"CM3+", "Raspberry Pi Compute Module 3+"},
	0x11: {"4B", "Raspberry Pi 4 Model B"},
	0x12: {"Zero 2 W", "Raspberry Pi Zero 2 W"},
	0x13: {"400", "Raspberry Pi 400"},
	0x14: {"CM4", "Raspberry Pi Compute Module 4"},
	0x15: {"CM4S", "Raspberry Pi Compute Module 4S"},
	0x16: {"Internal", "Raspberry Pi (internal use only)"},
	0x17: {"5", "Raspberry Pi 5"},
	0x18: {"CM5", "Raspberry Pi Compute Module 5"},
	0x19: {"500", "Raspberry Pi 500"}, // the page names type 0x19 "500/500+"; see plus500
	0x1a: {"CM5 Lite", "Raspberry Pi Compute Module 5 Lite"},
	0x1b: {"CM0", "Raspberry Pi Compute Module 0"},
}

// plus500 lists the codes the page's "codes in use" table names "500+" under type 0x19.
var plus500 = map[uint32]bool{0xe04190: true}

// memoryMB maps MMM (bits 20-22). 7 means "other": the size is in the firmware parameter
// rpi-sdram-size-gbit, so it decodes as 0 (unknown) here.
var memoryMB = [8]int{256, 512, 1024, 2048, 4096, 8192, 16384, 0}

// manufacturers maps CCCC (bits 16-19).
var manufacturers = map[uint32]string{
	0: "Sony UK",
	1: "Egoman",
	2: "Embest",
	3: "Sony Japan",
	4: "Embest",
	5: "Stadium",
}

// processors maps PPPP (bits 12-15).
var processors = map[uint32]string{
	0: "BCM2835",
	1: "BCM2836",
	2: "BCM2837",
	3: "BCM2711",
	4: "BCM2712",
}

// oldBoard is one row of the old-style table (codes 0002-0015, all BCM2835).
type oldBoard struct {
	Type          string
	BoardRevision string
	MemoryMB      int // 0015 shipped with 256 or 512 MB; the lower figure is kept
	Manufacturer  string
}

var oldCodes = map[uint32]oldBoard{
	0x0002: {"B", "1.0", 256, "Egoman"},
	0x0003: {"B", "1.0", 256, "Egoman"},
	0x0004: {"B", "2.0", 256, "Sony UK"},
	0x0005: {"B", "2.0", 256, "Qisda"},
	0x0006: {"B", "2.0", 256, "Egoman"},
	0x0007: {"A", "2.0", 256, "Egoman"},
	0x0008: {"A", "2.0", 256, "Sony UK"},
	0x0009: {"A", "2.0", 256, "Qisda"},
	0x000d: {"B", "2.0", 512, "Egoman"},
	0x000e: {"B", "2.0", 512, "Sony UK"},
	0x000f: {"B", "2.0", 512, "Egoman"},
	0x0010: {"B+", "1.2", 512, "Sony UK"},
	0x0011: {"CM1", "1.0", 512, "Sony UK"},
	0x0012: {"A+", "1.1", 256, "Sony UK"},
	0x0013: {"B+", "1.2", 512, "Embest"},
	0x0014: {"CM1", "1.0", 512, "Embest"},
	0x0015: {"A+", "1.1", 256, "Embest"},
}

// oldModels names the old-style types.
var oldModels = map[string]string{
	"A":   "Raspberry Pi Model A",
	"B":   "Raspberry Pi Model B",
	"A+":  "Raspberry Pi Model A+",
	"B+":  "Raspberry Pi Model B+",
	"CM1": "Raspberry Pi Compute Module 1",
}
