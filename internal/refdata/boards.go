package refdata

import "strings"

// Board families, the groups the results site ranks by: boards whose storage paths
// behave alike share a family.
const (
	FamilyPi5      = "Pi 5"
	FamilyPi4      = "Pi 4"
	FamilyPi3      = "Pi 3"
	FamilyPiZero21 = "Pi Zero/2/1"
	FamilyOtherSBC = "Other SBCs"
	FamilyPC       = "PCs"
)

// Families returns the board families in ranking order.
func Families() []string {
	return []string{FamilyPi5, FamilyPi4, FamilyPi3, FamilyPiZero21, FamilyOtherSBC, FamilyPC}
}

// Board is one canonical board name and its family.
type Board struct {
	Name   string
	Family string
}

// boards are the canonical board names, spelled as their makers spell them. Raspberry Pi names
// follow raspberrypi.com's product pages ("Raspberry Pi 4 Model B", "Raspberry Pi 5",
// "Raspberry Pi Compute Module 4"). Every board a CSV row names must be here.
var boards = []Board{
	{"Raspberry Pi 5", FamilyPi5},                  // raspberrypi.com/products/raspberry-pi-5
	{"Raspberry Pi 500", FamilyPi5},                // raspberrypi.com/products/raspberry-pi-500 (BCM2712)
	{"Raspberry Pi Compute Module 5", FamilyPi5},   // raspberrypi.com/products/compute-module-5 (BCM2712)
	{"Raspberry Pi 4 Model B", FamilyPi4},          // raspberrypi.com/products/raspberry-pi-4-model-b
	{"Raspberry Pi 400", FamilyPi4},                // raspberrypi.com/products/raspberry-pi-400 (BCM2711)
	{"Raspberry Pi Compute Module 4", FamilyPi4},   // raspberrypi.com/products/compute-module-4 (BCM2711)
	{"Raspberry Pi 3 Model B+", FamilyPi3},         // raspberrypi.com/products/raspberry-pi-3-model-b-plus
	{"Raspberry Pi 3 Model B", FamilyPi3},          // raspberrypi.com/products/raspberry-pi-3-model-b
	{"Raspberry Pi Compute Module 3+", FamilyPi3},  // raspberrypi.com/products/compute-module-3-plus (BCM2837B0)
	{"Raspberry Pi Zero 2 W", FamilyPiZero21},      // raspberrypi.com/products/raspberry-pi-zero-2-w
	{"Raspberry Pi Zero W", FamilyPiZero21},        // raspberrypi.com/products/raspberry-pi-zero-w
	{"Raspberry Pi 2 Model B", FamilyPiZero21},     // raspberrypi.com/products/raspberry-pi-2-model-b
	{"Raspberry Pi 1 Model B", FamilyPiZero21},     // the first Raspberry Pi (2012), later called Raspberry Pi 1
	{"SiFive HiFive Premier P550", FamilyOtherSBC}, // sifive.com/boards/hifive-premier-p550 (ESWIN EIC7700X, RISC-V)
	{"Radxa ROCK 5B", FamilyOtherSBC},              // radxa.com/products/rock5/5b (Rockchip RK3588)
	{"Radxa ROCK 5 ITX", FamilyOtherSBC},           // radxa.com/products/rock5/5itx (Rockchip RK3588)
	{"FriendlyELEC NanoPi NEO4", FamilyOtherSBC},   // wiki.friendlyelec.com NanoPi_NEO4 (Rockchip RK3399)
	{"Hardkernel ODROID-H2", FamilyOtherSBC},       // hardkernel.com ODROID-H2 (Intel J4105, an x86 single-board computer)
	{"Hardkernel ODROID-N1", FamilyOtherSBC},       // Hardkernel RK3399 board, sent to developers as samples and cancelled (2018)
	{"NVIDIA Jetson Nano", FamilyOtherSBC},         // developer.nvidia.com/embedded/jetson-nano-developer-kit (the P3448 module on its developer kit)
	{"BeagleBone Black", FamilyOtherSBC},           // beagleboard.org/black (TI AM3358)
	{"Terasic Atlas-SoC Kit", FamilyOtherSBC},      // terasic.com.tw Atlas-SoC (DE0-Nano-SoC), Altera Cyclone V SoC
	{"FriendlyELEC NanoPi NEO2", FamilyOtherSBC},   // wiki.friendlyelec.com NanoPi_NEO2 (Allwinner H5)
	{"PC (x86)", FamilyPC},                         // a desktop or laptop x86 PC its source does not name
	{"Apple Mac mini (2007)", FamilyPC},            // the 2007 Intel Mac mini, run with Linux in fm4dd-io-benchmark
	{"HP t630 Thin Client", FamilyPC},              // hp.com t630 Thin Client (AMD GX-420GI, x86)
}

// aliases maps wordings the sources use for a board (compared without case) to its canonical
// name. The comment on each says which source uses it; the wording stays in a row's
// board_published column.
var aliases = map[string]string{
	"raspberry pi 4*":                    "Raspberry Pi 4 Model B",         // chambers-storage-2019: "The Raspberry Pi 4* was set to boot from USB mode"
	"raspberry pi 4 model b rev 1.2":     "Raspberry Pi 4 Model B",         // ricsanfre-pi-storage-2021: Storage.sh's "Model:" line
	"raspberry pi 4 model b rev 1.4":     "Raspberry Pi 4 Model B",         // ricsanfre-pi-storage-2021: Storage.sh's "Model:" line (SSD runs)
	"raspberry pi 4":                     "Raspberry Pi 4 Model B",         // yacy-sd-card-speed: "Tests made on a Raspberry Pi 4"; cells "RPi4:"
	"raspberry pi 3b+":                   "Raspberry Pi 3 Model B+",        // yacy-sd-card-speed: "made on a Raspberry Pi 3B+"
	"pi 5":                               "Raspberry Pi 5",                 // pineboards-docs-16: "on Pi 5 using HatDrive! Bottom"
	"the pi 5":                           "Raspberry Pi 5",                 // pcie-devices-679: "And on the Pi 5, running my disk-benchmark.sh"
	"raspberry pi 5 model b":             "Raspberry Pi 5",                 // sbc-reviews#21 title "Raspberry Pi 5 model B"
	"pi cm4":                             "Raspberry Pi Compute Module 4",  // pipci kioxia-bg4: "performance numbers on the Pi CM4"
	"cm4":                                "Raspberry Pi Compute Module 4",  // pipci kingspec and wd-sn520: "works great with the CM4"
	"cm4 lite 4gib model":                "Raspberry Pi Compute Module 4",  // pipci samsung-980: "on the Turing Pi v2 with a CM4 Lite 4GiB model"
	"cm4 carrier board of my own design": "Raspberry Pi Compute Module 4",  // pcie-devices-519: "a CM4 carrier board of my own design"
	"rasbperry pi 4 model b":             "Raspberry Pi 4 Model B",         // pidramble-microsd: the page spells its headings "Rasbperry Pi … model B" (shared/data/README.md)
	"rasbperry pi 3 model b+":            "Raspberry Pi 3 Model B+",        // pidramble-microsd, same misspelling
	"rasbperry pi 3 model b":             "Raspberry Pi 3 Model B",         // pidramble-microsd, same misspelling
	"rasbperry pi 2 model b":             "Raspberry Pi 2 Model B",         // pidramble-microsd, same misspelling
	"cm4 8gb lite (cm4008000)":           "Raspberry Pi Compute Module 4",  // pxpunx-*: "tested with the Compute Blade RC2 w/ CM4 8GB Lite (CM4008000)"
	"cm5 4gb module":                     "Raspberry Pi Compute Module 5",  // compute-blade-cm5-pcie3: "Samsung 970 EVO Plus, CM5 4GB module"
	"cm3+":                               "Raspberry Pi Compute Module 3+", // turing-pi-cluster-11: table rows "CM3+ 8 GB eMMC", …
	"pi 4":                               "Raspberry Pi 4 Model B",         // turing-pi-cluster-11: table rows "Pi 4 microSD - …" (2020, before the Pi 400)
	"rpi5 8gb":                           "Raspberry Pi 5",                 // raspiblitz-4359: "on a test rpi5 8GB"
	"raspberry pi 5 model b rev 1.0":     "Raspberry Pi 5",                 // pibenchmarks-34: Storage.sh's "Model: Raspberry Pi 5 Model B Rev 1.0"
	"hifive premier p550":                "SiFive HiFive Premier P550",     // geerling-2025-p550: "SiFive\'s HiFive Premier P550 is a strange, powerful RISC-V board"
	"raspberry pi 2":                     "Raspberry Pi 2 Model B",         // grazer-sdcards-2019: "auf einem Raspberry Pi 2 ermittelt" (2019; the Pi 2 was only made as Model B)
	"raspberry pi 4 (4gb)":               "Raspberry Pi 4 Model B",         // gecompat-raspi-default: hardware list "Raspberry Pi 4 (4GB)" (2020, before the Pi 400)
	"raspberrypi4":                       "Raspberry Pi 4 Model B",         // xshigee-rpi4-ssd-speedtest: title "RaspberryPi4のSSD/SD性能測定"
	"rpi5 8gib model":                    "Raspberry Pi 5",                 // pcie-devices-657: "with a RPi5 8GiB model"
	"raspberry pi 1b":                    "Raspberry Pi 1 Model B",         // fm4dd-io-benchmark: table row "Raspberry PI 1B"
	"raspberry pi 0w":                    "Raspberry Pi Zero W",            // fm4dd-io-benchmark: table row "Raspberry PI 0W"
	"raspberry pi 2b":                    "Raspberry Pi 2 Model B",         // fm4dd-io-benchmark: table row "Raspberry PI 2B"
	"raspberry pi 3b":                    "Raspberry Pi 3 Model B",         // fm4dd-io-benchmark: table row "Raspberry PI 3B"
	"cm4/4gb":                            "Raspberry Pi Compute Module 4",  // hankb-cm4-nvme-bases: "CM4/4GB on the Mini Base"
	"cm4/8gb":                            "Raspberry Pi Compute Module 4",  // hankb-cm4-nvme-bases: "the IO Board with the CM4/8GB"
	"rpi zero 2 w":                       "Raspberry Pi Zero 2 W",          // tkaiser-rpi-zero-2-w: "Quick Review of RPi Zero 2 W"
	"rpi 4":                              "Raspberry Pi 4 Model B",         // tkaiser-rpi-zero-2-w: "in a RPi 4 capable of SDR50" (2021, the Pi 4 Model B)
	"rock 5b":                            "Radxa ROCK 5B",                  // tkaiser-rock-5b: "Quick Preview of ROCK 5B"
	"rock 5 itx":                         "Radxa ROCK 5 ITX",               // tkaiser-rock-5-itx: "Quick Preview of ROCK 5 ITX"
	"nanopi neo4":                        "FriendlyELEC NanoPi NEO4",       // tkaiser-nanopi-neo4: "Quick Review of NanoPi NEO4"
	"odroid h2":                          "Hardkernel ODROID-H2",           // tkaiser-odroid-h2: "Quick Preview of ODROID H2"
	"odroid-n1":                          "Hardkernel ODROID-N1",           // tkaiser-rock-5b: "dev samples of their canceled ODROID-N1"
	"tegra210-porg-p3448":                "NVIDIA Jetson Nano",             // ayaromenok-jetson-nano: the page's device tree name (P3448 is the Jetson Nano module)
	"altera atlas soc":                   "Terasic Atlas-SoC Kit",          // fm4dd-io-benchmark: table row "Altera Atlas SoC"
	"nanopi neo 2":                       "FriendlyELEC NanoPi NEO2",       // fm4dd-io-benchmark: table row "NanoPi NEO 2"
	"apple macmini 2007":                 "Apple Mac mini (2007)",          // fm4dd-io-benchmark: table row "Apple MacMini 2007"
	"rpi5":                               "Raspberry Pi 5",                 // pcie-devices-745: "PCIe straight to RPI5"
	"raspberry pi 5, 4gb":                "Raspberry Pi 5",                 // hilli-rpi5nas: hardware list "Raspberry Pi 5, 4GB"
	"pi5":                                "Raspberry Pi 5",                 // teslausb-239: "Power Pi5 in idle", "the 5 on Bookworm"
	"cm5 dev kit":                        "Raspberry Pi Compute Module 5",  // rpi-firmware-2021: "the Hardware that I am using is CM5 Dev Kit" (Raspberry Pi's CM5 Development Kit)
	"xplorer cm5":                        "Raspberry Pi Compute Module 5",  // austral-xplorer-cm5: "XPLORER CM5 - Software Guide", a carrier for the "Raspberry PI CM5"
	"raspberry pi 5 8gb":                 "Raspberry Pi 5",                 // akizuru-rpi5-argon-one-v3: parts list "Raspberry Pi 5 8GB"
}

// Boards returns the canonical boards.
func Boards() []Board { return append([]Board(nil), boards...) }

// CanonicalBoard maps a board as a source words it to its canonical name: a canonical name
// (any case) maps to itself, an alias to its board. ok is false for a wording not known.
func CanonicalBoard(published string) (name string, ok bool) {
	key := strings.ToLower(strings.Join(strings.Fields(published), " "))
	for _, b := range boards {
		if strings.ToLower(b.Name) == key {
			return b.Name, true
		}
	}
	name, ok = aliases[key]
	return name, ok
}

// BoardFamily returns the family of a canonical board name; ok is false for a name that is not
// canonical (map a published wording with CanonicalBoard first).
func BoardFamily(board string) (family string, ok bool) {
	for _, b := range boards {
		if b.Name == board {
			return b.Family, true
		}
	}
	return "", false
}
