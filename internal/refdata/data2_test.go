package refdata

import (
	"fmt"
	"testing"
)

// TestSecondBatchDecodes spot-checks the rows added after the first 244 (SOURCES.md, sources
// grazer-sdcards-2019 to hankb-cm4-nvme-bases): each decodes with a canonical board of the named
// family and a storage class internal/probe knows, and a figure of each table is copied as
// printed (the quoted source line is beside each case).
func TestSecondBatchDecodes(t *testing.T) {
	results, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	tests := []struct {
		row            int
		source, family string
		deviceClass    string
		check          func(r Result) map[string][2]string // name -> {got, want}
	}{
		// sdcards.md, "SanDisk Ultra 8GB Class 10": "32768       4     1724     1897     6788     6791     6748      920".
		{245, "grazer-sdcards-2019", FamilyPiZero21, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"write": {r.Seq4kWriteKBpsIozone.Printed, "1724"}, "rewrite": {r.Seq4kRewriteKBpsIozone.Printed, "1897"},
				"read": {r.Seq4kReadKBpsIozone.Printed, "6788"}, "rand read": {r.Rand4kReadKBpsIozone.Printed, "6748"},
				"rand write": {r.Rand4kWriteKBpsIozone.Printed, "920"}, "board": {r.Board, "Raspberry Pi 2 Model B"}}
		}},
		// "Binful 16 GB Class 10": "32768       4     1258     1276     3559     3561     3462     1128".
		{251, "grazer-sdcards-2019", FamilyPiZero21, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"rand write": {r.Rand4kWriteKBpsIozone.Printed, "1128"}, "capacity": {r.CapacityGB.Printed, "16"}}
		}},
		// Minecraft-Server.md at f08fbe4: "HDParm Disk Read 28.48 MB/s", "Score: 700".
		{252, "grazer-minecraft-server", FamilyPi4, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "28.48"}, "score": {r.PiBenchmarksScore.Printed, "700"},
				"implied": {fmt.Sprint(r.BoardImplied), "true"}, "date": {r.SourceDate, "2020-12-06"}}
		}},
		// at 5bcbdda: "FIO 4k random write 804 IOPS (3216 KB/s)", "Score: 1545".
		{254, "grazer-minecraft-server", FamilyPi4, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"fio write iops": {r.FioRand4kWriteIOPS.Printed, "804"}, "fio write kbps": {r.FioRand4kWriteKBps.Printed, "3216"},
				"score": {r.PiBenchmarksScore.Printed, "1545"}}
		}},
		// gloveboxes README, "ASMT - Model: 1153 - USB 3 SSD": "DD Disk Write 69.0 MB/s", "Score: 6939".
		{256, "gloveboxes-iot-edge-buster", FamilyPi4, "usb-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"dd": {r.DDWriteMBps.Printed, "69.0"}, "score": {r.PiBenchmarksScore.Printed, "6939"}}
		}},
		// gecompat/Raspi System_Default/README.md, SSD run: "HDParm Disk Read 168.26 MB/s", "Score: 6520".
		{258, "gecompat-raspi-default", FamilyPi4, "usb-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "168.26"}, "score": {r.PiBenchmarksScore.Printed, "6520"},
				"wording": {r.BoardPublished, "Raspberry Pi 4 (4GB)"}}
		}},
		// RSPI_SSD_SpeedTest.md, Argon One M.2 SSD: "copied, 6.33218 s, 170 MB/s", "copied, 3.15488 s, 340 MB/s".
		{259, "xshigee-rpi4-ssd-speedtest", FamilyPi4, "usb-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"dd write": {r.DDWriteMBps.Printed, "170"}, "dd read": {r.DDReadMBps.Printed, "340"},
				"no sync flag": {fmt.Sprint(r.DDWithoutSync()), "false"}}
		}},
		// pull request #657 card page: "| iozone 4K random read      | 73.74 MB/s |".
		{262, "pcie-devices-657", FamilyPi5, "nvme", func(r Result) map[string][2]string {
			return map[string][2]string{"4k read": {r.Rand4kReadMBps.Printed, "73.74"}, "1M seq read": {r.IozoneSeq1MReadMBps.Printed, "419.09"},
				"unit": {r.IozoneUnitPrinted, "MB/s"}, "divisor": {r.IozoneKBDivisor, ""}, "gen": {r.PCIeGen, ""}}
		}},
		// fm4dd io-benchmark.md: "| Raspberry PI 0W    | Raspbian 8    |   22.4 MB/s |     7.1 MB/s | SD Card      |".
		{264, "fm4dd-io-benchmark", FamilyPiZero21, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"read": {r.DDReadMBps.Printed, "22.4"}, "write": {r.DDWriteMBps.Printed, "7.1"},
				"board": {r.Board, "Raspberry Pi Zero W"}, "no sync": {fmt.Sprint(r.DDWithoutSync()), "true"}}
		}},
		// "| Raspberry PI 4     | Raspbian 10   |   22.3 MB/s |    26.1 MB/s | MicroSD Card |".
		{267, "fm4dd-io-benchmark", FamilyPi4, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"write": {r.DDWriteMBps.Printed, "26.1"}, "date": {r.SourceDate, "2020-02-04"}}
		}},
		// HankB CM4 post, IO Board second run: "102400       4     2771     4184  1084930  1077146   988608     4175".
		{271, "hankb-cm4-nvme-bases", FamilyPi4, "nvme", func(r Result) map[string][2]string {
			return map[string][2]string{"write": {r.Seq4kWriteKBpsIozone.Printed, "2771"}, "rewrite": {r.Seq4kRewriteKBpsIozone.Printed, "4184"},
				"rand write": {r.Rand4kWriteKBpsIozone.Printed, "4175"}, "no cached read": {r.Rand4kReadKBpsIozone.Printed, ""},
				"board": {r.Board, "Raspberry Pi Compute Module 4"}}
		}},
	}
	for _, tt := range tests {
		if tt.row > len(results) {
			t.Errorf("row %d: the file has only %d rows", tt.row, len(results))
			continue
		}
		r := results[tt.row-1]
		if r.SourceID != tt.source {
			t.Errorf("row %d: source %q, want %q", tt.row, r.SourceID, tt.source)
			continue
		}
		if fam, ok := BoardFamily(r.Board); !ok || fam != tt.family {
			t.Errorf("row %d: board %q has family %q (known %v), want %q", tt.row, r.Board, fam, ok, tt.family)
		}
		if got := DeviceClass(r.StorageClass); got != tt.deviceClass {
			t.Errorf("row %d: storage_class %q maps to %q, want %q", tt.row, r.StorageClass, got, tt.deviceClass)
		}
		for name, gw := range tt.check(r) {
			if gw[0] != gw[1] {
				t.Errorf("row %d %s: got %q, want %q", tt.row, name, gw[0], gw[1])
			}
		}
	}
}
