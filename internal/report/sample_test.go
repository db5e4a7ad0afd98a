package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iomark/iomark/internal/compare/comparetest"
	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func ptr[T any](v T) *T { return &v }

// sampleRun is comparetest's SYNTHETIC quick run of a Pi 4 microSD card.
func sampleRun() *record.Run { return comparetest.Sample() }

func profileRun(t *testing.T, name string) *record.Run { return comparetest.ProfileRun(t, name) }

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
