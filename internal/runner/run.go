package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/stats"
)

// Env is what a run needs from its caller besides the profile.
type Env struct {
	// Target is a directory (a test file is laid out there once and removed at the end), a
	// file, or a block device (read-only unless Destructive and Confirm name it).
	Target string
	// Probe is `iomark info`'s report of the target: the link ceiling (CeilingPct) and, for
	// a1/a2, the card's claimed class. May be nil.
	Probe *probe.Report
	// Progress receives live events (may be nil). Called from the runner's goroutines, one
	// call at a time.
	Progress func(Event)
	// Sensors is sampled once a second during tests (may be nil): SoC and drive temperature,
	// throttling, power. The runner fills TS and Test.
	Sensors func() record.SensorSample
	// Health is what the drive reported about itself before the run (may be nil).
	Health *health.Health
	// Power describes where the samples' PowerW comes from, or the meter reading that stands
	// for every test (nil: no power figures).
	Power *record.Power
	// DriveTemp says where Sensors' drive temperatures come from (nil: none are read).
	DriveTemp *record.DriveTemp
	// Log receives one-line notes for people (may be nil).
	Log func(format string, args ...any)
	// Destructive and Confirm allow writing to a block device (Confirm names it again).
	Destructive bool
	Confirm     string
	// Engine overrides every test's back end when set (psync, io_uring).
	Engine engine.Engine
	// ToolVersion and ToolCommit name the iomark that measures, as the record keeps them.
	ToolVersion, ToolCommit string
	// PriceUSD is what the user said the drive cost (--price); nil when not given.
	PriceUSD *float64
	// Class is the drive's class as the user declared it (run --class), for a drive the probe
	// cannot tell (a loop device, a virtual disk); "" uses the probe's. It sets the write
	// budget only (profile.WriteBudget), never the record's device.
	Class string
	// Decision is Decide's answer for this profile and env when the caller already has it
	// (the CLI decides before it probes the drive); nil: Run decides.
	Decision *Decision
}

// Event is one progress report.
type Event struct {
	Test  string // test name; "" during the layout of the test file
	Label string
	Index int // 1-based test index
	Total int
	// Phase: "layout", "warm-up", "measure", "rest" or "done" (Test finished: Result set).
	Phase   string
	Run     int           // repetition, 1-based (measure phase)
	Elapsed time.Duration // since the run began
	IOPS    float64       // over the last interval
	MBPerS  float64       // over the last interval
	// ETA is the time the run may still take at most, from the tests' budgets.
	ETA    time.Duration
	Result *record.Test // set with Phase "done"
	// Sustained is what a sustained write has shown so far (measure phase; nil for other
	// tests).
	Sustained *LiveSustained
}

// LiveSustained is a sustained write as it goes: the bytes written of its bound, the cliff
// once one shows in the series so far (stats.FindCliff; the record's analysis is made at the
// end), and the latest temperatures sampled during it (nil when none was read).
type LiveSustained struct {
	Bytes, BoundBytes         int64
	Cliff                     bool
	CliffAtS                  float64
	CliffAtBytes              int64
	BeforeMBPerS, AfterMBPerS float64
	DriveTempC, SoCTempC      *float64
}

// runner holds one run's state.
type runner struct {
	p           profile.Profile
	env         Env
	start       time.Time
	rec         *record.Run // what the run measured so far; finish completes it
	target      string      // what jobs open
	workingSet  int64       // bytes of target the tests use
	file        *engine.TestFile
	decision    *Decision
	destructive bool // jobs may write target

	notes engineNotes // of the reported runs, said once each when the record is finished

	mu      sync.Mutex // guards rec.Sensors, curTest, and serialises Progress
	curTest string
}

// Run measures profile p on env.Target and returns the finished result record: the target
// and what the probe found, every test measured, sensor samples, scores, warnings and
// findings. It first decides what the run may do (Decide) and says so through env.Log,
// before any I/O. On ctx cancellation it stops at once and returns what was measured with
// Interrupted set (and a nil error). On any other error, the filesystem of the target
// unmounted under it included, it returns the error together with the record of what was
// measured before it. The test file it lays out is removed in every case. The record is nil
// only when the run could not start: an invalid profile, or a refusal of Decide.
func Run(ctx context.Context, p profile.Profile, env Env) (*record.Run, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	d := env.Decision
	if d == nil {
		var err error
		if d, err = Decide(p, env); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	rec, err := newRecord(env, p.Name, start)
	if err != nil {
		return nil, err
	}
	r := &runner{p: p, env: env, start: start, rec: rec, decision: d}
	for _, line := range d.Lines() {
		r.logf("%s", line)
	}
	err = r.measure(ctx)
	r.finish()
	return rec, err
}

// measure runs the tests while watching that the target's filesystem stays mounted: an
// unmount (umount -l detaches it while the run's open files keep it alive) stops the run
// with an error and a warning, never silently.
func (r *runner) measure(ctx context.Context) error {
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopWatch := r.watchTarget(cancel)
	err := r.measureOn(wctx)
	stopWatch()
	var gone *unmountedError
	if cause := context.Cause(wctx); ctx.Err() == nil && errors.As(cause, &gone) {
		r.rec.Interrupted = false
		r.warn(WarnUnmounted, "%s", gone.Error())
		return gone
	}
	return err
}

// measureOn lays out the target, runs every test with sensors sampled, and removes the test
// file.
func (r *runner) measureOn(ctx context.Context) (err error) {
	if err := r.openTarget(ctx); err != nil {
		if interrupted(ctx, err) {
			r.rec.Interrupted = true
			return nil
		}
		return err
	}
	defer func() {
		if rmErr := r.file.Remove(); rmErr != nil && err == nil {
			err = rmErr
		}
	}()

	stopSensors := r.sampleSensors()
	defer stopSensors()

	err = r.runTests(ctx)
	stopSensors()
	if interrupted(ctx, err) {
		r.rec.Interrupted, err = true, nil
	}
	return err
}

func interrupted(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (err == nil || errors.Is(err, engine.ErrInterrupted) || errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err()))
}

// openTarget sets up what jobs open, as the decision says: a directory gets one test file
// laid out now (leftovers of earlier runs removed first); a file or block device is used as
// it is, its first WorkingSetBytes.
func (r *runner) openTarget(ctx context.Context) error {
	d := r.decision
	r.rec.Target.Kind, r.target, r.workingSet = d.Kind, d.Target, d.WorkingSetBytes
	r.destructive = d.MayWrite && r.env.Destructive
	if d.Kind != engine.KindDir {
		return nil
	}
	f, err := engine.PrepareTestFile(ctx, d.Target, r.p.FileBytes, r.layoutProgress, r.env.Log)
	if f != nil {
		r.rec.BytesWritten += f.LayoutBytes
	}
	if err != nil {
		return err
	}
	// The test file is iomark's own: jobs may write it without --destructive.
	r.file, r.target, r.workingSet, r.destructive = f, f.Path, f.SizeBytes, true
	return nil
}

func (r *runner) layoutProgress(pr engine.Progress) {
	r.emit(Event{Phase: "layout", Total: len(r.p.Tests), Elapsed: time.Since(r.start), MBPerS: pr.MBPerS,
		ETA: pr.Remaining + r.budgetLeft(0)})
}

func (r *runner) emit(e Event) {
	if r.env.Progress == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.env.Progress(e)
}

func (r *runner) logf(format string, args ...any) {
	if r.env.Log != nil {
		r.env.Log(format, args...)
	}
}

// budgetLeft is the most the tests from index i on may still take.
func (r *runner) budgetLeft(i int) time.Duration {
	var d time.Duration
	for _, t := range r.p.Tests[i:] {
		d += t.Budget + r.p.RestBetweenTests
	}
	if r.p.MaxDuration > 0 {
		d = min(d, max(r.p.MaxDuration-time.Since(r.start), 0))
	}
	return d
}

// sampleSensors reads env.Sensors once a second until the returned stop is called (stop is
// idempotent).
func (r *runner) sampleSensors() (stop func()) {
	if r.env.Sensors == nil {
		return func() {}
	}
	return every(time.Second, func() bool {
		s := r.env.Sensors()
		r.mu.Lock()
		s.TS, s.Test = time.Since(r.start).Seconds(), r.curTest
		r.rec.Sensors = append(r.rec.Sensors, s)
		r.mu.Unlock()
		return true
	})
}

// every calls tick every interval, in a goroutine of its own, until tick returns false or the
// returned stop is called; stop waits for the goroutine to end and is idempotent.
func every(interval time.Duration, tick func() bool) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if !tick() {
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}

func (r *runner) setTest(name string) {
	r.mu.Lock()
	r.curTest = name
	r.mu.Unlock()
}

func (r *runner) runTests(ctx context.Context) error {
	sharesLeft := profile.WriteShares(r.p.Tests)
	if d := r.decision; len(d.Skipped) > 0 {
		r.warn(WarnWriteSkipped, "write tests skipped (%s): %s", strings.Join(d.Skipped, ", "), d.ReadOnlyWhy)
	}
	for i, t := range r.p.Tests {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if t.Writes() && !r.decision.MayWrite {
			sharesLeft -= t.WriteWeight()
			continue
		}
		if i > 0 && r.p.RestBetweenTests > 0 {
			r.setTest("") // samples of the rest belong to no test (idle power, cooling down)
			r.emit(Event{Test: t.Name, Label: t.Label, Index: i + 1, Total: len(r.p.Tests), Phase: "rest",
				Elapsed: time.Since(r.start), ETA: r.budgetLeft(i)})
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(r.p.RestBetweenTests):
			}
		}
		r.setTest(t.Name)
		var rt *record.Test
		var err error
		if t.Sustained != nil {
			rt, err = r.runSustained(ctx, i, t)
		} else {
			allowance := int64(-1)
			if t.Writes() {
				allowance = profile.WriteAllowance(r.decision.BudgetBytes, r.rec.BytesWritten, t.WriteWeight(), sharesLeft)
			}
			rt, err = r.runRepeated(ctx, i, t, allowance)
		}
		if t.Writes() {
			sharesLeft -= t.WriteWeight()
		}
		if rt != nil {
			r.rec.Tests = append(r.rec.Tests, *rt)
			r.emit(Event{Test: t.Name, Label: t.Label, Index: i + 1, Total: len(r.p.Tests), Phase: "done",
				Elapsed: time.Since(r.start), ETA: r.budgetLeft(i + 1), Result: rt})
		}
		if err != nil {
			return err
		}
	}
	r.setTest("")
	return nil
}

// spec is the engine job of test t on this run's target. A write run bounded by bytes has its
// ramp bounded by bytes too (profile.RampBytesFor), so what it writes is known before it
// starts: at most runBytes and a quarter more, whether a timer fires late on a loaded machine
// or the drive is faster than the rate its runs were planned at.
func (r *runner) spec(t profile.Test, region, runBytes int64, runTime, ramp time.Duration, onProgress func(engine.Progress)) engine.Spec {
	eng := t.Engine
	if r.env.Engine != "" {
		eng = r.env.Engine
	}
	target := r.target
	if dev := r.deviceFor(t); dev != "" {
		target = dev
	}
	return engine.Spec{Target: target, Pattern: t.Pattern, BlockSize: t.BlockSize, QD: t.QD, Jobs: t.Jobs,
		Engine: eng, WorkingSetBytes: region, IOBudgetBytes: runBytes, Runtime: runTime, Ramp: ramp,
		RampBytes: profile.RampBytesFor(t, runBytes), Direct: !t.Buffered, EndFsync: t.EndFsync && t.Pattern.Writes(),
		Destructive: r.destructive, Confirm: r.env.Confirm, Progress: onProgress, Log: r.env.Log}
}

// deviceFor is the disk a DeviceRead test reads: the probe's whole-disk device when this
// process can open it for reading (root, usually), else "" (the test reads the test file).
func (r *runner) deviceFor(t profile.Test) string {
	if !t.DeviceRead || t.Writes() || r.env.Probe == nil || r.env.Probe.Device == nil || r.env.Probe.Device.Path == "" {
		return ""
	}
	p := r.env.Probe.Device.Path
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	f.Close()
	return p
}

// layoutMBPerS is the rate the test file was laid out at, 0 when none was.
func (r *runner) layoutMBPerS() float64 {
	if r.file == nil {
		return 0
	}
	return r.file.LayoutMBPerS
}

// prepareRegion returns the region and per-run byte bound of t (planned at the layout rate,
// profile.RunBytes), growing the shared test file when a buffered write needs more room: a
// page-cache write must never wrap onto pages it dirtied itself, or the drive would see
// fewer bytes than were counted. grown is what the growth wrote, part of the test's bytes.
func (r *runner) prepareRegion(ctx context.Context, t profile.Test, allowance int64) (region, rb, grown int64, err error) {
	region = r.workingSet
	if t.RegionBytes > 0 {
		region = min(t.RegionBytes, r.workingSet)
	}
	rb = profile.RunBytes(t, profile.RunState{LayoutMBPerS: r.layoutMBPerS(), WriteRate: r.layoutMBPerS() * 1e6,
		Allowance: allowance, WarmUp: t.WarmUp > 0 && t.MaxRuns > 1})
	if dev := r.deviceFor(t); dev != "" {
		// The whole disk from its first byte, as hdparm reads it: bounded by time, and by
		// the disk's size so a run never wraps onto blocks the page cache already holds.
		region, rb = 0, 0
		if c := int64(r.env.Probe.Device.CapacityBytes); c > 0 {
			region = c - c%int64(t.BlockSize)
			rb = region
		}
		r.logf("%s reads %s, the disk the target is on", t.Name, dev)
		return region, rb, 0, nil
	}
	if !t.Buffered {
		return region, rb, 0, nil
	}
	if t.Writes() && r.file != nil && rb > region {
		grow := rb - region
		if allowance >= 0 && grow >= allowance {
			rb = region
		} else {
			n, err := r.file.Grow(ctx, rb, r.layoutProgress, r.env.Log)
			r.rec.BytesWritten += n
			grown = n
			if err != nil {
				return 0, 0, grown, err
			}
			region, r.workingSet = r.file.SizeBytes, r.file.SizeBytes
		}
	}
	if rb == 0 || rb > region {
		rb = region
	}
	return region, rb, grown, nil
}

// runRepeated runs test t until stats.StopRule is satisfied, after a discarded warm-up, and
// summarises the runs as one record.Test (nil when nothing was measured).
func (r *runner) runRepeated(ctx context.Context, i int, t profile.Test, allowance int64) (*record.Test, error) {
	budget := profile.TestBudget(t, r.p.MaxDuration, time.Since(r.start), profile.BudgetsFrom(r.p.Tests[i:]))
	testStart := time.Now()
	region, rb, testWritten, err := r.prepareRegion(ctx, t, allowance)
	if err != nil {
		return nil, err
	}
	x := &repeated{r: r, ctx: ctx, i: i, t: t, allowance: allowance, budget: budget, testStart: testStart,
		region: region, rb: rb, testWritten: testWritten,
		writeRate: r.layoutMBPerS() * 1e6, warmStart: time.Now()}
	if t.WarmUp > 0 && t.MaxRuns > 1 {
		if stop, err := x.warmUp(); stop {
			return nil, err
		}
	}
	results, values, drop, runErr := x.measure()
	if len(results) == 0 {
		return nil, runErr
	}
	if drop >= len(results) {
		drop = 0
	}
	rt := x.summarise(results, values, drop)
	if runErr == nil {
		r.warnFewRuns(t, rt, budget)
	}
	return rt, runErr
}

// repeated is one test's state while runRepeated runs it: its region, what it has written,
// the rate it writes at and its timeline.
type repeated struct {
	r         *runner
	ctx       context.Context
	i         int
	t         profile.Test
	allowance int64
	budget    time.Duration
	testStart time.Time
	region    int64
	rb        int64 // the next run's bytes
	// testWritten is what the test has written so far; lastWritten what its last run did,
	// its ramp included: the next one's likely bytes.
	testWritten, lastWritten int64
	writeRate                float64 // bytes/s, to plan the runs and bound the ramp of write tests
	// The test's own timeline, from its first I/O: the warm-up's series and each run's, to
	// find a burst at its head once the sustained rate is known.
	warmStart time.Time
	timeline  []stats.Sample
	warmIOS   float64 // seconds of I/O the warm-up ran
}

// progress reports a run's progress as phase, run.
func (x *repeated) progress(phase string, run int) func(engine.Progress) {
	r, t := x.r, x.t
	return func(pr engine.Progress) {
		r.emit(Event{Test: t.Name, Label: t.Label, Index: x.i + 1, Total: len(r.p.Tests), Phase: phase, Run: run,
			Elapsed: time.Since(r.start), IOPS: pr.IOPS, MBPerS: pr.MBPerS,
			ETA: max(x.budget-time.Since(x.testStart), 0) + r.budgetLeft(x.i+1)})
	}
}

// one runs the test once, after dropping the cache where the test asks it, and counts what
// the run wrote.
func (x *repeated) one(phase string, run int, runTime, ramp time.Duration) (*engine.Result, error) {
	r, t := x.r, x.t
	if t.DropCache {
		target := r.target
		if dev := r.deviceFor(t); dev != "" {
			target = dev
		}
		if err := engine.DropCache(target); err != nil {
			r.logf("%s: %v", t.Name, err)
		}
	}
	res, err := engine.Run(x.ctx, r.spec(t, x.region, x.rb, runTime, ramp, x.progress(phase, run)))
	if res != nil {
		r.rec.BytesWritten += res.BytesWritten
		x.testWritten += res.BytesWritten
		x.lastWritten = res.BytesWritten
	}
	return res, err
}

// addSeries adds a run's series, started at start, to the timeline.
func (x *repeated) addSeries(res *engine.Result, start time.Time) {
	off := start.Sub(x.warmStart).Seconds() + res.RampS
	for _, pt := range res.Series {
		v := pt.MBPerS
		if x.t.Primary == profile.PrimaryIOPS {
			v = pt.IOPS
		}
		x.timeline = append(x.timeline, stats.Sample{EndS: off + pt.TS, Value: v})
	}
}

// warmUp runs the discarded warm-up and takes its write rate; stop says the test ends there,
// with the error.
func (x *repeated) warmUp() (stop bool, err error) {
	res, err := x.one("warm-up", 0, min(x.t.WarmUp, x.budget), 0)
	if err != nil {
		return true, fmt.Errorf("%s: %w", x.t.Name, err)
	}
	if res.Interrupted {
		return true, x.ctx.Err()
	}
	x.addSeries(res, x.warmStart)
	x.warmIOS = res.DurationS
	if res.DurationS > 0 && res.Bytes > 0 {
		x.writeRate = float64(res.Bytes) / res.DurationS
	}
	return false, nil
}

// measure runs the test until the stop rule is met, the budget or the write allowance is
// spent, or a run fails; drop is how many leading runs were still inside a burst (part of
// the warm-up, not of the figure).
func (x *repeated) measure() (results []*engine.Result, values []float64, drop int, runErr error) {
	r, t, allowance := x.r, x.t, x.allowance
	rule := stats.StopRule{TargetCI95Pct: profile.TargetCI95Pct, MinRuns: t.MinRuns, MaxRuns: t.MaxRuns, Budget: x.budget}
	// A direct write test is planned again at the rate it really writes at, after the warm-up
	// and after each run, so its runs share what is left of its allowance (a buffered test
	// keeps the bound its file was grown for: its rates are the page cache's).
	replan := t.Writes() && allowance >= 0 && !t.Buffered
	if replan {
		x.rb = profile.RunBytes(t, profile.RunState{LayoutMBPerS: r.layoutMBPerS(), WriteRate: x.writeRate,
			Allowance: max(allowance-x.testWritten, 0)})
	}
	ramp := profile.RampFor(t, x.rb, x.writeRate)
	for {
		runStart := time.Now()
		res, err := x.one("measure", len(results)+1, t.RunTime, ramp)
		if err != nil {
			return results, values, drop, fmt.Errorf("%s: %w", t.Name, err)
		}
		if res.Interrupted {
			// A cut-short run is kept only when it is all there is.
			if len(results) == 0 && res.IOs > 0 {
				results, values = append(results, res), append(values, primary(t, res))
			}
			return results, values, drop, x.ctx.Err()
		}
		results, values = append(results, res), append(values, primary(t, res))
		x.addSeries(res, runStart)
		lastRun := time.Since(runStart)
		drop = stats.LeadingFastRuns(values)
		if done, _ := rule.Done(values[drop:], time.Since(x.testStart), lastRun); done {
			return results, values, drop, nil
		}
		// The next run's most bytes: a replanned run's bound and its ramp's (the engine holds
		// it to them); a buffered run writes what it wrote last time, its bound.
		next := x.lastWritten
		if replan && res.DurationS > 0 && res.Bytes > 0 {
			x.writeRate = float64(res.Bytes) / res.DurationS
			x.rb = profile.RunBytes(t, profile.RunState{LayoutMBPerS: r.layoutMBPerS(), WriteRate: x.writeRate,
				Allowance: max(allowance-x.testWritten, 0), RunsDone: len(results)})
			ramp = profile.RampFor(t, x.rb, x.writeRate)
			next = x.rb
			if ramp > 0 {
				next += profile.RampBytesFor(t, x.rb)
			}
		}
		if t.Writes() && allowance >= 0 && x.testWritten+next > allowance {
			r.logf("%s: stopping after %s to stay inside the profile's write budget (%s of its %s written)", t.Name, plural(len(results), "run"), fmtBytes(x.testWritten), fmtBytes(allowance))
			return results, values, drop, nil
		}
	}
}

// summarise is the test's record from the runs after the first drop: their figures, the
// warm-up they followed and the burst at the test's head.
func (x *repeated) summarise(results []*engine.Result, values []float64, drop int) *record.Test {
	r, t := x.r, x.t
	rt := r.summarise(t, results[drop:], values[drop:])
	if t.WarmUp > 0 && t.MaxRuns > 1 || drop > 0 {
		// The I/O before the first kept run: the warm-up's, and that of the runs still in a
		// burst (their ramps included), as fio's ramp_time would run it.
		w := x.warmIOS
		for _, res := range results[:drop] {
			w += res.RampS + res.DurationS
		}
		rt.WarmUpS = math.Round(w*1000) / 1000
	}
	if b, ok := stats.FindBurst(x.timeline, primary(t, results[drop+medianIndex(values[drop:])])); ok {
		rt.Burst = &record.Burst{S: math.Round(b.S*1000) / 1000, X: math.Round(b.X*100) / 100}
		if drop > 0 {
			r.logf("%s: the first %s ran faster than the rest (a burst of %.1f s at %.1f× the sustained rate): counted as warm-up", t.Name, plural(drop, "run"), b.S, b.X)
		}
	}
	return rt
}

// primary is the figure of a run that its test is about.
func primary(t profile.Test, res *engine.Result) float64 {
	if t.Primary == profile.PrimaryIOPS {
		return res.IOPS
	}
	return res.MBPerS
}

// summarise builds the record of a test from its runs: the figures, latency, duration,
// bytes, series and CPU share of the median run (so all come from one real run), the interval
// of the median, and every run's value.
func (r *runner) summarise(t profile.Test, results []*engine.Result, values []float64) *record.Test {
	sum := stats.Summarize(values)
	m := results[medianIndex(values)]
	rt := r.testRecord(t, m)
	rt.CI95Pct, rt.Runs, rt.RunValues = sum.CI95Pct, len(results), slices.Clone(values)
	for _, w := range stats.Warnings(sum, profile.TargetCI95Pct) {
		switch {
		case w.Code == stats.WarnNoisy:
			// Said once, by the test's noisy flag and the noisy finding.
			rt.Noisy = true
		case w.Code != stats.WarnSingleRun || t.MaxRuns > 1:
			r.warn(w.Code, "%s: %s", t.Name, w.Message)
		}
	}
	return rt
}

// testRecord is the record of test t with the figures of run m.
func (r *runner) testRecord(t profile.Test, m *engine.Result) *record.Test {
	rt := &record.Test{Name: t.Name, Op: string(t.Pattern), BS: t.BlockSize, QD: t.QD, Jobs: t.Jobs,
		Engine: string(m.Engine), Direct: !t.Buffered, IOPS: m.IOPS, MBPerS: m.MBPerS, MiBPerS: m.MiBPerS,
		Primary: t.Primary, LatUS: latency(m.LatUS), Runs: 1, RunValues: []float64{primary(t, m)},
		DurationS: m.DurationS, Bytes: m.Bytes, WorkingSetBytes: m.WorkingSetBytes, RampS: m.RampS,
		Series: m.Series, CPUPct: cpuPct(m)}
	rt.CeilingPct = ceilingPct(rt.MBPerS, r.env.Probe)
	r.notes.add(m.EngineNote, t.Name)
	return rt
}

// cpuPct is the CPU time a run used per second of its own measured duration (100 = one core
// busy all along).
func cpuPct(res *engine.Result) float64 {
	if res.DurationS <= 0 {
		return 0
	}
	return (res.CPU.UsrS + res.CPU.SysS) / res.DurationS * 100
}

// medianIndex is the index of the run whose value is the median (the lower middle one for
// an even count), so the reported figures all come from one real run.
func medianIndex(values []float64) int {
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case values[a] < values[b]:
			return -1
		case values[a] > values[b]:
			return 1
		}
		return 0
	})
	return idx[(len(idx)-1)/2]
}

func latency(l stats.LatencySummaryUS) record.Latency {
	return record.Latency{P50: l.P50, P90: l.P90, P99: l.P99, P999: l.P999, Max: l.Max, Mean: l.Mean}
}

// ceilingPct is MB/s as a share of the probe's link ceiling, or nil when there is none.
func ceilingPct(mbPerS float64, rep *probe.Report) *float64 {
	if rep == nil || rep.CeilingMBPerS <= 0 {
		return nil
	}
	v := mbPerS / rep.CeilingMBPerS * 100
	return &v
}

// latestTemps is the newest drive and SoC temperature sampled during test name, each nil
// when none was.
func (r *runner) latestTemps(name string) (drive, soc *float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.rec.Sensors) - 1; i >= 0 && (drive == nil || soc == nil); i-- {
		s := r.rec.Sensors[i]
		if s.Test != name {
			break
		}
		if drive == nil {
			drive = s.DriveTempC
		}
		if soc == nil {
			soc = s.SoCTempC
		}
	}
	return drive, soc
}
