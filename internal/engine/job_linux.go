package engine

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/stats"
)

// maxRawWorkers bounds the I/O goroutines that may hold a P through their syscalls.
const maxRawWorkers = 256

const (
	phaseRamp    int32 = 0
	phaseMeasure int32 = 1
	phaseDone    int32 = 2 // the window is closed: completions no longer count
)

// run is the state every job of one Run shares.
type run struct {
	spec *Spec
	tgt  *target
	seed uint64
	base time.Time // monotonic origin of every timestamp on the I/O path

	// rawSyscalls lets the I/O goroutines keep their P through pread/pwrite (see pio) or
	// io_uring_enter (see uring); Run then gives each one a P of its own.
	rawSyscalls bool

	phase     atomic.Int32
	stop      atomic.Bool
	hasBudget bool
	budget    atomic.Int64 // bytes left to transfer in the measured phase

	hasRampBudget bool
	rampBudget    atomic.Int64 // bytes left to issue in the ramp (Spec.RampBytes)
	rampOnce      sync.Once
	rampEnded     chan struct{} // closed when the measured window opens
	t0            atomic.Int64  // r.now() when the measured window opened, in ns
	t1            atomic.Int64  // r.now() when a timed window closed (phaseDone), in ns

	stopOnce sync.Once
	done     chan struct{} // closed when a worker asks the run to end
	errMu    sync.Mutex
	err      error
	notes    []string // said once each, for Result.EngineNote

	// A write split across files (Spec.NextFile), kept by its one worker: the descriptors
	// of the files written before the current one (closed when the job ends), the job
	// offset the current file starts at, where the first file was refused (EFBIG), how
	// many files were written and why no further one could be had.
	parts     []int
	fileBase  int64
	fileLimit int64
	files     int
	nextErr   string
}

// noteOnce keeps a note for the result, once however many jobs report it.
func (r *run) noteOnce(note string) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	for _, n := range r.notes {
		if n == note {
			return
		}
	}
	r.notes = append(r.notes, note)
}

// now is the monotonic time since the run began; it costs one vDSO clock read.
func (r *run) now() time.Duration { return time.Since(r.base) }

func (r *run) requestStop() {
	r.stop.Store(true)
	r.stopOnce.Do(func() { close(r.done) })
}

// fail records the first error of any worker and ends the run.
func (r *run) fail(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
	r.requestStop()
}

// endRamp opens the measured window, once: at the end of the ramp's time (measure) or of
// its bytes (claim).
func (r *run) endRamp() {
	r.rampOnce.Do(func() {
		r.t0.Store(int64(r.now()))
		r.phase.Store(phaseMeasure)
		close(r.rampEnded)
	})
}

// claim takes n bytes from the ramp's budget, or once it is spent (the I/O claiming it then
// opens the measured window) from the measured phase's; false means the budget is spent.
func (r *run) claim(n int) bool {
	if r.hasRampBudget && r.phase.Load() == phaseRamp {
		if r.rampBudget.Add(-int64(n)) >= 0 {
			return true
		}
		r.endRamp()
	}
	if !r.hasBudget || r.phase.Load() != phaseMeasure {
		return true
	}
	if r.budget.Add(-int64(n)) >= 0 {
		return true
	}
	r.requestStop()
	return false
}

// job is one independent stream of I/O with its own queue, buffers and region.
type job struct {
	r  *run
	id int

	regionStart  int64 // bytes
	regionBlocks int64 // blocks of BlockSize in the region
	seqNext      atomic.Int64
	writes       atomic.Int64 // for FsyncEvery

	bufs    *buffers
	meters  []*meter // one per goroutine driving this job
	fsync   *stats.Latency
	fsyncN  atomic.Int64
	fsyncMu sync.Mutex
}

// next picks the offset and direction of the next I/O. Random offsets are uniform over the
// region and block-aligned; sequential ones walk the region and wrap.
func (j *job) next(rng *rand.Rand) (offset int64, read bool) {
	s := j.r.spec
	bs := int64(s.BlockSize)
	switch s.Pattern {
	case Read:
		return j.regionStart + (j.seqNext.Add(1)-1)%j.regionBlocks*bs, true
	case Write:
		return j.regionStart + (j.seqNext.Add(1)-1)%j.regionBlocks*bs, false
	case RandRead:
		return j.regionStart + rng.Int64N(j.regionBlocks)*bs, true
	case RandWrite:
		return j.regionStart + rng.Int64N(j.regionBlocks)*bs, false
	default: // RandRW
		return j.regionStart + rng.Int64N(j.regionBlocks)*bs, rng.IntN(100) < s.RWMixRead
	}
}

// wroteOne counts a completed write and reports whether an fsync is due.
func (j *job) wroteOne() bool {
	n := j.r.spec.FsyncEvery
	return n > 0 && j.writes.Add(1)%int64(n) == 0
}

// doFsync issues one timed fsync of the target.
func (j *job) doFsync() error {
	t0 := j.r.now()
	if err := unix.Fsync(j.r.tgt.fd); err != nil {
		return ioError(j.r.tgt, true, 0, 0, err)
	}
	if j.r.phase.Load() == phaseMeasure {
		j.fsyncMu.Lock()
		j.fsync.Record(j.r.now() - t0)
		j.fsyncMu.Unlock()
		j.fsyncN.Add(1)
	}
	return nil
}

func (j *job) newRand(worker int) *rand.Rand {
	return rand.New(rand.NewPCG(j.r.seed, uint64(j.id)<<32|uint64(worker)))
}

// meter counts what one goroutine completed in the measured phase. Only that goroutine
// writes it; the sampler reads ios and bytes atomically. Padded so two meters never share a
// cache line.
type meter struct {
	ios   atomic.Int64
	bytes atomic.Int64

	readIOs, readBytes, writeIOs, writeBytes int64
	// The shares of I/Os straddling the window's edges, as fractions of I/Os: minus the part
	// of an I/O counted in the window that ran before it opened, plus the part inside it of
	// an I/O that completed after a timed window closed (edge).
	readEdge, writeEdge float64
	readLat, writeLat   *stats.Latency
	writtenBytes        int64 // every phase: what the drive was given
	_                   [64]byte
}

func newMeter(p Pattern) *meter {
	m := &meter{}
	if p.Reads() {
		m.readLat = stats.NewLatency()
	}
	if p.Writes() {
		m.writeLat = stats.NewLatency()
	}
	return m
}

// record counts one completed I/O, started at start (r.now()) and taking lat, when the run
// is in its measured phase, and the share of its time inside the window of one that
// straddles an edge: a window that drops the I/O in flight at its end and counts whole the
// one in flight at its start steps by one I/O from run to run (2.6% of a 2 s run of 1 MiB
// writes at 20 MB/s), which this share makes exact for a drive of constant rate.
func (m *meter) record(r *run, read bool, n int, start, lat time.Duration) {
	if !read {
		m.writtenBytes += int64(n)
	}
	phase := r.phase.Load()
	if phase == phaseDone && lat > 0 {
		t0, t1 := time.Duration(r.t0.Load()), time.Duration(r.t1.Load())
		if in := min(start+lat, t1) - max(start, t0); t1 > 0 && in > 0 {
			m.addEdge(read, float64(in)/float64(lat))
		}
		return
	}
	if phase != phaseMeasure {
		return
	}
	if t0 := time.Duration(r.t0.Load()); start < t0 && lat > 0 {
		m.addEdge(read, -float64(t0-start)/float64(lat))
	}
	if read {
		m.readIOs++
		m.readBytes += int64(n)
		m.readLat.Record(lat)
	} else {
		m.writeIOs++
		m.writeBytes += int64(n)
		m.writeLat.Record(lat)
	}
	m.ios.Add(1)
	m.bytes.Add(int64(n))
}

func (m *meter) addEdge(read bool, share float64) {
	if read {
		m.readEdge += share
	} else {
		m.writeEdge += share
	}
}
