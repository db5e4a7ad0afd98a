package lab

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/profile"
)

// The limits the lab README measured fio against: 2600/700 IOPS, 40/20 MB/s.
var limitedSpec = Spec{Name: "limits", SizeMB: 256, ReadIOPS: 2600, WriteIOPS: 700, ReadMBps: 40, WriteMBps: 20}

// TestFioMeasuresLimits checks the emulation end to end: fio, the reference every engine
// test is compared with, must measure the configured limits within ±3% (the tolerance the
// engine tests use; the lab README saw ~1%). Runs measure 4 s: blk-throttle now and then lets
// one extra 100 ms slice of budget through (seen here: 5460 reads in 2 s against 2600 IOPS,
// +5%), so a 2 s run can read 5% high and only a run of 4 s or more stays within 3%. Bandwidth is checked with 1 MiB blocks at QD1
// because blk-throttle counts a bio split by the block layer twice at QD>1.
func TestFioMeasuresLimits(t *testing.T) {
	NeedFio(t)
	d := NewDrive(t, limitedSpec)
	tests := []struct {
		name, rw, bs, engine string
		qd                   int
		want                 float64
		got                  func(*FioResult) float64
	}{
		{"4k randread QD1 psync", "randread", "4k", "psync", 1, 2600, (*FioResult).IOPS},
		{"4k randread QD32 io_uring", "randread", "4k", "io_uring", 32, 2600, (*FioResult).IOPS},
		{"4k randwrite QD1 psync", "randwrite", "4k", "psync", 1, 700, (*FioResult).IOPS},
		{"4k randwrite QD32 io_uring", "randwrite", "4k", "io_uring", 32, 700, (*FioResult).IOPS},
		{"1M read QD1 psync", "read", "1m", "psync", 1, 40e6, func(r *FioResult) float64 { return r.ReadBytesPerS }},
		{"1M write QD1 psync", "write", "1m", "psync", 1, 20e6, func(r *FioResult) float64 { return r.WriteBytesPerS }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A run the rest of the machine starved of CPU (blk-throttle dispatches from a
			// kernel worker) reads low: seen here, 1990-2494 IOPS against 2600 while other
			// jobs compiled. One more attempt tells that apart from a wrong emulation.
			const attempts = 2
			for attempt := 1; attempt <= attempts; attempt++ {
				r, err := RunFio(fioJobArgs(t, d.Dev, tt.rw, tt.bs, tt.engine, tt.qd)...)
				if err != nil {
					t.Fatal(err)
				}
				if r.IOs() == 0 || r.ProcCPUS <= 0 || r.PeakRSSBytes <= 0 || r.WallS < r.RuntimeS {
					t.Fatalf("process figures missing: ios %d, cpu %.3f s, rss %d B, wall %.2f s, runtime %.2f s",
						r.IOs(), r.ProcCPUS, r.PeakRSSBytes, r.WallS, r.RuntimeS)
				}
				got := tt.got(r)
				t.Logf("attempt %d: fio measured %.0f (limit %.0f), %d I/Os in %.2f s", attempt, got, tt.want, r.IOs(), r.RuntimeS)
				if math.Abs(got-tt.want) <= 0.03*tt.want {
					return
				}
			}
			t.Errorf("fio measured outside %.0f ±3%% in %d attempts", tt.want, attempts)
		})
	}
}

// fioJobArgs is the fio job of a shape, built by the function that maps iomark's tests to fio
// (profile.FioShape), so the lab measures with the options `iomark show --fio` prints: 4 s
// measured after a 1 s ramp, over the whole device.
func fioJobArgs(t *testing.T, dev, rw, bs, eng string, qd int) []string {
	t.Helper()
	bsBytes, err := engine.ParseSize(bs)
	if err != nil {
		t.Fatal(err)
	}
	args, err := profile.FioShape{Name: "x", Filename: dev, Op: engine.Pattern(rw), BS: int(bsBytes), QD: qd, Jobs: 1,
		Engine: engine.Engine(eng), Direct: true, Runtime: 4 * time.Second, Ramp: time.Second}.Args()
	if err != nil {
		t.Fatal(err)
	}
	return args
}

// TestDownLeavesNothing brings up an ext4 drive with limits and checks that Down removes the
// mount, the throttle rules, the loop device and the image, and that a second Down is a no-op.
func TestDownLeavesNothing(t *testing.T) {
	s := limitedSpec
	s.Name, s.SizeMB, s.FS = "down", 64, "ext4"
	if err := availableFor(s); err != nil {
		t.Skip(err)
	}
	d, err := Up(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Down() })

	if rules, err := readThrottle(d.MajMin); err != nil || rules != limitsToValues(2600, 700, 40, 20) {
		t.Errorf("rules after Up = %v (%v), want %v", rules, err, limitsToValues(2600, 700, 40, 20))
	}
	if !isMounted(t, d.Mnt) {
		t.Errorf("%s is not mounted after Up", d.Mnt)
	}
	if err := os.WriteFile(filepath.Join(d.Mnt, "f"), []byte("data"), 0o644); err != nil {
		t.Fatalf("write to the drive's filesystem: %v", err)
	}

	if err := d.Down(); err != nil {
		t.Fatalf("Down: %v", err)
	}
	checkGone(t, "after Down", d.Mnt, "", d.Img)
	if backing, err := os.ReadFile("/sys/block/" + filepath.Base(d.Dev) + "/loop/backing_file"); err == nil &&
		strings.Contains(string(backing), d.Img) {
		t.Errorf("%s still attached to %s after Down", d.Dev, d.Img)
	}
	if rules, err := readThrottle(d.MajMin); err != nil || rules != (throttleValues{}) {
		t.Errorf("rules for %s after Down = %v (%v), want none", d.MajMin, rules, err)
	}
	if err := d.Down(); err != nil {
		t.Errorf("second Down: %v", err)
	}
}

// checkGone checks, when (say "after Down"), that mnt is no longer mounted, that it and
// others are gone, and (backing not "") that no loop device is backed by backing.
func checkGone(t *testing.T, when, mnt, backing string, others ...string) {
	t.Helper()
	if isMounted(t, mnt) {
		t.Errorf("%s still mounted %s", mnt, when)
	}
	for _, p := range append([]string{mnt}, others...) {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there %s (stat: %v)", p, when, err)
		}
	}
	if backing == "" {
		return
	}
	if devs, err := loopsBackedBy(backing); err != nil || len(devs) > 0 {
		t.Errorf("loop devices still backed by %s %s: %v (%v)", backing, when, devs, err)
	}
}

func isMounted(t *testing.T, dir string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == dir {
			return true
		}
	}
	return false
}

func TestSetLimits(t *testing.T) {
	d := NewDrive(t, Spec{Name: "setlimits", SizeMB: 16})
	steps := []struct {
		readIOPS, writeIOPS, readMBps, writeMBps int
	}{
		{100, 0, 0, 5},
		{0, 300, 12, 0},
		{0, 0, 0, 0},
	}
	for _, st := range steps {
		if err := d.SetLimits(st.readIOPS, st.writeIOPS, st.readMBps, st.writeMBps); err != nil {
			t.Fatal(err)
		}
		want := limitsToValues(st.readIOPS, st.writeIOPS, st.readMBps, st.writeMBps)
		if got, err := readThrottle(d.MajMin); err != nil || got != want {
			t.Errorf("after SetLimits%v rules = %v (%v), want %v", st, got, err, want)
		}
	}
	if err := d.SetLimits(-1, 0, 0, 0); err == nil {
		t.Error("SetLimits accepted a negative limit")
	}
}

// TestUpClearsStaleRules leaves a rule on a detached loop device, as a crashed test would,
// and checks that the next drive on that device does not inherit it.
func TestUpClearsStaleRules(t *testing.T) {
	first := NewDrive(t, Spec{Name: "stale1", SizeMB: 16})
	dev, majMin := first.Dev, first.MajMin
	if err := first.Down(); err != nil {
		t.Fatal(err)
	}
	if err := writeThrottle(majMin, throttleValues{1234}); err != nil {
		t.Fatalf("leave a stale rule on detached %s: %v", dev, err)
	}
	second := NewDrive(t, Spec{Name: "stale2", SizeMB: 16})
	if second.MajMin != majMin {
		// Someone else took the device in between: ours to clean, but nothing to check.
		if _, err := os.Stat("/sys/block/" + filepath.Base(dev) + "/loop/backing_file"); errors.Is(err, os.ErrNotExist) {
			clearThrottle(majMin)
		}
		t.Skipf("the second drive got %s, not %s: cannot check stale rules", second.Dev, dev)
	}
	if got, err := readThrottle(second.MajMin); err != nil || got != (throttleValues{}) {
		t.Errorf("rules on reused %s = %v (%v), want none", second.Dev, got, err)
	}
}

// TestDropCaches checks that a file just written through the drive's filesystem is resident
// in the page cache before DropCaches and not after.
func TestDropCaches(t *testing.T) {
	d := NewDrive(t, Spec{Name: "cache", SizeMB: 64, FS: "ext4"})
	path := filepath.Join(d.Mnt, "cached")
	const sizeBytes = 4 << 20
	if err := os.WriteFile(path, make([]byte, sizeBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := residentPages(t, path, sizeBytes); n == 0 {
		t.Fatalf("no page of %s resident right after writing it: cannot check DropCaches", path)
	}
	if err := d.DropCaches(); err != nil {
		t.Fatal(err)
	}
	if n := residentPages(t, path, sizeBytes); n != 0 {
		t.Errorf("%d pages of %s still resident after DropCaches", n, path)
	}
}

func residentPages(t *testing.T, path string, sizeBytes int) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem, err := syscall.Mmap(int(f.Fd()), 0, sizeBytes, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	pageBytes := os.Getpagesize()
	vec := make([]byte, (sizeBytes+pageBytes-1)/pageBytes)
	// mincore(2) has no wrapper in syscall: one bit per page, set when it is resident.
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])),
		uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatalf("mincore %s: %v", path, errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}
