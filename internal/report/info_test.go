package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/stats"
)

// probeFixture is `iomark info`'s probe of target on a fixture tree of internal/probe.
func probeFixture(t *testing.T, fixture, target string) *probe.Report {
	t.Helper()
	r, err := probe.Probe(target, probe.Options{Root: filepath.Join("..", "probe", "testdata", fixture)})
	if err != nil {
		t.Fatalf("%s: %v", fixture, err)
	}
	return r
}

// TestInfoGolden prints `iomark info` for three fixtures: a USB flash drive with every
// finding a partition and mount can earn, a USB 3 SSD in a USB 2 port, and a Pi 5 NVMe.
func TestInfoGolden(t *testing.T) {
	for _, c := range []struct{ fixture, target, golden string }{
		{"pi4-flash-sector63", "/media/usb0", "info.flash-sector63.golden"},
		{"pi4-usb3-ssd-in-usb2-port", "/", "info.ssd-in-usb2-port.golden"},
		{"pi5-nvme-gen3", "/", "info.nvme-gen3.golden"},
		{"pi4-microsd", "/", "info.microsd.golden"},
	} {
		r := probeFixture(t, c.fixture, c.target)
		// What the drive says about itself: the NVMe of the checkbox-102 log (internal/health
		// fixtures), and what health.Read says of the others (an SD card reports nothing).
		h := health.Read(r, probe.Options{Root: filepath.Join("..", "probe", "testdata", c.fixture)})
		if r.NVMe != nil {
			used, hours, written, media, temp := 3, uint64(6726), uint64(64768925*512000), uint64(0), 30.0
			h = &health.Health{Source: health.SourceNVMe, PercentageUsed: &used, PercentageUsedBasis: "NVMe Percentage Used",
				PowerOnHours: &hours, DataWrittenBytes: &written, MediaErrors: &media, TemperatureC: &temp, CriticalWarnings: []string{}}
		}
		findings := append(advice.Evaluate(r), advice.EvaluateHealth(h)...)
		var b bytes.Buffer
		if err := Info(&b, r, h, findings); err != nil {
			t.Fatal(err)
		}
		golden(t, c.golden, b.Bytes())
	}
	if err := Info(&bytes.Buffer{}, nil, nil, nil); err == nil {
		t.Error("Info of no report succeeded")
	}
}

func TestListGolden(t *testing.T) {
	entries, err := probe.List(probe.Options{Root: filepath.Join("..", "probe", "testdata", "x86-sata-nvme")})
	if err != nil {
		t.Fatal(err)
	}
	more, err := probe.List(probe.Options{Root: filepath.Join("..", "probe", "testdata", "pi4-usb3-ssd-in-usb2-port")})
	if err != nil {
		t.Fatal(err)
	}
	var rows []ListRow
	for _, e := range append(entries, more...) {
		rows = append(rows, ListRow{ListEntry: e, Health: health.Read(nil, probe.Options{})})
	}
	// The NVMe drive of the fixture as the checkbox-102 log reads it (internal/health).
	used, hours, written := 3, uint64(6726), uint64(64768925*512000)
	rows[0].Health = &health.Health{Source: health.SourceNVMe, PercentageUsed: &used, PowerOnHours: &hours,
		DataWrittenBytes: &written, CriticalWarnings: []string{}}
	var b bytes.Buffer
	if err := List(&b, rows); err != nil {
		t.Fatal(err)
	}
	golden(t, "list.golden", b.Bytes())

	// list --no-ioctl asks no drive: no health column at all.
	for i := range rows {
		rows[i].Health = nil
	}
	b.Reset()
	if err := List(&b, rows); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "HEALTH") || !strings.Contains(b.String(), "MOUNTED ON") {
		t.Errorf("list without health:\n%s", b.String())
	}
}

// TestJobGolden prints `iomark job` for a mixed random job with fsyncs, laid out first, and
// for a read cut short by a signal. Placeholder figures for the layout, not a measurement.
func TestJobGolden(t *testing.T) {
	lat := func(p50 float64) stats.LatencySummaryUS {
		return stats.LatencySummaryUS{P50: p50, P90: p50 * 2, P99: p50 * 5, P999: p50 * 20, Max: p50 * 80, Mean: p50 * 1.3}
	}
	mixed := &engine.Result{Target: "/mnt/ssd/.iomark-job-1.tmp", TargetKind: "dir", Pattern: engine.RandRW, RWMixRead: 70,
		BlockSize: 4096, QD: 32, Jobs: 2, Engine: engine.EnginePsync,
		EngineNote: "io_uring unavailable (operation not permitted): using psync", Direct: true,
		WorkingSetBytes: 1 << 30, RampS: 1, IOPS: 41234, MBPerS: 168.9, MiBPerS: 161.1, Bytes: 1689000000, IOs: 412340,
		DurationS: 10.0, LatUS: lat(1480),
		Read:        &engine.Direction{IOPS: 28864, MBPerS: 118.2, LatUS: lat(1320)},
		Write:       &engine.Direction{IOPS: 12370, MBPerS: 50.7, LatUS: lat(1850)},
		Fsync:       &engine.FsyncStats{Count: 12, LatUS: lat(5400), TotalS: 0.21},
		CPU:         engine.CPU{UsrS: 1.2, SysS: 6.4, USPerIO: 18.4},
		LayoutBytes: 1 << 30, BytesWritten: 1<<30 + 506700000}
	read := &engine.Result{Target: "/dev/sda", TargetKind: "block", Pattern: engine.Read, BlockSize: 1 << 20, QD: 1, Jobs: 1,
		Engine: engine.EngineIOUring, Direct: true, WorkingSetBytes: 500107862016, IOPS: 512, MBPerS: 537, MiBPerS: 512,
		Bytes: 1611661312, IOs: 1537, DurationS: 3.0, RampS: 0, LatUS: lat(1950), CPU: engine.CPU{UsrS: 0.01, SysS: 0.2, USPerIO: 137},
		Interrupted: true}
	var b bytes.Buffer
	for _, r := range []*engine.Result{mixed, read} {
		if err := Job(&b, r); err != nil {
			t.Fatal(err)
		}
		b.WriteString("--\n")
	}
	golden(t, "job.golden", b.Bytes())
	if err := Job(&b, nil); err == nil {
		t.Error("Job of no result succeeded")
	}
}

// The kernel line names the kernel's machine when the probe read it.
func TestInfoKernelArch(t *testing.T) {
	r := probeFixture(t, "pi5-nvme-gen3", "/")
	r.Board.Arch = "aarch64"
	var b bytes.Buffer
	if err := Info(&b, r, nil, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "kernel 6.12.25+rpt-rpi-2712 aarch64, Debian") {
		t.Errorf("no machine name on the kernel line:\n%s", b.String())
	}
}
