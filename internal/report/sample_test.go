package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func ptr[T any](v T) *T { return &v }

// sampleRun is a SYNTHETIC record: a `quick` run on a Raspberry Pi 4 with a 32 GB SanDisk
// microSD card on the SD bus in DDR50 mode. Nothing here was measured; the figures are made up
// to be plausible for such a card (compare pidramble's Pi 4 table in internal/refdata), and the
// ceiling follows linkdb's SD formula (50 MHz DDR on 4 bits = 50 MB/s, 90% usable).
func sampleRun() *record.Run {
	basis := "SD UHS-I DDR50 at 50.0 MHz on 4 bits: bus 50.0 MB/s, ~45 MB/s after block CRC and command overhead"
	src := "docs/ceilings.md#sd-and-emmc-bus-modes"
	return &record.Run{
		SchemaVersion: record.SchemaVersion,
		ID:            "019a4f2e-7c00-7a3b-9d1e-3f5a2b6c8d01",
		CreatedAt:     time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		ToolVersion:   "0.1.0",
		Profile:       "quick",
		DurationS:     57.4,
		BytesWritten:  402653184,
		Target:        record.Target{Path: "/home/pi", Kind: "dir"},
		Host: &probe.Board{Model: "Raspberry Pi 4 Model B Rev 1.4", Revision: "c03114", Governor: "ondemand",
			Kernel: "6.6.51+rpt-rpi-v8", OS: "Debian GNU/Linux 12 (bookworm)", MemoryBytes: 8324866048, CPUs: 4},
		Device: &probe.Device{Name: "mmcblk0", Path: "/dev/mmcblk0", Class: probe.ClassMicroSD, Vendor: "SanDisk",
			Model: "SC32G", CapacityBytes: 31914983424},
		SD: &probe.SD{Type: "SD", ManfID: 3, OEMID: "SD", Name: "SC32G", Manufacturer: "SanDisk",
			Timing: "sd uhs DDR50", ClockHz: 50000000, BusWidthBits: 4},
		Link: []probe.Hop{{Bus: "sd", Name: "mmc0", SpeedMbps: 400, Driver: "sdhci-iproc",
			Detail: "SD UHS-I DDR50, 50 MHz, 4-bit", CeilingMBPerS: 45, CeilingBasis: basis, CeilingSource: src}},
		Mount:         &probe.Mount{MountPoint: "/", FSType: "ext4", Source: "/dev/mmcblk0p2", Options: "rw,noatime"},
		CeilingMBPerS: 45,
		Ceiling:       &probe.Ceiling{MBPerS: 45, Bus: "sd", Basis: basis, Source: src},
		Tests: []record.Test{
			{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				IOPS: 41.1, MBPerS: 43.1, MiBPerS: 41.1, Primary: "mb_per_s",
				LatUS: record.Latency{P50: 23900, P99: 26800, Max: 41200}, CI95Pct: 0.6, Runs: 3,
				DurationS: 6, Bytes: 258998272, CeilingPct: ptr(95.8)},
			{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				IOPS: 18.9, MBPerS: 19.8, MiBPerS: 18.88, Primary: "mb_per_s",
				LatUS: record.Latency{P50: 51200, P99: 98400, Max: 212000}, CI95Pct: 2.9, Runs: 4,
				DurationS: 12, Bytes: 237502464, CeilingPct: ptr(44.0)},
			{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				IOPS: 2460, MBPerS: 10.08, MiBPerS: 9.61, Primary: "iops",
				LatUS: record.Latency{P50: 392, P99: 610, Max: 4120}, CI95Pct: 1.1, Runs: 3,
				DurationS: 6, Bytes: 60456960, CeilingPct: ptr(22.4)},
			{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				IOPS: 702, MBPerS: 2.88, MiBPerS: 2.74, Primary: "iops",
				LatUS: record.Latency{P50: 1180, P99: 9850, Max: 88000}, CI95Pct: 4.2, Runs: 5,
				DurationS: 10, Bytes: 28753920, CeilingPct: ptr(6.4)},
			{Name: "rand-read-4k-qd32", Op: "randread", BS: 4096, QD: 32, Jobs: 1, Engine: "io_uring", Direct: true,
				IOPS: 3210, MBPerS: 13.15, MiBPerS: 12.54, Primary: "iops",
				LatUS: record.Latency{P50: 9870, P99: 14200, Max: 21000}, CI95Pct: 0.9, Runs: 3,
				DurationS: 6, Bytes: 78888960, CeilingPct: ptr(29.2)},
			{Name: "rand-write-4k-qd32", Op: "randwrite", BS: 4096, QD: 32, Jobs: 1, Engine: "io_uring", Direct: true,
				IOPS: 815, MBPerS: 3.34, MiBPerS: 3.18, Primary: "iops",
				LatUS: record.Latency{P50: 35100, P99: 212000, Max: 498000}, CI95Pct: 9.6, Runs: 6, Noisy: true,
				DurationS: 12, Bytes: 40058880, CeilingPct: ptr(7.4)},
		},
		Scores: record.Scores{Iomark: ptr(1520.0)},
		Findings: []record.Finding{{ID: "noisy", Severity: record.SeverityWarn,
			Message:  "rand-write-4k-qd32 stayed noisy (±9.6% after 6 runs): the card's background work varies its write rate",
			Fix:      "compare this figure with care, or run again with the card idle and cool",
			Evidence: "ci95_pct=9.6 runs=6 budget spent"}},
		Sensors: []record.SensorSample{
			{TS: 0, Test: "seq-read-1m", SoCTempC: ptr(48.2), Throttled: "0x0"},
			{TS: 30, Test: "rand-write-4k-qd1", SoCTempC: ptr(49.7), Throttled: "0x0"},
			{TS: 57, Test: "rand-write-4k-qd32", SoCTempC: ptr(50.6), Throttled: "0x0"},
		},
	}
}

// sampleSustainedRun is SYNTHETIC too: a sustained write on the same Pi 4 and card, whose rate
// falls from about 28 to about 9 MB/s after 40 s while the SoC warms. Nothing was measured.
func sampleSustainedRun() *record.Run {
	r := sampleRun()
	r.ID, r.Profile, r.DurationS, r.BytesWritten = "019a4f40-1200-7b11-8c2d-4e5f60718293", "sustained", 120, 1_660_000_000
	var series []engine.Point
	var sensors []record.SensorSample
	written := 0.0
	for s := 1; s <= 120; s++ {
		mbps := 28.0 + float64(s%3)*0.4
		if s > 40 {
			mbps = 9.0 + float64(s%4)*0.3
		}
		written += mbps * 1e6
		series = append(series, engine.Point{TS: float64(s), IOPS: mbps * 1e6 / (1 << 20), MBPerS: mbps})
		if s%5 == 0 {
			sensors = append(sensors, record.SensorSample{TS: 3 + float64(s), Test: "sustained-write-1m",
				SoCTempC: ptr(50 + float64(s)/12), Throttled: "0x0"})
		}
	}
	r.Tests = []record.Test{{Name: "sustained-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Direct: true,
		IOPS: 8.96, MBPerS: 9.4, MiBPerS: 8.96, Primary: "mb_per_s", Runs: 1, DurationS: 120, Bytes: int64(written),
		Series: series, Sustained: &record.Sustained{CliffFound: true, CliffAtBytes: 1_136_000_000, CliffAtS: 40.5,
			BeforeMBPerS: 28.4, AfterMBPerS: 9.4, DropPct: 66.9, SteadyState: true, SteadyMBPerS: 9.4,
			WrittenBytes: int64(written), AverageMBPerS: 15.4, StopReason: "settled"}}}
	r.Sensors = sensors
	r.Scores = record.Scores{}
	r.Findings = []record.Finding{}
	return r
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/report -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", name, d)
	}
}

// profileRun is a SYNTHETIC record of a profile on the sample's Pi 4 microSD card: each test
// of the profile as the runner records it (op, block size, queue depth, jobs, O_DIRECT or
// buffered, the sustained analysis), with placeholder figures. Nothing was measured.
func profileRun(t *testing.T, name string) *record.Run {
	t.Helper()
	p, err := profile.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleRun()
	r.Profile, r.Tests, r.Scores = name, nil, record.Scores{}
	for _, pt := range p.Tests {
		rt := record.Test{Name: pt.Name, Op: string(pt.Pattern), BS: pt.BlockSize, QD: pt.QD, Jobs: max(pt.Jobs, 1),
			Direct: !pt.Buffered, Primary: pt.Primary, MBPerS: 10, MiBPerS: 10 / 1.048576, IOPS: 10e6 / float64(pt.BlockSize), Runs: 3}
		if name == "sustained" {
			rt.Sustained = &record.Sustained{WrittenBytes: 1 << 30}
		}
		r.Tests = append(r.Tests, rt)
	}
	if p.Score != nil {
		r.Scores = p.Score(r.Tests)
	}
	return r
}
