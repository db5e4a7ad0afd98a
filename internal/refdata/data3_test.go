package refdata

import (
	"fmt"
	"testing"
)

// TestPi5AndCM5RowsDecode pins the Pi 5 and CM5 rows appended after row 300 (SOURCES.md,
// sources pcie-devices-745 onward): each decodes with its board, family, device class and
// link setting, and its figures are copied as printed (the quoted source line is beside each
// case; expected values are written from the sources).
func TestPi5AndCM5RowsDecode(t *testing.T) {
	results := loadAll(t)
	const cm5 = "Raspberry Pi Compute Module 5"
	tests := []struct {
		row                  int
		source, board        string
		deviceClass, pcieGen string
		check                func(r Result) map[string][2]string // name -> {got, want}
	}{
		// raspberry-pi-pcie-devices#745: "HDParm Disk Read 631.68 MB/sec", "FIO 4k random write 26290 IOPS (105160 KB/s)",
		// "IOZone 4k random write 178701 KB/s"; "The following logs are based on forced PCIe gen 3"; no Score line.
		{301, "pcie-devices-745", "Raspberry Pi 5", "nvme", "3", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "631.68"}, "fio write iops": {r.FioRand4kWriteIOPS.Printed, "26290"},
				"fio write kbps": {r.FioRand4kWriteKBps.Printed, "105160"}, "iozone rand write": {r.Rand4kWriteKBpsIozone.Printed, "178701"},
				"no score": {r.PiBenchmarksScore.Printed, ""}, "capacity": {r.CapacityGB.Printed, "256"}, "wording": {r.BoardPublished, "RPI5"}}
		}},
		// rpi5nas README: "Timing O_DIRECT disk reads: 2448 MB in  3.00 seconds = 815.97 MB/sec"; "4TB" is not a GB number.
		{302, "hilli-rpi5nas", "Raspberry Pi 5", "nvme", "3", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "815.97"}, "buffered": {r.HdparmReadMBps.Printed, ""},
				"capacity": {r.CapacityGB.Printed, ""}}
		}},
		// "#Command executed when PCIe Gen 2 was enabled" … "= 417.27 MB/sec"; Gen 3 … "= 791.38 MB/sec".
		{303, "pradeep39-private-cloud-part1", "Raspberry Pi 5", "nvme", "2", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "417.27"}, "date": {r.SourceDate, "2025-01-10"}}
		}},
		{304, "pradeep39-private-cloud-part1", "Raspberry Pi 5", "nvme", "3", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "791.38"}}
		}},
		// rpi_5_notes.md: "Benchmark default speed" … "= 436.30 MB/sec" (Gen 2 inferred from "default"), then gen 3 "= 820.66 MB/sec".
		{305, "sourceperl-rpi5-notes", "Raspberry Pi 5", "nvme", "2", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "436.30"}, "overclocked": {fmt.Sprint(r.Overclocked), "false"}}
		}},
		{306, "sourceperl-rpi5-notes", "Raspberry Pi 5", "nvme", "3", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "820.66"}}
		}},
		// teslausb#239: "5 with KIOXIA Excerica G2 on NVMe Base by Pimoroni: 49130 Score @Pibenchmarks".
		{307, "teslausb-239", "Raspberry Pi 5", "nvme", "", func(r Result) map[string][2]string {
			return map[string][2]string{"score": {r.PiBenchmarksScore.Printed, "49130"}, "model": {r.MakeModel, "KIOXIA Excerica G2"}}
		}},
		// raspberrypi/firmware#2021, Ubuntu run on the CM5 Dev Kit: "Timing buffered disk reads: 1280 MB in  3.01 seconds = 425.46 MB/sec".
		{308, "rpi-firmware-2021", cm5, "nvme", "", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm buffered": {r.HdparmReadMBps.Printed, "425.46"}, "direct": {r.HdparmDirectReadMBps.Printed, ""}}
		}},
		// Xplorer README 4.7.5: "Timing O_DIRECT cached reads:   822 MB in  2.00 seconds = 410.07 MB/sec",
		// "Timing O_DIRECT disk reads: 1254 MB in  3.00 seconds = 417.77 MB/sec"; the dd copy (146 MB/s) is not filed.
		{309, "austral-xplorer-cm5", cm5, "nvme", "2", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "417.77"}, "cached": {r.HdparmDirectCachedReadMBps.Printed, "410.07"},
				"no dd": {r.DDReadMBps.Printed + r.DDWriteMBps.Printed, ""}}
		}},
		{310, "austral-xplorer-cm5", cm5, "nvme", "2", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "416.10"}, "model": {r.MakeModel, "Crucial P310 1TB SSD"}}
		}},
		// 4.7.4: "Timing O_DIRECT disk reads: 546 MB in  3.00 seconds = 181.89 MB/sec".
		{311, "austral-xplorer-cm5", cm5, "usb-flash", "", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "181.89"}, "cached": {r.HdparmDirectCachedReadMBps.Printed, "246.22"}}
		}},
		// 5.1 "Config : Raspberry PI OS Desktop on EMMc …": "DD Disk Write 110 MB/s", "Score: 13083".
		{312, "austral-xplorer-cm5", cm5, "emmc", "", func(r Result) map[string][2]string {
			return map[string][2]string{"dd": {r.DDWriteMBps.Printed, "110"}, "score": {r.PiBenchmarksScore.Printed, "13083"},
				"iozone rand write": {r.Rand4kWriteKBpsIozone.Printed, "55907"}, "model": {r.MakeModel, "CM5 eMMC"}}
		}},
		// aquarite.info post, "デフォルト状態である、PCIe 2.0 x1": "IOZone 4k random write 180317 KB/s", "Score: 39018";
		// after enabling PCIe 3.0: "FIO 4k random read 215578 IOPS (862315 KB/s)", "Score: 55508".
		{313, "akizuru-rpi5-argon-one-v3", "Raspberry Pi 5", "nvme", "2", func(r Result) map[string][2]string {
			return map[string][2]string{"iozone rand write": {r.Rand4kWriteKBpsIozone.Printed, "180317"}, "score": {r.PiBenchmarksScore.Printed, "39018"}}
		}},
		{314, "akizuru-rpi5-argon-one-v3", "Raspberry Pi 5", "nvme", "3", func(r Result) map[string][2]string {
			return map[string][2]string{"fio read iops": {r.FioRand4kReadIOPS.Printed, "215578"}, "fio read kbps": {r.FioRand4kReadKBps.Printed, "862315"},
				"score": {r.PiBenchmarksScore.Printed, "55508"}}
		}},
	}
	if len(results) != 314 {
		t.Fatalf("%d rows, want 314", len(results))
	}
	for _, tt := range tests {
		r, ok := sourceRow(t, results, tt.row, tt.source)
		if !ok {
			continue
		}
		if r.Board != tt.board {
			t.Errorf("row %d: board %q, want %q", tt.row, r.Board, tt.board)
		}
		if fam, _ := BoardFamily(r.Board); fam != FamilyPi5 {
			t.Errorf("row %d: family %q, want %q", tt.row, fam, FamilyPi5)
		}
		if got := DeviceClass(r.StorageClass); got != tt.deviceClass {
			t.Errorf("row %d: storage_class %q maps to %q, want %q", tt.row, r.StorageClass, got, tt.deviceClass)
		}
		if r.PCIeGen != tt.pcieGen {
			t.Errorf("row %d: pcie_gen %q, want %q", tt.row, r.PCIeGen, tt.pcieGen)
		}
		if r.BoardImplied {
			t.Errorf("row %d: board_implied, but every one of these sources names its board", tt.row)
		}
		checkGotWant(t, tt.row, tt.check(r))
	}
}

// TestMicroSDExpressIsNVMe: the microSD Express card is an NVMe device on the Pi 5's PCIe
// (its lspci line is an NVM Express controller), so it ranks with NVMe drives under the PCIe
// link's ceiling, not with UHS microSD cards under the SD bus's (SOURCES.md, "The microSD
// Express card").
func TestMicroSDExpressIsNVMe(t *testing.T) {
	r := loadAll(t)[300]
	if r.MakeModel != "Nintendo SDexpress Card 256GB" || r.StorageClass != "nvme" || r.SDBusMode != "" {
		t.Errorf("row 301: %q class %q sd_bus_mode %q; want the SDexpress card as nvme with no SD bus mode", r.MakeModel, r.StorageClass, r.SDBusMode)
	}
}
