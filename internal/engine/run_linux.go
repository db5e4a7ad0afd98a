package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/stats"
)

// backend is one I/O engine: how many goroutines drive a job and what each one does.
type backend interface {
	name() Engine
	workers(s *Spec) int
	run(j *job, worker int) error
}

// ErrInterrupted marks a job stopped by its context (a signal) before it measured anything.
var ErrInterrupted = errors.New("interrupted")

// Run performs one job and returns what it measured. When ctx is cancelled during the measured
// phase, Run returns the figures so far with Interrupted set; on any error it returns the
// error and leaves no file of its own behind.
func Run(ctx context.Context, spec Spec) (res *Result, err error) {
	s := spec
	if err := s.Validate(); err != nil {
		return nil, err
	}
	be, note, err := pickBackend(s.Engine)
	if err != nil {
		return nil, err
	}
	if note != "" {
		logf(&s, "%s", note)
	}
	tgt, err := openTarget(&s)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := tgt.close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if s.NextFile != nil && tgt.kind != kindFile {
		return nil, fmt.Errorf("%s: a write split across files at a file-size limit needs a file the caller made, not a %s", s.Target, tgt.kind)
	}
	if s.Seed == 0 {
		s.Seed = newSeed()
	}

	var layoutBytes int64
	if tgt.needsLayout {
		layoutBytes, err = layout(ctx, &s, tgt, s.Seed)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: %v", ErrInterrupted, err)
			}
			return nil, err
		}
	}

	r := &run{spec: &s, tgt: tgt, seed: s.Seed, done: make(chan struct{}), rampEnded: make(chan struct{})}
	if s.IOBudgetBytes > 0 {
		r.hasBudget = true
		r.budget.Store(s.IOBudgetBytes)
	}
	if s.Ramp > 0 && s.RampBytes > 0 {
		r.hasRampBudget = true
		r.rampBudget.Store(s.RampBytes)
	}
	if held := be.workers(&s) * s.Jobs; held <= maxRawWorkers {
		// The I/O goroutines keep their P through their syscalls (psync's pread/pwrite,
		// io_uring's io_uring_enter): one P each, plus room for the sampler and the runtime.
		prev := runtime.GOMAXPROCS(0)
		runtime.GOMAXPROCS(max(prev, held+2))
		defer runtime.GOMAXPROCS(prev)
		r.rawSyscalls = true
	}
	jobs, err := newJobs(r, be)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, j := range jobs {
			j.bufs.free()
		}
	}()

	defer func() {
		for _, fd := range r.parts {
			unix.Close(fd)
		}
	}()
	res, err = measure(ctx, r, be, jobs)
	if err != nil {
		return nil, err
	}
	if s.NextFile != nil && r.fileLimit > 0 {
		res.FileSizeLimitBytes, res.Files, res.NextFileErr = r.fileLimit, r.files+1, r.nextErr
	}
	res.EngineNote = strings.Join(append(nonEmpty(note), r.notes...), "; ")
	res.LayoutBytes = layoutBytes
	res.BytesWritten += layoutBytes
	return res, nil
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// pickBackend resolves auto: io_uring where the kernel allows it, else psync with the reason.
func pickBackend(e Engine) (backend, string, error) {
	switch e {
	case EnginePsync:
		return psync{}, "", nil
	case EngineIOUring:
		if err := uringUsable(); err != nil {
			return nil, "", fmt.Errorf("io_uring is not available here (%v): use --engine psync or auto", err)
		}
		return uring{}, "", nil
	default:
		if err := uringUsable(); err != nil {
			return psync{}, fmt.Sprintf("io_uring unavailable (%v): using psync", err), nil
		}
		return uring{}, "", nil
	}
}

// newJobs splits the working set among jobs (sequential jobs get a region each, random jobs
// share all of it) and gives each its buffers and meters.
func newJobs(r *run, be backend) ([]*job, error) {
	s := r.spec
	bs := int64(s.BlockSize)
	blocks := r.tgt.sizeBytes / bs
	if !s.Pattern.Random() && blocks < int64(s.Jobs) {
		return nil, fmt.Errorf("the working set (%s) has fewer blocks than there are jobs (%d): use fewer jobs or a larger working set", human(r.tgt.sizeBytes), s.Jobs)
	}
	jobs := make([]*job, s.Jobs)
	for i := range jobs {
		j := &job{r: r, id: i, regionBlocks: blocks, fsync: stats.NewLatency()}
		if !s.Pattern.Random() {
			per := blocks / int64(s.Jobs)
			j.regionStart, j.regionBlocks = int64(i)*per*bs, per
		}
		bufs, err := newBuffers(s.QD, s.BlockSize)
		if err != nil {
			for _, done := range jobs[:i] {
				done.bufs.free()
			}
			return nil, err
		}
		if s.Pattern.Writes() {
			for k, b := range bufs.bufs {
				fillRandom(b, r.seed^uint64(i)<<32^uint64(k))
			}
		}
		j.bufs = bufs
		for range be.workers(s) {
			j.meters = append(j.meters, newMeter(s.Pattern))
		}
		jobs[i] = j
	}
	return jobs, nil
}

// measure runs the ramp and the measured window, samples the series and builds the result.
func measure(ctx context.Context, r *run, be backend, jobs []*job) (*Result, error) {
	s := r.spec
	var wg sync.WaitGroup
	r.base = time.Now()
	var ru0, ru1 unix.Rusage
	if s.Ramp <= 0 {
		// No ramp: the window opens before the first I/O, so every I/O is claimed from the
		// byte budget and counted. Opened after the workers start, the I/O they issued before
		// it went unbounded: on a loaded machine a fast drive wrote 27.5 MiB past a run's bound
		// while this goroutine waited for a CPU.
		_ = unix.Getrusage(unix.RUSAGE_SELF, &ru0)
		r.endRamp()
	}
	for _, j := range jobs {
		for w := range j.meters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := be.run(j, w); err != nil {
					r.fail(err)
				}
			}()
		}
	}
	interrupted := false
	stopAll := func() { r.requestStop(); wg.Wait() }

	if s.Ramp > 0 {
		ramp := time.NewTimer(s.Ramp)
		select {
		case <-ramp.C:
		case <-r.rampEnded: // its bytes were spent first
		case <-r.done:
		case <-ctx.Done():
			interrupted = true
		}
		ramp.Stop()
		_ = unix.Getrusage(unix.RUSAGE_SELF, &ru0)
		r.endRamp()
	}
	t0 := time.Duration(r.t0.Load())

	// The window ends when the runtime is up or a signal comes: I/O still in flight then is
	// not counted (a throttled queue drains in bursts, which would skew the rate), as fio
	// does. A byte-bound job instead ends when its last I/O completes, so it counts them all.
	var series []Point
	cut := true
	if !interrupted {
		series, interrupted, cut = sample(ctx, r, jobs, t0)
	}
	var t1 time.Duration
	if cut {
		t1 = r.now()
		r.t1.Store(int64(t1))
		r.phase.Store(phaseDone)
		_ = unix.Getrusage(unix.RUSAGE_SELF, &ru1)
	}
	stopAll()
	if r.err != nil {
		return nil, r.err
	}
	if !cut {
		t1 = r.now()
		_ = unix.Getrusage(unix.RUSAGE_SELF, &ru1)
	}
	var fsyncEnd time.Duration
	if s.EndFsync && s.Pattern.Writes() && !interrupted {
		f0 := r.now()
		if err := unix.Fsync(r.tgt.fd); err != nil {
			return nil, ioError(r.tgt, true, 0, 0, err)
		}
		fsyncEnd = r.now() - f0
		t1 += fsyncEnd
	}

	res := &Result{
		Target: r.tgt.path, TargetKind: r.tgt.kind, Pattern: s.Pattern, BlockSize: s.BlockSize,
		QD: s.QD, Jobs: s.Jobs, Engine: be.name(), Direct: s.Direct,
		WorkingSetBytes: r.tgt.sizeBytes, RampS: rampS(s, t0),
		DurationS: (t1 - t0).Seconds(), Series: series, SeriesIntervalS: s.SeriesInterval.Seconds(),
		Interrupted: interrupted,
	}
	if s.Pattern == RandRW {
		res.RWMixRead = s.RWMixRead
	}
	summarize(res, s, jobs, fsyncEnd)
	res.CPU = CPU{UsrS: tvSeconds(ru1.Utime) - tvSeconds(ru0.Utime), SysS: tvSeconds(ru1.Stime) - tvSeconds(ru0.Stime)}
	if res.IOs > 0 {
		res.CPU.USPerIO = (res.CPU.UsrS + res.CPU.SysS) / float64(res.IOs) * 1e6
	}
	return res, nil
}

// rampS is how long the ramp of s lasted, which is less than s.Ramp when its bytes
// (RampBytes) were spent first.
func rampS(s *Spec, t0 time.Duration) float64 {
	if s.Ramp <= 0 {
		return 0
	}
	return min(t0, s.Ramp).Seconds()
}

// sample waits out the measured window, recording throughput once per interval. It reports
// whether ctx ended the window (interrupted) and whether time or a signal did (cut), rather
// than a worker (the byte budget spent, or an error).
func sample(ctx context.Context, r *run, jobs []*job, t0 time.Duration) (series []Point, interrupted, cut bool) {
	s := r.spec
	var deadline <-chan time.Time
	if s.Runtime > 0 {
		timer := time.NewTimer(max(s.Runtime-(r.now()-t0), 0))
		defer timer.Stop()
		deadline = timer.C
	}
	ticker := time.NewTicker(s.SeriesInterval)
	defer ticker.Stop()
	series = make([]Point, 0, 128)
	lastT, lastIOs, lastBytes := t0, int64(0), int64(0)
	point := func() {
		now := r.now()
		ios, bytes := totals(jobs)
		iv := (now - lastT).Seconds()
		if iv <= 0 {
			return
		}
		p := Point{TS: (now - t0).Seconds(), IOPS: float64(ios-lastIOs) / iv, MBPerS: float64(bytes-lastBytes) / iv / 1e6}
		series = append(series, p)
		lastT, lastIOs, lastBytes = now, ios, bytes
		if s.Progress != nil {
			pr := Progress{Phase: "measure", Elapsed: now - t0, IOPS: p.IOPS, MBPerS: p.MBPerS, DoneBytes: bytes, TotalBytes: s.IOBudgetBytes}
			if s.Runtime > 0 {
				pr.Remaining = max(s.Runtime-(now-t0), 0)
			}
			s.Progress(pr)
		}
	}
	for {
		select {
		case <-ticker.C:
			point()
			// The clock ends the window too, so a deadline timer that is late to fire (a
			// starved scheduler) cannot keep a short test reading for minutes.
			if s.Runtime > 0 && r.now()-t0 >= s.Runtime {
				return series, false, true
			}
		case <-deadline:
			point()
			return series, false, true
		case <-r.done:
			if r.now()-lastT >= s.SeriesInterval/2 {
				point()
			}
			return series, false, false
		case <-ctx.Done():
			point()
			return series, true, true
		}
	}
}

func totals(jobs []*job) (ios, bytes int64) {
	for _, j := range jobs {
		for _, m := range j.meters {
			ios += m.ios.Load()
			bytes += m.bytes.Load()
		}
	}
	return ios, bytes
}

// summarize merges every goroutine's counters and histograms into res.
func summarize(res *Result, s *Spec, jobs []*job, fsyncEnd time.Duration) {
	all, reads, writes, fsyncs := stats.NewLatency(), stats.NewLatency(), stats.NewLatency(), stats.NewLatency()
	var rd, wr Direction
	var rdEdge, wrEdge float64 // shares of I/Os straddling the window's edges (meter.record)
	var fsyncN int64
	for _, j := range jobs {
		for _, m := range j.meters {
			rd.IOs += m.readIOs
			rd.Bytes += m.readBytes
			wr.IOs += m.writeIOs
			wr.Bytes += m.writeBytes
			rdEdge += m.readEdge
			wrEdge += m.writeEdge
			reads.Merge(m.readLat)
			writes.Merge(m.writeLat)
		}
		fsyncs.Merge(j.fsync)
		fsyncN += j.fsyncN.Load()
	}
	all.Merge(reads)
	all.Merge(writes)
	dur := res.DurationS
	// Rates count what moved inside the window: the I/Os completed in it, less the part of
	// those that began before it, plus the part inside it of those it cut (meter.record).
	// IOs and Bytes count the I/Os completed in the window, whole.
	bs := float64(s.BlockSize)
	moved := func(ios int64, edge float64) float64 { return max(float64(ios)+edge, 0) }
	rate := func(d *Direction, edge float64, h *stats.Latency) {
		if dur > 0 {
			d.IOPS = moved(d.IOs, edge) / dur
			d.MBPerS = d.IOPS * bs / 1e6
			d.MiBPerS = d.IOPS * bs / (1 << 20)
		}
		d.LatUS = h.SummaryUS()
	}
	if s.Pattern.Reads() {
		rate(&rd, rdEdge, reads)
		res.Read = &rd
	}
	if s.Pattern.Writes() {
		rate(&wr, wrEdge, writes)
		res.Write = &wr
	}
	res.IOs = rd.IOs + wr.IOs
	res.Bytes = rd.Bytes + wr.Bytes
	if dur > 0 {
		res.IOPS = moved(res.IOs, rdEdge+wrEdge) / dur
		res.MBPerS = res.IOPS * bs / 1e6
		res.MiBPerS = res.IOPS * bs / (1 << 20)
	}
	res.LatUS = all.SummaryUS()
	if fsyncEnd > 0 {
		fsyncs.Record(fsyncEnd)
		fsyncN++
	}
	if fsyncN > 0 {
		res.Fsync = &FsyncStats{Count: fsyncN, LatUS: fsyncs.SummaryUS(), TotalS: fsyncs.SummaryUS().Mean * float64(fsyncN) / 1e6}
	}
	// Every write the drive saw, ramp and measured window alike.
	for _, j := range jobs {
		for _, m := range j.meters {
			res.BytesWritten += m.writtenBytes
		}
	}
}

func tvSeconds(tv unix.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
