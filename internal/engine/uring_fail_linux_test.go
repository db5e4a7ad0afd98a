package engine

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit/lab"
)

// A drive that starts failing I/O under an io_uring job: the job ends with the first error,
// naming the operation, the offset and the device, and only after every I/O it had in flight
// has completed (in the QEMU lab a job at QD4 on dm-flakey sometimes never returned
// once the device failed I/O). The emulated drive shrinks to half its size mid-job, so writes
// past the new end fail with ENOSPC and reads there come back short, among the successes of
// the same batches.
func TestURingEndsOnFailingDrive(t *testing.T) {
	log := watchRings(t)
	lab.Require(t)

	const sizeMB, shrunkMB = 32, 16
	for _, tc := range []struct {
		pattern Pattern
		want    []string // what the error may say besides the offset and device
	}{
		{RandWrite, []string{"no space left"}},
		// Past a loop device's end a read fails with EIO (6.18) or comes back short.
		{RandRead, []string{"I/O error", "moved only"}},
	} {
		t.Run(string(tc.pattern), func(t *testing.T) {
			log.reset()
			d := lab.NewDrive(t, lab.Spec{Name: "engine-failing-" + string(tc.pattern), SizeMB: sizeMB})
			s := Spec{Target: d.Dev, Pattern: tc.pattern, BlockSize: 4096, QD: 32, Jobs: 2,
				Engine: EngineIOUring, Runtime: time.Minute, Ramp: 100 * time.Millisecond, Direct: true,
				SeriesInterval: 50 * time.Millisecond}
			if tc.pattern.Writes() {
				s.Destructive, s.Confirm = true, d.Dev
			}
			// The drive shrinks once the measured phase is under way (first progress report);
			// the job is time-based with a minute to run, so only the failure can end it early.
			var once sync.Once
			var shrinking bool // set by the sampler, which is done when Run returns
			shrunk := make(chan error, 1)
			s.Progress = func(Progress) {
				once.Do(func() {
					shrinking = true
					go func() { shrunk <- d.Shrink(shrunkMB) }()
				})
			}
			res, err := Run(context.Background(), s)
			if !shrinking {
				t.Fatalf("the job ended (%v) before the drive began to shrink", err)
			}
			if serr := <-shrunk; serr != nil {
				t.Fatal(serr)
			}
			if err == nil {
				t.Fatalf("the job succeeded on a drive failing I/O past %d MiB: %+v", shrunkMB, res)
			}
			msg := err.Error()
			t.Logf("error: %s", msg)
			m := regexp.MustCompile(`at offset (\d+) on (\S+?):? `).FindStringSubmatch(msg)
			says := false
			for _, w := range tc.want {
				says = says || strings.Contains(msg, w)
			}
			if m == nil || m[2] != d.Dev || !says {
				t.Fatalf("the error must name the offset, %s and say one of %q: %s", d.Dev, tc.want, msg)
			}
			if off, _ := strconv.ParseInt(m[1], 10, 64); off < shrunkMB<<20 || off >= sizeMB<<20 {
				t.Errorf("the error names offset %d, which is not past the drive's new end (%d MiB)", off, shrunkMB)
			}
			rings := log.taken()
			if len(rings) != s.Jobs {
				t.Fatalf("%d rings reported, want one per job (%d)", len(rings), s.Jobs)
			}
			var failed, mixed int64
			for i, c := range rings {
				if c.submitted != c.reaped {
					t.Errorf("ring %d: %d submitted, %d reaped: a job must not return with I/O in flight", i, c.submitted, c.reaped)
				}
				failed += c.failed
				mixed += c.mixed
			}
			if failed == 0 {
				t.Error("no ring saw a failed completion")
			}
			t.Logf("rings: %+v; %d failed completions, %d batches mixing successes and failures", rings, failed, mixed)
		})
	}
}
