package refdata

import (
	"fmt"
	"testing"
)

// TestSecondBatchDecodes spot-checks the rows added after the first 244 (SOURCES.md, sources
// grazer-sdcards-2019 onward): each decodes with a canonical board of the named
// family and a storage class internal/probe knows, and a figure of each table is copied as
// printed (the quoted source line is beside each case).
func TestSecondBatchDecodes(t *testing.T) {
	results := loadAll(t)
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
		{257, "gloveboxes-iot-edge-buster", FamilyPi4, "usb-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"dd": {r.DDWriteMBps.Printed, "69.0"}, "score": {r.PiBenchmarksScore.Printed, "6939"}}
		}},
		// gecompat/Raspi System_Default/README.md, SSD run: "HDParm Disk Read 168.26 MB/s", "Score: 6520".
		{259, "gecompat-raspi-default", FamilyPi4, "usb-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "168.26"}, "score": {r.PiBenchmarksScore.Printed, "6520"},
				"wording": {r.BoardPublished, "Raspberry Pi 4 (4GB)"}}
		}},
		// RSPI_SSD_SpeedTest.md, Argon One M.2 SSD: "copied, 6.33218 s, 170 MB/s", "copied, 3.15488 s, 340 MB/s".
		{260, "xshigee-rpi4-ssd-speedtest", FamilyPi4, "usb-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"dd write": {r.DDWriteMBps.Printed, "170"}, "dd read": {r.DDReadMBps.Printed, "340"},
				"no sync flag": {fmt.Sprint(r.DDWithoutSync()), "false"}}
		}},
		// raspberry-pi-pcie-devices#657 card page: "| iozone 4K random read      | 73.74 MB/s |".
		{263, "pcie-devices-657", FamilyPi5, "nvme", func(r Result) map[string][2]string {
			return map[string][2]string{"4k read": {r.Rand4kReadMBps.Printed, "73.74"}, "1M seq read": {r.IozoneSeq1MReadMBps.Printed, "419.09"},
				"unit": {r.IozoneUnitPrinted, "MB/s"}, "divisor": {r.IozoneKBDivisor, ""}, "gen": {r.PCIeGen, ""}}
		}},
		// fm4dd io-benchmark.md: "| Raspberry PI 0W    | Raspbian 8    |   22.4 MB/s |     7.1 MB/s | SD Card      |".
		{265, "fm4dd-io-benchmark", FamilyPiZero21, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"read": {r.DDReadMBps.Printed, "22.4"}, "write": {r.DDWriteMBps.Printed, "7.1"},
				"board": {r.Board, "Raspberry Pi Zero W"}, "no sync": {fmt.Sprint(r.DDWithoutSync()), "true"}}
		}},
		// "| Raspberry PI 4     | Raspbian 10   |   22.3 MB/s |    26.1 MB/s | MicroSD Card |".
		{271, "fm4dd-io-benchmark", FamilyPi4, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"write": {r.DDWriteMBps.Printed, "26.1"}, "date": {r.SourceDate, "2020-02-04"}}
		}},
		// HankB CM4 post, IO Board second run: "102400       4     2771     4184  1084930  1077146   988608     4175".
		{276, "hankb-cm4-nvme-bases", FamilyPi4, "nvme", func(r Result) map[string][2]string {
			return map[string][2]string{"write": {r.Seq4kWriteKBpsIozone.Printed, "2771"}, "rewrite": {r.Seq4kRewriteKBpsIozone.Printed, "4184"},
				"rand write": {r.Rand4kWriteKBpsIozone.Printed, "4175"}, "no cached read": {r.Rand4kReadKBpsIozone.Printed, ""},
				"board": {r.Board, "Raspberry Pi Compute Module 4"}}
		}},
		// Quick_Review_of_RPi_Zero_2_W.md: "102400       4     1864     1901     6688     6710     5331     2962" and
		// "102400    1024    20388    20124    22847    22900    22904    18276".
		{277, "tkaiser-rpi-zero-2-w", FamilyPiZero21, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"4k write": {r.Seq4kWriteKBpsIozone.Printed, "1864"}, "4k rand read": {r.Rand4kReadKBpsIozone.Printed, "5331"},
				"4k rand write": {r.Rand4kWriteKBpsIozone.Printed, "2962"}, "1M rand read": {r.Rand1MReadKBpsIozone.Printed, "22904"},
				"1M rand write": {r.Rand1MWriteKBpsIozone.Printed, "18276"}, "mode": {r.SDBusMode, "HS"}}
		}},
		// Quick_Preview_of_ROCK_5B.md, "FORESEE SLD64G from 05/2021": "102400    1024   143426   146085   256129   256513   253494   140067".
		{280, "tkaiser-rock-5b", FamilyOtherSBC, "emmc", func(r Result) map[string][2]string {
			return map[string][2]string{"1M write": {r.Seq1MWriteKBpsIozone.Printed, "143426"}, "1M rewrite": {r.Seq1MRewriteKBpsIozone.Printed, "146085"},
				"board": {r.Board, "Radxa ROCK 5B"}}
		}},
		// Quick_Preview_of_ROCK_5_ITX.md, TF card: "102400       4     2738     2762    12852    12789    10197     2776".
		{288, "tkaiser-rock-5-itx", FamilyOtherSBC, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"4k rand read": {r.Rand4kReadKBpsIozone.Printed, "10197"}, "mode": {r.SDBusMode, "SDR104"}}
		}},
		// Quick_Preview_of_ODROID-H2.md, NVMe: "102400       4   118800   166451   113793   114171    48654   161392".
		{298, "tkaiser-odroid-h2", FamilyOtherSBC, "nvme", func(r Result) map[string][2]string {
			return map[string][2]string{"4k write": {r.Seq4kWriteKBpsIozone.Printed, "118800"}, "4k rand read": {r.Rand4kReadKBpsIozone.Printed, "48654"}}
		}},
		// tegraTx1Nano.md: "Timing buffered disk reads: 250 MB in  3.02 seconds =  82.90 MB/sec".
		{299, "ayaromenok-jetson-nano", FamilyOtherSBC, "microsd", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmReadMBps.Printed, "82.90"}, "board": {r.Board, "NVIDIA Jetson Nano"}}
		}},
		// io-benchmark.md: "| Apple MacMini 2007 | Linux         |   81.3 MB/s |    58.0 MB/s | 5200RPM HDD|".
		{272, "fm4dd-io-benchmark", FamilyPC, "sata", func(r Result) map[string][2]string {
			return map[string][2]string{"read": {r.DDReadMBps.Printed, "81.3"}, "write": {r.DDWriteMBps.Printed, "58.0"}}
		}},
		// Minecraft-Server.md at 746cc67, "HP T630 Thin Client internal MMC": "Score: 5070".
		{255, "grazer-minecraft-server", FamilyPC, "emmc", func(r Result) map[string][2]string {
			return map[string][2]string{"score": {r.PiBenchmarksScore.Printed, "5070"}, "board": {r.Board, "HP t630 Thin Client"}}
		}},
	}
	for _, tt := range tests {
		if tt.row > len(results) {
			t.Errorf("row %d: the file has only %d rows", tt.row, len(results))
			continue
		}
		r, ok := sourceRow(t, results, tt.row, tt.source)
		if !ok {
			continue
		}
		if fam, ok := BoardFamily(r.Board); !ok || fam != tt.family {
			t.Errorf("row %d: board %q has family %q (known %v), want %q", tt.row, r.Board, fam, ok, tt.family)
		}
		if got := DeviceClass(r.StorageClass); got != tt.deviceClass {
			t.Errorf("row %d: storage_class %q maps to %q, want %q", tt.row, r.StorageClass, got, tt.deviceClass)
		}
		checkGotWant(t, tt.row, tt.check(r))
	}
}
