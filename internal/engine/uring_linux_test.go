package engine

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ringLog gathers the counts each ring hands ringDone as its job ends.
type ringLog struct {
	mu    sync.Mutex
	rings []ringCounts
}

// watchRings skips t where io_uring cannot run and has every ring report to the returned log
// until t ends.
func watchRings(t *testing.T) *ringLog {
	t.Helper()
	if err := uringUsable(); err != nil {
		t.Skipf("io_uring unavailable here: %v", err)
	}
	l := &ringLog{}
	ringDone = func(c ringCounts) {
		l.mu.Lock()
		l.rings = append(l.rings, c)
		l.mu.Unlock()
	}
	t.Cleanup(func() { ringDone = nil })
	return l
}

// reset forgets the rings reported so far, before the next job.
func (l *ringLog) reset() {
	l.mu.Lock()
	l.rings = nil
	l.mu.Unlock()
}

// taken returns the rings reported so far.
func (l *ringLog) taken() []ringCounts {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rings
}

// The io_uring loop waits only with every slot in flight, never loses an I/O, and keeps its
// P through the wait (GOMAXPROCS leaves one per ring plus the sampler's), so it keeps up with fio.
func TestURingKeepsItsQueueFull(t *testing.T) {
	log := watchRings(t)
	for _, p := range []Pattern{RandRead, RandWrite} {
		t.Run(string(p), func(t *testing.T) {
			log.reset()
			before := runtime.GOMAXPROCS(0)
			s := quickSpec(t.TempDir(), p)
			s.Engine, s.QD, s.Jobs = EngineIOUring, 32, 2
			var procs []int // appended by the sampler, which is done when Run returns
			s.Progress = func(Progress) { procs = append(procs, runtime.GOMAXPROCS(0)) }
			res, err := Run(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			rings := log.taken()
			if len(rings) != s.Jobs {
				t.Fatalf("%d rings reported, want one per job (%d)", len(rings), s.Jobs)
			}
			var reaped int64
			for i, c := range rings {
				if c.maxInflight != s.QD {
					t.Errorf("ring %d: at most %d I/Os in flight, want QD %d", i, c.maxInflight, s.QD)
				}
				if c.waitsNotFull != 0 {
					t.Errorf("ring %d: waited %d times (of %d enters) with a free slot while still issuing", i, c.waitsNotFull, c.enters)
				}
				if c.submitted != c.reaped || c.submitted == 0 {
					t.Errorf("ring %d: %d submitted, %d reaped in %d waits: every I/O submitted must be reaped", i, c.submitted, c.reaped, c.enters)
				}
				// While the kernel holds under half the queue, I/Os go in as they are
				// prepared, not gathered into the wait (the first refill alone is 16 calls).
				if c.waitsShort != 0 || c.submits < int64(s.QD/2) {
					t.Errorf("ring %d: %d waits with I/Os held back while the kernel held under half the queue, %d submitting calls",
						i, c.waitsShort, c.submits)
				}
				reaped += c.reaped
			}
			if res.IOs == 0 || res.IOs > reaped {
				t.Errorf("result counts %d I/Os, the rings reaped %d (ramp included)", res.IOs, reaped)
			}
			if len(procs) == 0 {
				t.Fatal("no progress report during the run")
			}
			for _, n := range procs {
				if n < s.Jobs+2 {
					t.Errorf("GOMAXPROCS %d during the run: want a P per ring plus two (%d)", n, s.Jobs+2)
				}
			}
			if after := runtime.GOMAXPROCS(0); after != before {
				t.Errorf("GOMAXPROCS %d after the run, want it restored to %d", after, before)
			}
		})
	}
}

// The rings that hold their P are those that enter the kernel at least every busyGap.
func TestBusyRing(t *testing.T) {
	tests := []struct {
		name    string
		enters  int
		elapsed time.Duration
		want    bool
	}{
		{"one ring on a RAM-backed device: thousands of enters a window", 5000, busyWindow, true},
		{"QD1 on an SD card at 2600 IOPS", 260, busyWindow, true},
		{"exactly one enter per busyGap", int(busyWindow / busyGap), busyWindow, true},
		{"one of 16 rings on an SD card: ~100 enters a second", 10, busyWindow, false},
		{"one long wait past the window", 1, 3 * busyWindow, false},
	}
	for _, tt := range tests {
		if got := busy(tt.enters, tt.elapsed); got != tt.want {
			t.Errorf("%s: busy(%d, %v) = %v, want %v", tt.name, tt.enters, tt.elapsed, got, tt.want)
		}
	}
}

// TestRetryCanceled: an I/O the kernel canceled (io-wq could not start a worker for it) goes
// in again up to cancelRetries times while the job is issuing, and the error after that says
// what happened and what to do, not only "operation canceled".
func TestRetryCanceled(t *testing.T) {
	canceled := -int32(unix.ECANCELED)
	for times := 0; times < cancelRetries; times++ {
		if !retryCanceled(canceled, true, times) {
			t.Errorf("a canceled I/O canceled %d times before is not handed in again", times)
		}
	}
	if retryCanceled(canceled, true, cancelRetries) {
		t.Errorf("a canceled I/O goes in again past %d times", cancelRetries)
	}
	if retryCanceled(canceled, false, 0) {
		t.Error("a canceled I/O goes in again after the job failed (it must only reap)")
	}
	for _, res := range []int32{-int32(unix.EIO), -int32(unix.EAGAIN), 0, 4096} {
		if retryCanceled(res, true, 0) {
			t.Errorf("result %d is handed in again", res)
		}
	}

	tgt := &target{kind: kindFile, path: "/mnt/err/iomark.tmp", direct: true, align: 4096}
	err := uringResult(tgt, false, 0, 64<<10, canceled)
	if !errors.Is(err, unix.ECANCELED) {
		t.Fatalf("error %v does not wrap ECANCELED", err)
	}
	for _, want := range []string{"write of 64k at offset 0 on /mnt/err/iomark.tmp", "canceled it 4 times", "worker thread", "--engine psync"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if err := uringResult(tgt, true, 0, 4096, -int32(unix.EIO)); err == nil || strings.Contains(err.Error(), "canceled") {
		t.Errorf("an I/O error reads %v", err)
	}
}
