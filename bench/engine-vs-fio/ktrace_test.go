package main

import (
	"os"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestParseLhist reads bpftrace 0.17's printed lhist: every bucket of the range, zeros
// included, then the open-ended last one.
func TestParseLhist(t *testing.T) {
	out := `Attaching 5 probes...


@us: 
[0, 1)                 0 |                                                    |
[1, 2)                 2 |                                                    |
[2, 3)                96 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[3, 4)                 1 |                                                    |
[4, 5)                 0 |                                                    |
[1000, ...)            1 |                                                    |

@to_driver_ns: count 100, average 2512, total 251234
`
	k, err := parseLhist(out)
	if err != nil {
		t.Fatal(err)
	}
	// 100 requests: 2 at 1.5, 96 at 2.5, 1 at 3.5, 1 in the open bucket (1000.5).
	if k.N != 100 || k.P50US != 2.5 || k.P99US != 3.5 || k.Over != 1 {
		t.Errorf("got %+v, want n 100, p50 2.5, p99 3.5, over 1", k)
	}
	if want := (2*1.5 + 96*2.5 + 3.5 + 1000.5) / 100; k.MeanUS != want {
		t.Errorf("mean %v, want %v", k.MeanUS, want)
	}
	if k.ToDriverUS != 2.51234 {
		t.Errorf("time to the driver %v µs, want 2.51234 (total over count)", k.ToDriverUS)
	}
	if _, err := parseLhist("@to_driver_ns: count many\n[1, 2) 5 |@|\n"); err == nil {
		t.Error("a stats line without its figures was accepted")
	}
	if _, err := parseLhist("Attaching 5 probes...\n\n"); err == nil {
		t.Error("an empty trace gave a distribution")
	}
	if _, err := parseLhist("[1, 2) x |\n"); err == nil {
		t.Error("a bucket without a count was accepted")
	}
}

// TestKernelTrace runs the bpftrace program on a RAM-backed loop device while the test reads it
// with O_DIRECT, one 4 KiB request at a time, timing each read itself. The kernel's window
// (0.5 s to 1.7 s of a 2 s run) must hold about that share of the reads, and the kernel's
// span of a request lies inside the read that made it, so its median and mean cannot exceed
// the reads' own; the time to the driver lies inside the kernel's span.
func TestKernelTrace(t *testing.T) {
	if err := bpftraceAvailable(); err != nil {
		testkit.Require(t, err.Error()+" (scripts/setup-test-deps.sh installs bpftrace)")
	}
	drive := lab.NewDrive(t, lab.Spec{Name: "ktrace", SizeMB: 64})
	o := options{ramp: 0, runtime: 2 * time.Second}
	tr, err := startKernelTrace(t.Context(), drive.Dev, o)
	if err != nil {
		t.Fatal(err)
	}
	own := readFor(t, drive.Dev, o.runtime)
	k, err := tr.result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(own)
	var sum time.Duration
	for _, d := range own {
		sum += d
	}
	ownP50 := float64(own[len(own)/2]) / 1e3
	ownMean := float64(sum) / float64(len(own)) / 1e3
	wantN := float64(len(own)) * 1.2 / 2
	t.Logf("reads: %d, p50 %.1f µs, mean %.1f µs; kernel window: %+v", len(own), ownP50, ownMean, k)
	if float64(k.N) < wantN*0.75 || float64(k.N) > wantN*1.25 {
		t.Errorf("the kernel counted %d requests in its 1.2 s window, want about %.0f (%d reads in 2 s)", k.N, wantN, len(own))
	}
	// The kernel's figures sit at bucket middles (1 µs buckets): allow half a bucket.
	if k.P50US > ownP50+0.5 || k.MeanUS > ownMean+0.5 {
		t.Errorf("the kernel's p50 %.1f / mean %.1f µs exceed the reads' own %.1f / %.1f", k.P50US, k.MeanUS, ownP50, ownMean)
	}
	// Each read's request reaches the driver within its time in the device: the time to the
	// driver is measured (every request has one) and part of the kernel's mean.
	if k.ToDriverUS <= 0 || k.ToDriverUS > k.MeanUS+0.5 {
		t.Errorf("time to the driver %.2f µs, want above 0 and within the kernel's mean %.1f", k.ToDriverUS, k.MeanUS)
	}
}

// readFor reads dev with O_DIRECT, 4 KiB at a time at rotating offsets, for d, and returns the
// time each read took.
func readFor(t *testing.T, dev string, d time.Duration) []time.Duration {
	t.Helper()
	f, err := os.OpenFile(dev, os.O_RDONLY|unix.O_DIRECT, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf, err := unix.Mmap(-1, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(buf)
	var took []time.Duration
	end := time.Now().Add(d)
	for off := int64(0); time.Now().Before(end); off = (off + 7*4096) % (64 << 20) {
		start := time.Now()
		if _, err := f.ReadAt(buf, off); err != nil {
			t.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	return took
}
