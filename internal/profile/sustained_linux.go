package profile

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/stats"
)

// Thermal heuristics of the sustained analysis: a cliff is called thermal-suspect when the
// drive (else the SoC) is this hot at the cliff, or warmed this much since the write began.
// NVMe drives start throttling around 70-80 °C (their WCTEMP is commonly 70-85 °C).
const (
	thermalHotC  = 70
	thermalRiseC = 15
)

// runSustained writes once across a fresh region, one series point a second, stopping at the
// size or time bound, or once the rate after a cliff has settled.
func (r *runner) runSustained(ctx context.Context, i int, t Test) (*record.Test, error) {
	ss := t.Sustained
	budget := testBudget(t, r.p.MaxDuration, time.Since(r.start), budgetsFrom(r.p.Tests[i:]))
	dur := min(ss.MaxDuration, budget)
	region, err := r.sustainedRegion(t, ss)
	if err != nil {
		return nil, err
	}
	testStart := time.Since(r.start).Seconds()

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var live []float64
	steadyStop := false
	spec := r.spec(t, region, region, dur, 0, func(pr engine.Progress) {
		live = append(live, pr.MBPerS)
		r.emit(Event{Test: t.Name, Label: t.Label, Index: i + 1, Total: len(r.p.Tests), Phase: "measure", Run: 1,
			Elapsed: time.Since(r.start), IOPS: pr.IOPS, MBPerS: pr.MBPerS, ETA: pr.Remaining + r.budgetLeft(i+1)})
		if settled(live, ss.SteadyAfterCliff) {
			steadyStop = true
			cancel()
		}
	})
	spec.SeriesInterval = time.Second
	res, err := engine.Run(cctx, spec)
	if res != nil {
		r.out.BytesWritten += res.BytesWritten
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	var runErr error
	if res.Interrupted && ctx.Err() != nil {
		runErr = ctx.Err()
	}
	if res.IOs == 0 {
		return nil, runErr
	}
	rt := &record.Test{Name: t.Name, Op: string(t.Pattern), BS: t.BlockSize, QD: t.QD, Jobs: t.Jobs,
		Engine: string(res.Engine), Direct: !t.Buffered, IOPS: res.IOPS, MBPerS: res.MBPerS, MiBPerS: res.MiBPerS,
		Primary: t.Primary, LatUS: latency(res.LatUS), Runs: 1, RunValues: []float64{res.MBPerS},
		DurationS: res.DurationS, Bytes: res.Bytes, Series: res.Series}
	rt.CeilingPct = ceilingPct(rt.MBPerS, r.env.Probe)
	r.out.note(t.Name, res)
	r.mu.Lock()
	temps := sensorTemps(r.out.Sensors, t.Name, testStart)
	r.mu.Unlock()
	rt.Sustained = AnalyseSustained(res.Series, res.SeriesIntervalS, res.Bytes, temps)
	if steadyStop {
		r.logf("%s: the rate settled after the cliff; stopped after %s", t.Name, engine.FormatSize(res.Bytes-res.Bytes%MiB))
	}
	return rt, runErr
}

// settled reports whether a live series shows a cliff followed by a steady rate lasting at
// least d (one sample a second).
func settled(xs []float64, d time.Duration) bool {
	if d <= 0 {
		return false
	}
	c := stats.FindCliff(xs)
	if !c.Found {
		return false
	}
	after := xs[c.Index:]
	if float64(len(after)) < d.Seconds() {
		return false
	}
	_, _, ok := stats.SteadyState(after[len(after)-int(d.Seconds()):], 0)
	return ok
}

// sustainedRegion is the byte range the write covers: fresh space a copy would allocate.
func (r *runner) sustainedRegion(t Test, ss *SustainedSpec) (int64, error) {
	bs := int64(t.BlockSize)
	region := ss.MaxBytes
	switch {
	case r.file != nil:
		var st unix.Statfs_t
		if err := unix.Statfs(filepath.Dir(r.file.Path), &st); err != nil {
			return 0, fmt.Errorf("free space of %s: %w", filepath.Dir(r.file.Path), err)
		}
		free := int64(st.Bavail)*int64(st.Bsize) + r.file.SizeBytes - ss.FreeMarginBytes
		region = min(region, free)
		if region < 64*MiB {
			return 0, fmt.Errorf("%s has too little free space for a sustained write (%s left after keeping %s free): free some space or pick another directory",
				filepath.Dir(r.file.Path), engine.FormatSize(max(region, 0)-max(region, 0)%MiB), engine.FormatSize(ss.FreeMarginBytes))
		}
		region -= region % bs
		// Sparse: the write allocates as it goes, as a copy does, and nothing is laid out.
		if err := os.Truncate(r.file.Path, region); err != nil {
			return 0, fmt.Errorf("sizing the test file %s: %w", r.file.Path, err)
		}
		r.file.SizeBytes, r.workingSet = region, region
	case r.out.TargetKind == "block":
		if r.env.Probe != nil && r.env.Probe.Device != nil && r.env.Probe.Device.CapacityBytes > 0 {
			region = min(region, int64(r.env.Probe.Device.CapacityBytes))
		}
	default:
		if fi, err := os.Stat(r.target); err == nil && fi.Size() > 0 {
			region = min(region, fi.Size())
		}
	}
	return region - region%bs, nil
}

// TempSample is a temperature (°C) at a time (seconds) since the sustained write began.
type TempSample struct {
	TS, C float64
}

// sensorTemps picks the drive temperature (else the SoC's) of test name's samples.
func sensorTemps(samples []record.SensorSample, name string, testStart float64) []TempSample {
	var drive, soc []TempSample
	for _, s := range samples {
		if s.Test != name {
			continue
		}
		if s.DriveTempC != nil {
			drive = append(drive, TempSample{s.TS - testStart, *s.DriveTempC})
		}
		if s.SoCTempC != nil {
			soc = append(soc, TempSample{s.TS - testStart, *s.SoCTempC})
		}
	}
	if len(drive) > 0 {
		return drive
	}
	return soc
}

// AnalyseSustained finds the cliff of a per-interval throughput series (stats.FindCliff),
// where it happened in time and bytes, the rate before and after it, whether the rate after
// it (or the whole series, without a cliff) reached a steady state (stats.SteadyState) and
// whether heat is a suspect. AfterMBPerS is the mean of every sample after the cliff, the
// transition included; SteadyMBPerS is the rate it settled at — the one to show as "the
// after-cliff rate" when SteadyState is set.
func AnalyseSustained(series []engine.Point, intervalS float64, writtenBytes int64, temps []TempSample) *record.Sustained {
	xs := make([]float64, len(series))
	for i, p := range series {
		xs[i] = p.MBPerS
	}
	out := &record.Sustained{WrittenBytes: writtenBytes}
	c := stats.FindCliff(xs)
	from := 0
	if c.Found {
		from = c.Index
		out.CliffFound, out.BeforeMBPerS, out.AfterMBPerS, out.DropPct = true, c.Before, c.After, c.DropPct
		prevTS := 0.0
		var bytes float64
		for k := 0; k < c.Index; k++ {
			bytes += series[k].MBPerS * 1e6 * (series[k].TS - prevTS)
			prevTS = series[k].TS
		}
		out.CliffAtS, out.CliffAtBytes = prevTS, int64(math.Round(bytes))
		out.ThermalSuspect = thermalSuspect(temps, out.CliffAtS)
	}
	if start, mean, ok := stats.SteadyState(xs[from:], 0); ok {
		_ = start
		out.SteadyState, out.SteadyMBPerS = true, mean
	}
	return out
}

// thermalSuspect reports whether the drive was hot, or had warmed a lot, when the rate fell.
func thermalSuspect(temps []TempSample, atS float64) bool {
	if len(temps) == 0 {
		return false
	}
	first := temps[0].C
	near := math.NaN()
	for _, s := range temps {
		if s.TS <= atS+2 {
			near = s.C
		}
	}
	if math.IsNaN(near) {
		return false
	}
	return near >= thermalHotC || near-first >= thermalRiseC
}
