package sdreg

// Real register dumps from public sources, shared by the table tests and the fuzz seeds.
// Each names where it was published; the expected values in the tests are the ones that
// source states (sysfs attributes printed beside the dump, or the seller's label), checked
// by hand against the bit layouts of the SD specification.
//
//	p2cat     ironsheep/P2-uSD-FS, DOCs/cards/*.md ("Raw Registers" of retail cards)
//	armbian   armbian/build pull request 246 (armhwinfo log of /sys/bus/mmc/devices/*)
//	smc45     hakandundar34coding/system-monitoring-center#45 (grep of
//	          /sys/class/block/mmcblk0/device/*)
//	usbsdmux  linux-automation/usbsdmux tests/reference/*.text
//	kernel    Linux commit adding CID_MANFID_GIGASTONE (Keita Aihara, 2024-09), whose message
//	          quotes the card's CID
//	litesd    enjoy-digital/litesdcard pull request 7 (LiteX BIOS log of CMD2/CMD9 responses)
const (
	// SanDisk Extreme 64GB (p2cat sandisk-sn64g-64gb.md).
	cidSanDiskSN64G = "035344534e363447867e650771016b8d"
	csdSanDiskSN64G = "400e0032db790001dbd37f800a4040f9"
	scrSanDiskSN64G = "0245848700000000"

	// Samsung EVO Select 128GB (p2cat samsung-gd4qt-128gb.md).
	cidSamsungGD4QT = "1b534d474434515430c03055650125e9"
	csdSamsungGD4QT = "400e00325b590003b9ff7f800a4040ab"
	scrSamsungGD4QT = "02c5800300000000"

	// Phison-made 16GB card in a sunxi board (armbian; sysfs: manfid 0x000027, oemid
	// 0x5048, name SD16G, hwrev 0x3, fwrev 0x0, serial 0xda89b829, date 11/2015).
	cidPhisonSD16G = "275048534431364730da89b82900fb61"
	csdPhisonSD16G = "400e00325b59000073a77f800a4000eb"
	scrPhisonSD16G = "0235800201000000"

	// SanDisk 512GB (smc45; sysfs: manfid 0x000003, oemid 0x5344, name SN512, hwrev 0x8,
	// date 07/2021, ios_timing "6 (sd uhs SDR104)").
	cidSanDiskSN512 = "035344534e35313280fff7b17b015700"
	csdSanDiskSN512 = "400e0032db79000ee5b77f800a404000"
	scrSanDiskSN512 = "0245848700000000"

	// usbsdmux reference cards.
	cidTranscendUSD = "744a605553442020104182bbc7010600"
	scrTranscendUSD = "0225800000000000"
	cidToshibaSA04G = "02544d53413034471027b7748500bc00"
	csdToshibaSA04G = "400e00325b5900001d177f800a400000"
	scrToshibaSA04G = "0235800001000000"
	cidSamsungGF8S5 = "1b534d474638533530d8466363a16700"
	csdSamsungGF8S5 = "400e0032db79000eebff7f800a400000"
	scrSamsungGF8S5 = "0205848700000000"
	cid9F00000      = "9f5449303030303000a1114bb5011400"
	csd9F00000      = "400e00325b5900003b877f800a400000"
	scr9F00000      = "02b5800200000000"

	// Toshiba 16GB (litesd; the log prints PSN 001af44c and date 9/18, OID TM).
	cidToshibaSA16G = "02544d534131364743001af44c0129e9"
	csdToshibaSA16G = "400e00325b590000734f7f800a40001b"

	// Gigastone Gaming Plus (kernel commit message).
	cidGigastoneASTC = "12345641535443002000000145016200"

	// Samsung eMMC "M8G1GC" on the same armbian board (sysfs: manfid 0x000015, oemid
	// 0x0100, serial 0xdc0db061, rev 6, date 05/1997 as that 3.4 kernel printed it).
	cidEMMCSamsungM8G1GC = "1501004d384731474303dc0db061506f"
	csdEMMCSamsungM8G1GC = "d02701320f5903fff6dbffef8e40400d"

	// The first 64 bytes of an ACMD13 (SD status) response of a real card, quoted in the
	// test test_sd_status_parse of an embedded Rust SD/MMC host crate (a fork of the
	// sdio-host family), written here as Linux prints /sys/.../ssr.
	ssrRustCrateCard = "80000000030000000400900014051a00" +
		"0000000000000000000000000000000000000000000000000000000000000000" +
		"00000000000000000000000000000000"
)
