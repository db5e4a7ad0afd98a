package refdata

// Source is one document the published results were copied from.
type Source struct {
	ID    string // stable short id, the source_id column
	Title string // as printed; empty when the document has none
	URL   string // where the document is published; rows may name a page inside it
	Date  string // publication date as printed (YYYY-MM-DD); empty when not stated
	Rows  int    // data rows the CSV holds from it
	About string // what the document is, in a line (details in SOURCES.md)
}

// sources lists every document of SOURCES.md, in its order. Titles, dates and row counts are
// copied from SOURCES.md ("Sources" and the row-count table).
var sources = []Source{
	{
		ID: "geerling-2020-usb", Title: "The fastest USB storage options for Raspberry Pi",
		URL:  "https://www.jeffgeerling.com/blog/2020/fastest-usb-storage-options-raspberry-pi",
		Date: "2020-08-06", Rows: 6,
		About: "blog post; rows are Rob Logan's table under 'More Information', units not printed",
	},
	{
		ID: "chambers-storage-2019", Rows: 9,
		URL:   "https://jamesachambers.com/raspberry-pi-storage-benchmarks-2019-benchmarking-script/",
		About: "blog post of the PiBenchmarks Storage.sh author; the 'Contender' results table",
	},
	{
		ID: "geerling-2020-uasp", Title: "UASP makes Raspberry Pi 4 disk IO 50% faster",
		URL:  "https://www.jeffgeerling.com/blog/2020/uasp-makes-raspberry-pi-4-disk-io-50-faster",
		Date: "2020-07-03", Rows: 0,
		About: "blog post; percentages only (UASP against BOT on a Pi 4), no CSV rows",
	},
	{
		ID: "pidramble-microsd", Title: "microSD Card Benchmarks", Rows: 59,
		URL:   "http://www.pidramble.com/wiki/benchmarks/microsd-cards",
		About: "pidramble.com wiki; one table per Pi model (4 B, 3 B+, 3 B, 3 B overclocked, 2 B)",
	},
	{
		ID: "usbflash-align-2009", Title: "Increase USB Flash Drive Write Speed",
		URL:  "http://linux-howto-guide.blogspot.com/2009/10/increase-usb-flash-drive-write-speed.html",
		Date: "2009-10-10", Rows: 2,
		About: "blog post; one USB flash stick before and after partition alignment, on an x86 PC",
	},
	{
		ID: "ricsanfre-pi-storage-2021", Title: "Benchmarking Storage options for Raspberry Pi",
		URL:  "https://github.com/ricsanfre/pi-storage-benchmark",
		Date: "2021-07-27", Rows: 15,
		About: "GitHub repository; raw PiBenchmarks Storage.sh output of 5 runs each of a microSD card, a USB flash drive and a USB SSD on a Pi 4",
	},
	{
		ID: "yacy-sd-card-speed", Title: "Testing SD Cards and I/O Speed",
		URL:  "https://github.com/yacy/yacy_grid_cluster/blob/master/doc/sd_card_speed.md",
		Date: "2019-06-29", Rows: 16,
		About: "GitHub doc page; dd write and read of 7 microSD cards on a Pi 3B+ (stock and overclocked SD) and 2 on a Pi 4",
	},
	{
		ID: "pipci-pinedrive-2242-nvme-ssd", Title: "Pinedrive NVMe SSD 256GB (2242)",
		URL:  "https://pipci.jeffgeerling.com/cards_m2/pinedrive-2242-nvme-ssd.html",
		Date: "2024-05-13", Rows: 1,
		About: "Raspberry Pi PCIe Database card page; disk-benchmark.sh on a Pi 5 at PCIe Gen 3",
	},
	{
		ID: "pipci-cytron-makerdisk-nvme-2242-m-key-ssd", Title: "Cytron MakerDisk SSD NVMe 2242 M-key M.2",
		URL:  "https://pipci.jeffgeerling.com/cards_m2/cytron-makerdisk-nvme-2242-m-key-ssd.html",
		Date: "2024-05-13", Rows: 1,
		About: "Raspberry Pi PCIe Database card page; disk-benchmark.sh on a Pi 5 at PCIe Gen 3",
	},
	{
		ID: "pipci-kioxia-bg4-m2-nvme-ssd", Title: "KIOXIA BG4 M.2 NVMe SSD",
		URL:  "https://pipci.jeffgeerling.com/cards_m2/kioxia-bg4-m2-nvme-ssd.html",
		Date: "2021-12-11", Rows: 1,
		About: "Raspberry Pi PCIe Database card page; 2021 disk-benchmark.sh on a CM4",
	},
	{
		ID: "pipci-samsung-980-nvme", Title: "Samsung 980 SSD 500 GB NVMe SSD",
		URL:  "https://pipci.jeffgeerling.com/cards_m2/samsung-980-nvme.html",
		Date: "2022-01-08", Rows: 1,
		About: "Raspberry Pi PCIe Database card page; 2021 disk-benchmark.sh on a CM4 Lite in a Turing Pi v2",
	},
	{
		ID: "pipci-kingspec-m2-nvme-ssd-128gb", Title: "KingSpec 128GB M.2 2242 NVMe SSD",
		URL:  "https://pipci.jeffgeerling.com/cards_m2/kingspec-m2-nvme-ssd-128gb.html",
		Date: "2021-03-12", Rows: 1,
		About: "Raspberry Pi PCIe Database card page; fio and iozone on a CM4 in the TOFU carrier board",
	},
	{
		ID: "pipci-wd-pc-sn520-2230-nvme-ssd", Title: "WD PC SN520 NVMe M.2 2230 SSD",
		URL:  "https://pipci.jeffgeerling.com/cards_m2/wd-pc-sn520-2230-nvme-ssd.html",
		Date: "2021-03-12", Rows: 1,
		About: "Raspberry Pi PCIe Database card page; fio and iozone on a CM4 in the TOFU carrier board",
	},
	{
		ID: "pcie-devices-664", Title: "GeeekPi P33 M.2 NVME M-Key PoE+ Hat",
		URL:  "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/664",
		Date: "2025-04-05", Rows: 2,
		About: "GitHub issue comment; disk-benchmark.sh on a Pi 5 HAT at PCIe Gen 2 and Gen 3",
	},
	{
		ID: "pcie-devices-631", Title: "Test Pinedrive NVMe SSD 256GB (2242)",
		URL:  "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/631",
		Date: "2024-05-13", Rows: 1,
		About: "GitHub issue comment; disk-benchmark.sh on a Pi 5",
	},
	{
		ID: "pcie-devices-679", Title: "Raspberry Pi SSD",
		URL:  "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/679",
		Date: "2024-10-24", Rows: 1,
		About: "GitHub issue comment; disk-benchmark.sh on a Pi 5 with the Raspberry Pi SSD",
	},
	{
		ID: "pcie-devices-632", Title: "Test Cytron MakerDisk SSD NVMe 2242 M-key M.2 - 256GB",
		URL:  "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/632",
		Date: "2024-05-13", Rows: 1,
		About: "GitHub issue comment; PiBenchmarks Storage.sh summary at PCIe Gen 3",
	},
	{
		ID: "pineboards-docs-16", Title: "Samsung PM991a SSDs works great",
		URL:  "https://github.com/Pineboards/pineboards-docs.github.io/issues/16",
		Date: "2024-01-31", Rows: 2,
		About: "GitHub issue; PiBenchmarks Storage.sh summaries on a Pi 5 HatDrive! Bottom at PCIe Gen 2 and Gen 3",
	},
	{
		ID: "pcie-devices-519", Title: "Missing setup specification for: Test KIOXIA BG4 M.2 NVMe SSD",
		URL:  "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/519",
		Date: "2023-04-11", Rows: 1,
		About: "GitHub issue; a disk-benchmark.sh-style table from a custom CM4 carrier board",
	},
	{
		ID: "pxpunx-compute-blade-cm4", Rows: 45,
		URL:   "https://github.com/pxpunx/raspberry-pi/tree/main/compute-blade/cm4/nvme",
		Date:  "2023-02-19",
		About: "GitHub repository pages, one per NVMe SSD on a CM4 in the Compute Blade RC2: PiBenchmarks summary and raw disk-benchmark.sh output",
	},
	{
		ID: "pxpunx-xerxes-pi-cm4", Rows: 46,
		URL:   "https://github.com/pxpunx/raspberry-pi/tree/main/xerxes-pi/cm4/nvme",
		Date:  "2026-06-27",
		About: "GitHub repository pages, one per NVMe SSD on a CM4 in the Xerxes Pi Rev2: disk-benchmark.sh table and PiBenchmarks score",
	},
	{
		ID: "pineboards-nvme-compatibility", Title: "NVMe compatibility list", Rows: 13,
		URL:   "https://github.com/Pineboards/pineboards-docs.github.io/blob/main/nvme-compatibility-list.md",
		Date:  "2023-12-11",
		About: "Pineberry Pi documentation page; PiBenchmarks dd write, hdparm and score of 13 NVMe SSDs on their Pi 5 HatDrive! boards",
	},
	{
		ID: "compute-blade-cm5-pcie3", Title: "Using PCIe 3.0 on Compute Blade", Rows: 4,
		URL:   "https://github.com/uptime-industries/compute-blade/blob/main/docs/blog/2024/12/23/compute_blade_pcie3.mdx",
		Date:  "2024-12-23",
		About: "Compute Blade blog post; PiBenchmarks scores of one NVMe SSD on a CM5 at PCIe Gen 2 and Gen 3",
	},
	{
		ID: "rpi-docs-sd-cards", Title: "Raspberry Pi SD Cards", Rows: 2,
		URL:   "https://www.raspberrypi.com/documentation/accessories/sd-cards.html",
		About: "Raspberry Pi documentation; the maker's 4KB random IOPS of its SD card on a Pi 4 (DDR50) and a Pi 5 (SDR104)",
	},
	{
		ID: "rpi-docs-ssds", Title: "Raspberry Pi SSDs", Rows: 3,
		URL:   "https://www.raspberrypi.com/documentation/accessories/ssds.html",
		About: "Raspberry Pi documentation; the maker's 4kB random IOPS of its 256GB, 512GB and 1TB NVMe SSDs",
	},
	{
		ID: "turing-pi-cluster-11", Title: "Benchmarks on the Turing Pi Cluster", Rows: 6,
		URL:   "https://github.com/geerlingguy/turing-pi-cluster/issues/11",
		Date:  "2020-05-26",
		About: "GitHub issue description; iozone 4K random read/write of eMMC, microSD and USB SSDs on a CM3+ and a Pi 4",
	},
	{
		ID: "raspiblitz-4359", Title: "[RPi5] Support Pimoroni NVMe Base", Rows: 1,
		URL:   "https://github.com/raspiblitz/raspiblitz/issues/4359",
		Date:  "2024-01-11",
		About: "GitHub issue comment; hdparm --direct of an NVMe SSD on a Pi 5 at PCIe Gen 3",
	},
	{
		ID: "pibenchmarks-34", Title: "Crashes Pi5", Rows: 1,
		URL:   "https://github.com/TheRemote/PiBenchmarks/issues/34",
		Date:  "2023-12-23",
		About: "GitHub issue; hdparm -t of an M.2 SSD in a USB caddy on a Pi 5 (the drive is not named)",
	},
	{
		ID: "geerling-2025-p550", Title: "SiFive's HiFive Premier P550 is a strange, powerful RISC-V board", Rows: 2,
		URL:   "https://www.jeffgeerling.com/blog/2025/sifives-hifive-premier-p550-strange-powerful-risc-v-board",
		Date:  "2025-02-21",
		About: "blog post; a disk-benchmark.sh-style table of one NVMe SSD at PCIe x1 and x4 on a RISC-V board",
	},
	{
		ID: "grazer-sdcards-2019", Title: "SD-Karte für Raspberry Pi", Rows: 7,
		URL:   "https://github.com/GrazerComputerClub/Blog/blob/1544dbede07869b8c54d4e59b66fe7aa55a41785/content/post/sdcards.md",
		Date:  "2019-12-25",
		About: "blog post in a GitHub repository; raw iozone 4k and 512k output of 7 microSD cards on a Raspberry Pi 2",
	},
	{
		ID: "grazer-minecraft-server", Title: "Minecraft Server", Rows: 4,
		URL:   "https://github.com/GrazerComputerClub/Blog/blob/5bcbdda1dfac9bfd219407010303203b9f8c6ead/content/post/Minecraft-Server.md",
		Date:  "2020-12-06",
		About: "blog post in a GitHub repository; PiBenchmarks summaries of the microSD cards of a Pi 4 Minecraft server and an HP t630 thin client's eMMC, four versions of the post (each row names its commit)",
	},
	{
		ID: "gloveboxes-iot-edge-buster", Title: "Azure IoT Edge on Raspberry Pi Buster plus tips for Raspberry Pi 4", Rows: 2,
		URL:   "https://github.com/gloveboxes/Azure-IoT-Edge-on-Raspberry-Pi-Buster",
		Date:  "2019-08-01",
		About: "GitHub README; PiBenchmarks summaries of a microSD card and a USB 3 SSD (Pi 4 implied)",
	},
	{
		ID: "gecompat-raspi-default", Title: "Raspberry Pi 4 Default Installation", Rows: 2,
		URL:   "https://github.com/gecompat/Raspi/blob/8114139d83dae0160d2ce1cd58edbe06f37d9da2/System_Default/README.md",
		Date:  "2020-05-25",
		About: "GitHub README; PiBenchmarks summaries of a microSD card and a SATA SSD in a USB enclosure on a Pi 4",
	},
	{
		ID: "xshigee-rpi4-ssd-speedtest", Title: "RaspberryPi4のSSD/SD性能測定", Rows: 3,
		URL:   "https://github.com/xshigee/web0/blob/4c4cccd85aa8097327174d3ea8c2a0a426a48734/docs/md/RSPI_SSD_SpeedTest.md",
		Date:  "2023-10-14",
		About: "GitHub docs page; dd write (conv=fdatasync) and dd read (after drop_caches) of a SATA M.2 SSD in an Argon One M.2 case and a USB SSD stick on a Pi 4",
	},
	{
		ID: "pcie-devices-657", Title: "Add Samsung PM981a NVME tested via Argon40 NEO 5 M.2 NVME case", Rows: 1,
		URL:   "https://github.com/geerlingguy/raspberry-pi-pcie-devices/pull/657",
		Date:  "2024-07-26",
		About: "GitHub pull request (open); a disk-benchmark.sh-style table of an NVMe SSD in an Argon NEO 5 case on a Pi 5, command not stated",
	},
	{
		ID: "fm4dd-io-benchmark", Title: "Basic disk I/O performance tests for single-board systems", Rows: 9,
		URL:   "https://github.com/fm4dd/sbc-benchmarks/blob/d342bc8d67403e3cd89f0f96ceb7a052e0725a99/io-benchmark.md",
		Date:  "2017-03-12",
		About: "GitHub docs page; dd write (no sync) and O_DIRECT dd read of the SD card or eMMC of five Raspberry Pi models and three other SBCs, and a 2007 Mac mini's HDD; devices not named",
	},
	{
		ID: "hankb-cm4-nvme-bases", Title: "Pi CM4 NVME performance: Bicool Mini Base vs. IO Board", Rows: 4,
		URL:   "https://github.com/HankB/MkDocs-blog/blob/37da6f2b45368ba28e480e7cfa483c336aa12473/docs/tech/NVME_performance-Bicool_Mini_Base-vs-IO_Board.md",
		Date:  "2023-10-03",
		About: "blog post in a GitHub repository; iozone O_SYNC 4k writes of one NVMe SSD on two CM4 carrier boards, two runs each",
	},
	{
		ID: "tkaiser-rpi-zero-2-w", Title: "A quick look at RPi Zero 2 W", Rows: 2,
		URL:   "https://github.com/ThomasKaiser/Knowledge/blob/8d3704484554ab006419dea4e2b30bf3ed197243/articles/Quick_Review_of_RPi_Zero_2_W.md",
		Date:  "2021-11-11",
		About: "review in a GitHub repository; raw iozone output of one A2 microSD card on a Zero 2 W (HS mode) and a Pi 4",
	},
	{
		ID: "tkaiser-rock-5b", Title: "Quick Preview of ROCK 5B", Rows: 9,
		URL:   "https://github.com/ThomasKaiser/Knowledge/blob/8d3704484554ab006419dea4e2b30bf3ed197243/articles/Quick_Preview_of_ROCK_5B.md",
		Date:  "2022-07-08",
		About: "review in a GitHub repository; raw iozone output of eMMC modules, microSD cards and a USB SSD on a Radxa ROCK 5B, and an eMMC module on an ODROID-N1 for comparison",
	},
	{
		ID: "tkaiser-rock-5-itx", Title: "Quick Preview of ROCK 5 ITX", Rows: 3,
		URL:   "https://github.com/ThomasKaiser/Knowledge/blob/8d3704484554ab006419dea4e2b30bf3ed197243/articles/Quick_Preview_of_ROCK_5_ITX.md",
		Date:  "2024-04-15",
		About: "review in a GitHub repository; raw iozone 4k output of a microSD card at SDR104, the on-board eMMC and a USB SSD on a Radxa ROCK 5 ITX",
	},
	{
		ID: "tkaiser-nanopi-neo4", Title: "Quick Review of NanoPi NEO4", Rows: 5,
		URL:   "https://github.com/ThomasKaiser/Knowledge/blob/8d3704484554ab006419dea4e2b30bf3ed197243/articles/Quick_Review_of_NanoPi_NEO4.md",
		Date:  "2018-10-07",
		About: "review in a GitHub repository; raw iozone output of a microSD card, an eMMC module and a SATA SSD over USB2 and USB3 on a NanoPi NEO4",
	},
	{
		ID: "tkaiser-odroid-h2", Title: "Quick Preview of ODROID H2", Rows: 3,
		URL:   "https://github.com/ThomasKaiser/Knowledge/blob/8d3704484554ab006419dea4e2b30bf3ed197243/articles/Quick_Preview_of_ODROID-H2.md",
		Date:  "2018-10-28",
		About: "review in a GitHub repository; raw iozone output of two SATA SSDs and an NVMe SSD on the x86 ODROID-H2",
	},
	{
		ID: "ayaromenok-jetson-nano", Title: "tegraTx1Nano", Rows: 2,
		URL:   "https://github.com/ayaromenok/MD/blob/97df6a7c22dbdb70be2e18332c708ef86e1264c3/Hardware/tegraTx1Nano.md",
		Date:  "2019-05-21",
		About: "notes page in a GitHub repository; hdparm -t of a microSD card and a USB 3 flash drive on a Jetson Nano",
	},
	{
		ID: "pcie-devices-745", Title: "Nintendo SDexpress Card 256GB", Rows: 1,
		URL:   "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/745",
		Date:  "2025-07-24",
		About: "GitHub issue description; PiBenchmarks Storage.sh summary of a microSD Express card (NVMe over PCIe) on a Pi 5 at PCIe Gen 3",
	},
	{
		ID: "hilli-rpi5nas", Title: "Raspberry Pi5 NAS with an NVMe drive", Rows: 1,
		URL:   "https://github.com/hilli/rpi5nas/blob/d634af6a4744db7da909f7d889192a4630d0d039/README.md",
		Date:  "2024-01-03",
		About: "GitHub README; hdparm --direct of a 4TB NVMe SSD on a Pi 5 HatDrive! Bottom with dtparam=pciex1_gen=3",
	},
	{
		ID: "pradeep39-private-cloud-part1", Title: "Part 1 - Build the Cloud", Rows: 2,
		URL:   "https://github.com/Pradeep39/hugo_personalsite/blob/8a4eb33955ba8e03b163aa03451b56c93c6838a3/content/posts/Build%20a%20Private%20Cloud%20with%20System%20on%20Chips/Part%201%20-%20Build%20The%20Cloud/index.md",
		Date:  "2025-01-10",
		About: "blog post in a GitHub repository; hdparm --direct of the Raspberry Pi SSD Kit on a Pi 5 at PCIe Gen 2 and Gen 3",
	},
	{
		ID: "sourceperl-rpi5-notes", Title: "Raspberry Pi 5 notes", Rows: 2,
		URL:   "https://github.com/sourceperl/howtos/blob/92c347d6ccd8d97d70ebb72cdfd40f6f30349a7d/rpi_5_notes.md",
		Date:  "2024-07-29",
		About: "notes page in a GitHub repository; hdparm --direct of an NVMe SSD in an Argon NEO 5 case on a Pi 5 at the default link and at Gen 3",
	},
	{
		ID: "teslausb-239", Title: "USB Storage Slow?", Rows: 1,
		URL:   "https://github.com/marcone/teslausb/issues/239",
		Date:  "2024-01-24",
		About: "GitHub issue comment; the PiBenchmarks score of an NVMe SSD on a Pi 5 (Pimoroni NVMe Base)",
	},
	{
		ID: "rpi-firmware-2021", Title: "About the pcie ssd drive problem", Rows: 1,
		URL:   "https://github.com/raspberrypi/firmware/issues/2021",
		Date:  "2026-04-09",
		About: "GitHub issue description; hdparm -t of an NVMe SSD on a CM5 Dev Kit under Ubuntu (the Raspberry Pi OS run it reports is a bug, not a row)",
	},
	{
		ID: "austral-xplorer-cm5", Title: "XPLORER CM5 - Software Guide", Rows: 4,
		URL:   "https://github.com/austral-electronics/Xplorer/blob/be9bfb783cebb68438d815edd7095608d2302d37/README.md",
		Date:  "2026-01-24",
		About: "maker's software guide in a GitHub README; hdparm --direct of two NVMe SSDs behind a PCIe Gen 2 switch and a USB-C flash drive, and a PiBenchmarks summary of the eMMC, on a CM5 carrier",
	},
	{
		ID: "akizuru-rpi5-argon-one-v3", Title: "Raspberry Pi 5 w/ Argon ONE V3 & NVMe SSD", Rows: 2,
		URL:   "https://aquarite.info/blog/2024/07/rpi5-argon-one-v3-nvme-ssd/",
		Date:  "2024-07-16",
		About: "blog post (read in its source repository); PiBenchmarks Storage.sh summaries of an NVMe SSD in an Argon ONE V3 case on a Pi 5 at PCIe 2.0 x1 and 3.0",
	},
}

// Sources returns every source document, including those that contributed no rows.
func Sources() []Source {
	out := make([]Source, len(sources))
	copy(out, sources)
	return out
}

// SourceByID returns the source with that id.
func SourceByID(id string) (Source, bool) {
	for _, s := range sources {
		if s.ID == id {
			return s, true
		}
	}
	return Source{}, false
}
