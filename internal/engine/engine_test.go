package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// quickSpec is a short job on dir: small enough for any machine, long enough to sample.
func quickSpec(dir string, p Pattern) Spec {
	return Spec{Target: dir, Pattern: p, RWMixRead: 70, BlockSize: 4096, QD: 4, Jobs: 2,
		Engine: EngineAuto, WorkingSetBytes: 8 << 20, Runtime: 600 * time.Millisecond,
		Ramp: 100 * time.Millisecond, Direct: true, SeriesInterval: 100 * time.Millisecond}
}

func emptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind in the target directory: %s", e.Name())
	}
}

func TestRunOnDirectoryMeasuresAndCleansUp(t *testing.T) {
	for _, eng := range []Engine{EnginePsync, EngineIOUring} {
		for _, p := range Patterns {
			t.Run(string(eng)+"/"+string(p), func(t *testing.T) {
				if eng == EngineIOUring && uringUsable() != nil {
					t.Skipf("io_uring unavailable here: %v", uringUsable())
				}
				dir := t.TempDir()
				s := quickSpec(dir, p)
				s.Engine = eng
				res, err := Run(context.Background(), s)
				if err != nil {
					t.Fatal(err)
				}
				emptyDir(t, dir)
				if res.Engine != eng || res.TargetKind != kindDir || !res.Direct {
					t.Errorf("engine %s kind %s direct %v; want %s dir true", res.Engine, res.TargetKind, res.Direct, eng)
				}
				if res.IOs == 0 || res.Bytes != res.IOs*4096 {
					t.Fatalf("ios %d bytes %d: want ios > 0 and bytes = ios × 4096", res.IOs, res.Bytes)
				}
				// The rate counts the I/Os completed in the window and the shares inside it of
				// those its edges cut: at most one in flight per queue slot at each edge.
				if moved := res.IOPS * res.DurationS; abs(moved-float64(res.IOs)) > float64(2*s.QD*s.Jobs) {
					t.Errorf("iops %.1f × %.3f s is %.1f I/Os, not within %d of the %d completed", res.IOPS, res.DurationS, moved, 2*s.QD*s.Jobs, res.IOs)
				}
				if abs(res.MBPerS*1e6-res.MiBPerS*(1<<20)) > 1 {
					t.Errorf("MB/s %.3f and MiB/s %.3f disagree", res.MBPerS, res.MiBPerS)
				}
				if (res.Read != nil) != p.Reads() || (res.Write != nil) != p.Writes() {
					t.Errorf("directions: read %v write %v for %s", res.Read != nil, res.Write != nil, p)
				}
				var dirIOs int64
				for _, d := range []*Direction{res.Read, res.Write} {
					if d != nil {
						dirIOs += d.IOs
					}
				}
				if dirIOs != res.IOs {
					t.Errorf("read+write ios %d != total %d", dirIOs, res.IOs)
				}
				if p == RandRW {
					share := float64(res.Read.IOs) / float64(res.IOs)
					if share < 0.6 || share > 0.8 {
						t.Errorf("read share %.2f, want about 0.70", share)
					}
				}
				l := res.LatUS
				if !(l.Min > 0 && l.Min <= l.P50 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.P999 && l.P999 <= l.Max) {
					t.Errorf("latency summary out of order: %+v", l)
				}
				if len(res.Series) < 3 {
					t.Errorf("series has %d points over %.2f s at 100 ms", len(res.Series), res.DurationS)
				}
				if res.LayoutBytes != 8<<20 {
					t.Errorf("layout wrote %d bytes, want the 8 MiB working set", res.LayoutBytes)
				}
				if p.Writes() && res.BytesWritten < res.LayoutBytes+res.Write.Bytes {
					t.Errorf("bytes written %d < layout %d + measured writes %d", res.BytesWritten, res.LayoutBytes, res.Write.Bytes)
				}
				if !p.Writes() && res.BytesWritten != res.LayoutBytes {
					t.Errorf("read-only job wrote %d bytes beyond layout", res.BytesWritten-res.LayoutBytes)
				}
			})
		}
	}
}

func TestSizeBoundJobTransfersTheBudget(t *testing.T) {
	dir := t.TempDir()
	s := quickSpec(dir, RandRead)
	s.Runtime, s.Ramp, s.IOBudgetBytes = 0, 0, 4<<20
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	// Every I/O claims its bytes before it is issued, so the budget is met exactly.
	if res.Bytes != 4<<20 {
		t.Fatalf("transferred %d bytes, want exactly the 4 MiB budget", res.Bytes)
	}
}

// Without a ramp the window opens before the first I/O: a byte-bound write job writes its
// budget exactly and counts all of it (I/O issued before the window opened once went past the
// bound: 27.5 MiB on tmpfs under load).
func TestByteBoundWriteWritesItsBudget(t *testing.T) {
	for _, eng := range []Engine{EnginePsync, EngineIOUring} {
		t.Run(string(eng), func(t *testing.T) {
			if eng == EngineIOUring && uringUsable() != nil {
				t.Skipf("io_uring unavailable here: %v", uringUsable())
			}
			s := quickSpec(t.TempDir(), RandWrite)
			s.Engine = eng
			s.Runtime, s.Ramp, s.IOBudgetBytes = 0, 0, 4<<20
			res, err := Run(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if res.Bytes != 4<<20 || res.BytesWritten-res.LayoutBytes != 4<<20 {
				t.Errorf("measured %d and wrote %d bytes besides the layout, want exactly the 4 MiB budget both", res.Bytes, res.BytesWritten-res.LayoutBytes)
			}
		})
	}
}

// A ramp bounded by bytes ends when they are spent, however long its time: a byte-bound
// write job then writes exactly its ramp's bytes and its window's, which is how the runner
// keeps a profile's byte budget on a drive faster than it planned for.
func TestRampBytesBoundTheRamp(t *testing.T) {
	for _, eng := range []Engine{EnginePsync, EngineIOUring} {
		t.Run(string(eng), func(t *testing.T) {
			if eng == EngineIOUring && uringUsable() != nil {
				t.Skipf("io_uring unavailable here: %v", uringUsable())
			}
			dir := t.TempDir()
			s := quickSpec(dir, RandWrite)
			s.Engine = eng
			// A ramp of an hour would never end by time within the test: only its bytes end it.
			s.Runtime, s.Ramp, s.RampBytes, s.IOBudgetBytes = 0, time.Hour, 1<<20, 2<<20
			res, err := Run(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			// The window counts what completes in it: the budget, and ramp I/Os still in flight
			// when it opened (at most a queue's worth per job).
			if inFlight := int64(s.QD * s.Jobs * s.BlockSize); res.Bytes < 2<<20 || res.Bytes > 2<<20+inFlight {
				t.Errorf("measured %d bytes, want the 2 MiB budget and at most %d bytes issued before the window", res.Bytes, inFlight)
			}
			if got, want := res.BytesWritten-res.LayoutBytes, int64(3<<20); got != want {
				t.Errorf("wrote %d bytes besides the layout, want exactly the ramp's 1 MiB and the window's 2 MiB (%d)", got, want)
			}
			if res.RampS >= time.Hour.Seconds() {
				t.Errorf("ramp_s %.1f: the ramp's bytes did not end it", res.RampS)
			}
		})
	}
}

func TestInterruptKeepsWhatWasMeasured(t *testing.T) {
	dir := t.TempDir()
	s := quickSpec(dir, RandWrite)
	s.Runtime = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	s.Progress = func(p Progress) {
		if p.Phase == "measure" && p.Elapsed > 300*time.Millisecond {
			cancel()
		}
	}
	res, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.IOs == 0 || res.DurationS > 30 {
		t.Fatalf("interrupted %v after %.1f s with %d ios; want an interrupted result with the I/O done so far", res.Interrupted, res.DurationS, res.IOs)
	}
	emptyDir(t, dir)
}

func TestInterruptDuringLayoutRemovesTheFile(t *testing.T) {
	dir := t.TempDir()
	s := quickSpec(dir, RandRead)
	ctx, cancel := context.WithCancel(context.Background())
	s.Log = func(string, ...any) { cancel() } // the first note is "laying out …"
	_, err := Run(ctx, s)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	emptyDir(t, dir)
}

func TestExistingFileIsOnlyOverwrittenWhenAllowed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "precious")
	data := make([]byte, 1<<20)
	fillRandom(data, 3)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s := quickSpec(path, RandWrite)
	s.WorkingSetBytes = 0
	if _, err := Run(context.Background(), s); err == nil || !strings.Contains(err.Error(), "--destructive") {
		t.Fatalf("write to a file iomark did not create: err = %v, want a refusal naming --destructive", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(data) {
		t.Fatal("the refused job changed the file")
	}
	s.Pattern = RandRead
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatalf("read of an existing file: %v", err)
	}
	if res.WorkingSetBytes != 1<<20 || res.LayoutBytes != 0 {
		t.Errorf("working set %d layout %d: want the file's 1 MiB and no layout", res.WorkingSetBytes, res.LayoutBytes)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the user's file is gone after a read job: %v", err)
	}
	s.Pattern, s.Destructive = RandWrite, true
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatalf("write with --destructive: %v", err)
	}
}

func TestSparseFileIsNotReadAsData(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sparse")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := quickSpec(path, RandRead)
	s.WorkingSetBytes = 0
	_, err = Run(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "holes") {
		t.Fatalf("reading a sparse file: err = %v, want a refusal about holes", err)
	}
}

// A path that does not exist is never created (a mistyped device must not become a file); the error names what does exist.
func TestMissingTargetIsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ target, want string }{
		{filepath.Join(dir, "typo", "deeper"), "nearest existing directory is " + dir},
		{"/dev/iomark-no-such-disk", "iomark list"},
		{"/dev/null", "not a block device"},
	} {
		_, err := Run(context.Background(), quickSpec(c.target, RandWrite))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to say %q", c.target, err, c.want)
		}
		if _, err := os.Stat(c.target); c.target != "/dev/null" && !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was created", c.target)
		}
	}
	emptyDir(t, dir)
}

func TestOffsetsAlignedInRegionAndUniform(t *testing.T) {
	r := &run{spec: &Spec{Pattern: RandRead, BlockSize: 4096}, seed: 1}
	j := &job{r: r, regionStart: 0, regionBlocks: 1000}
	rng := j.newRand(0)
	counts := make([]int, 10)
	const n = 100000
	for range n {
		off, read := j.next(rng)
		if !read || off%4096 != 0 || off < 0 || off >= 1000*4096 {
			t.Fatalf("offset %d (read %v) not an aligned block of the region", off, read)
		}
		counts[off/(100*4096)]++
	}
	// Each tenth of the region expects 10000 draws; a uniform draw stays within ±5% with
	// overwhelming probability (σ ≈ 95), and the seed is fixed.
	for i, c := range counts {
		if c < 9500 || c > 10500 {
			t.Errorf("tenth %d of the region drew %d of %d offsets; want about %d", i, c, n, n/10)
		}
	}

	r.spec.Pattern = Read
	j = &job{r: r, regionStart: 8192, regionBlocks: 3}
	want := []int64{8192, 12288, 16384, 8192}
	for i, w := range want {
		if off, _ := j.next(rng); off != w {
			t.Errorf("sequential offset %d = %d, want %d (walk the region, then wrap)", i, off, w)
		}
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
