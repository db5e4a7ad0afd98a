package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/stats"
)

// runSustained writes once across a fresh region, one series point a second, stopping at the
// size or time bound, or once the rate after a cliff has settled.
func (r *runner) runSustained(ctx context.Context, i int, t profile.Test) (*record.Test, error) {
	ss := t.Sustained
	budget := profile.TestBudget(t, r.p.MaxDuration, time.Since(r.start), profile.BudgetsFrom(r.p.Tests[i:]))
	dur := min(ss.MaxDuration, budget)
	// In a directory the write is a copy: its file grows as it is written and, past the
	// filesystem's largest file (FAT32's 4 GiB), goes on in another (engine.Spec.NextFile).
	eng := t.Engine
	if r.env.Engine != "" {
		eng = r.env.Engine
	}
	split := r.file != nil && eng == engine.EnginePsync && t.QD == 1 && t.Jobs == 1
	region, bound, err := r.sustainedRegion(t, ss, !split)
	if err != nil {
		return nil, err
	}
	var parts []*engine.TestFile
	defer func() {
		for _, f := range parts {
			if rmErr := f.Remove(); rmErr != nil {
				r.logf("%v", rmErr)
			}
		}
	}()

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &sustainedWatch{r: r, i: i, t: t, region: region, stop: cancel}
	spec := r.spec(t, region, region, dur, 0, w.progress)
	spec.SeriesInterval = time.Second
	if split {
		spec.NextFile = r.nextPart(t, &parts)
	}
	res, err := engine.Run(cctx, spec)
	if res != nil {
		r.rec.BytesWritten += res.BytesWritten
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
	rt := r.testRecord(t, res)
	rt.Sustained = sustained(res, ss)
	if w.steady && !rt.Sustained.SteadyState {
		// The write stopped because the rate had settled; the analysis of the final series
		// rounds it differently (see stats.SettledRate), and the record says what stopped it.
		rt.Sustained.SteadyState, rt.Sustained.SteadyMBPerS = true, w.settledMBPerS
	}
	s := rt.Sustained
	s.FileSizeLimitBytes, s.Files = res.FileSizeLimitBytes, res.Files
	switch {
	case w.steady:
		s.StopReason = "settled"
	case runErr != nil || res.Interrupted:
		s.StopReason = "interrupted"
	case res.NextFileErr != "":
		s.StopReason = "file-size-limit"
		r.logf("%s: stopped at the filesystem's largest file (%s): no further file could be made: %s", t.Name, fmtBytes(res.FileSizeLimitBytes), res.NextFileErr)
	case res.Bytes >= region-int64(t.BlockSize):
		s.StopReason = bound
	case dur < ss.MaxDuration:
		s.StopReason = "time-budget"
	default:
		s.StopReason = "time"
	}
	headline(rt)
	if w.steady {
		r.logf("%s: the rate settled after the cliff; stopped after %s", t.Name, fmtBytes(res.Bytes))
	}
	return rt, runErr
}

// sustainedWatch follows a sustained write's progress and reports it: the series so far, the
// cliff in it, and the rate after the cliff, which once settled stops the write.
type sustainedWatch struct {
	r      *runner
	i      int // the test's index in the profile
	t      profile.Test
	region int64
	stop   context.CancelFunc
	live   []stats.Interval
	rates  []float64
	ends   []int64 // bytes written by the end of each sample
	// steady says the write was stopped because the rate had settled, at settledMBPerS.
	steady        bool
	settledMBPerS float64
}

func (w *sustainedWatch) progress(pr engine.Progress) {
	r, t := w.r, w.t
	w.live = append(w.live, stats.Interval{EndS: pr.Elapsed.Seconds(), MBPerS: pr.MBPerS, IOPS: pr.IOPS})
	w.rates, w.ends = append(w.rates, pr.MBPerS), append(w.ends, pr.DoneBytes)
	ls := &LiveSustained{Bytes: pr.DoneBytes, BoundBytes: w.region}
	if c := stats.FindCliff(w.rates); c.Found && c.Index > 0 {
		ls.Cliff, ls.CliffAtS, ls.CliffAtBytes = true, w.live[c.Index-1].EndS, w.ends[c.Index-1]
		ls.BeforeMBPerS, ls.AfterMBPerS = c.Before, c.After
	}
	ls.DriveTempC, ls.SoCTempC = r.latestTemps(t.Name)
	r.emit(Event{Test: t.Name, Label: t.Label, Index: w.i + 1, Total: len(r.p.Tests), Phase: "measure", Run: 1,
		Elapsed: time.Since(r.start), IOPS: pr.IOPS, MBPerS: pr.MBPerS, ETA: pr.Remaining + r.budgetLeft(w.i+1), Sustained: ls})
	if m, ok := stats.SettledRate(w.live, t.Sustained.SteadyAfterCliff.Seconds()); ok && !w.steady {
		w.steady, w.settledMBPerS = true, m
		w.stop()
	}
}

// nextPart makes each next file of a write split across files, as a copy of a large file goes
// on past the filesystem's largest file; parts keeps them for removal.
func (r *runner) nextPart(t profile.Test, parts *[]*engine.TestFile) func() (string, error) {
	return func() (string, error) {
		f, err := engine.NewPartFile(r.file.Dir)
		if err != nil {
			return "", err
		}
		*parts = append(*parts, f)
		if len(*parts) == 1 {
			r.logf("%s: the filesystem holds no larger file; going on in a new file, as a copy of a large file must", t.Name)
		}
		return f.Path, nil
	}
}

// minSustainedBytes is the least a sustained write must have room for to say anything.
const minSustainedBytes = 64 * profile.MiB

// headline makes a sustained test's figure the rate a long copy keeps: the settled rate, else
// the rate after the cliff, else the whole write's average, which the analysis keeps as what
// it is (AverageMBPerS). IOPS and MiB/s follow, so the figures still agree with each other.
func headline(rt *record.Test) {
	s := rt.Sustained
	s.AverageMBPerS = rt.MBPerS
	v := rt.MBPerS
	switch {
	case s.SteadyState && s.SteadyMBPerS > 0:
		v = s.SteadyMBPerS
	case s.CliffFound && s.AfterMBPerS > 0:
		v = s.AfterMBPerS
	}
	rt.MBPerS, rt.MiBPerS = v, v*1e6/float64(profile.MiB)
	if rt.BS > 0 {
		rt.IOPS = v * 1e6 / float64(rt.BS)
	}
}

// sustainedRegion is the byte range the write covers: fresh space a copy would allocate,
// within the profile's byte budget, and which bound set it: "size", "byte-budget" or
// "free-space".
func (r *runner) sustainedRegion(t profile.Test, ss *profile.SustainedSpec, sparse bool) (int64, string, error) {
	bs := int64(t.BlockSize)
	region, bound := ss.MaxBytes, "size"
	if b := r.p.MaxBytesWritten; b > 0 && b-r.rec.BytesWritten < region {
		region, bound = b-r.rec.BytesWritten, "byte-budget"
	}
	switch {
	case r.file != nil:
		var st unix.Statfs_t
		if err := unix.Statfs(r.file.Dir, &st); err != nil {
			return 0, "", fmt.Errorf("free space of %s: %w", r.file.Dir, err)
		}
		free := int64(st.Bavail)*int64(st.Bsize) + r.file.SizeBytes - ss.FreeMarginBytes
		if free < region {
			region, bound = free, "free-space"
		}
		if region < minSustainedBytes {
			return 0, "", fmt.Errorf("%s has too little free space for a sustained write (%s left after keeping %s free): free some space or pick another directory",
				r.file.Dir, engine.FormatSize(max(region, 0)-max(region, 0)%profile.MiB), engine.FormatSize(ss.FreeMarginBytes))
		}
		region -= region % bs
		if sparse {
			// The write allocates as it goes, as a copy does, and nothing is laid out.
			if err := r.file.Truncate(region); err != nil {
				if errors.Is(err, unix.EFBIG) {
					return 0, "", fmt.Errorf("%w — the filesystem's largest file is smaller than the %s write: bound the write below it, or leave the engine to psync, which goes on in a new file", err, engine.FormatSize(region))
				}
				return 0, "", err
			}
		}
		r.workingSet = region
	case r.rec.Target.Kind == "block":
		if r.env.Probe != nil && r.env.Probe.Device != nil && r.env.Probe.Device.CapacityBytes > 0 {
			region = min(region, int64(r.env.Probe.Device.CapacityBytes))
		}
	default:
		if fi, err := os.Stat(r.target); err == nil && fi.Size() > 0 {
			region = min(region, fi.Size())
		}
	}
	return region - region%bs, bound, nil
}

// sustained is the record of a sustained write's analysis (stats.AnalyseSustained, over
// rounds as long as the stop rule's); whether heat is a suspect is advice's judgement, set
// when the record is finished.
func sustained(res *engine.Result, ss *profile.SustainedSpec) *record.Sustained {
	series := make([]stats.Interval, len(res.Series))
	for i, p := range res.Series {
		series[i] = stats.Interval{EndS: p.TS, MBPerS: p.MBPerS, IOPS: p.IOPS}
	}
	a := stats.AnalyseSustained(series, ss.SteadyAfterCliff.Seconds()/stats.DefaultSteadyWindow)
	return &record.Sustained{CliffFound: a.CliffFound, CliffAtBytes: a.CliffAtBytes, CliffAtS: a.CliffAtS,
		BeforeMBPerS: a.BeforeMBPerS, AfterMBPerS: a.AfterMBPerS, DropPct: a.DropPct,
		SteadyState: a.SteadyState, SteadyMBPerS: a.SteadyMBPerS, WrittenBytes: res.Bytes}
}
