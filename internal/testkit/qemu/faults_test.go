package qemu

import (
	"math"
	"strings"
	"testing"
)

// TestThrottledQuick: QEMU's block throttling is a second, independent emulation of a drive's
// limits; `iomark run --profile quick` must find each of them within ±5%: the byte rates for
// 1 MiB reads and writes, the IOPS for 4 KiB random I/O at QD1 and QD32.
func TestThrottledQuick(t *testing.T) {
	t.Parallel()
	r := BootT(t, "q35-throttled",
		Sh("quick", `mkdir -p /mnt/thr && mount -t ext4 "$(lab_disk thr)" /mnt/thr && iomark run /mnt/thr --profile quick --json --no-save`))
	var run struct {
		Tests []struct {
			Name   string  `json:"name"`
			IOPS   float64 `json:"iops"`
			MBPerS float64 `json:"mb_per_s"`
		} `json:"tests"`
	}
	if err := r.JSON("quick", &run); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		value float64
		iops  bool
	}{
		"seq-read-1m":        {ThrottleReadBytesPerS / 1e6, false},
		"seq-write-1m":       {ThrottleWriteBytesPerS / 1e6, false},
		"rand-read-4k-qd1":   {ThrottleReadIOPS, true},
		"rand-write-4k-qd1":  {ThrottleWriteIOPS, true},
		"rand-read-4k-qd32":  {ThrottleReadIOPS, true},
		"rand-write-4k-qd32": {ThrottleWriteIOPS, true},
	}
	seen := 0
	for _, tc := range run.Tests {
		w, ok := want[tc.Name]
		if !ok {
			continue
		}
		seen++
		got, unit := tc.MBPerS, "MB/s"
		if w.iops {
			got, unit = tc.IOPS, "IOPS"
		}
		t.Logf("%-20s %8.1f %s (QEMU limit %.0f)", tc.Name, got, unit, w.value)
		if math.Abs(got/w.value-1) > 0.05 {
			t.Errorf("%s: %.1f %s, want %.0f ± 5%% (QEMU's throttle)", tc.Name, got, unit, w.value)
		}
	}
	if seen != len(want) {
		t.Errorf("the quick run has %d of the %d tests: %+v", seen, len(want), run.Tests)
	}
}

// TestFaults: drives that fail under a running job must end it with a clear error, a non-zero
// exit and no test file left; the wrap-around fake card is ready for `iomark verify`.
func TestFaults(t *testing.T) {
	t.Parallel()
	job := []string{"--rw", "randwrite", "--bs", "64k", "--qd", "4", "--size", "16m", "--runtime", "30s", "--time-based"}
	r := BootT(t, "q35-faults",
		Sh("wrap", WrapAroundFake("fake", "small", 64)+`
echo "fake $FAKE $(lab_sectors $FAKE)"
echo iomark-wrap-marker | dd of=$FAKE bs=512 count=1 conv=sync 2>/dev/null && sync
dd if=$FAKE bs=512 skip=32768 count=1 2>/dev/null | head -c 18; echo`),
		Sh("fake-info", `iomark info "$(lab_dm_node fake)" --json`),
		// The fake stays: removing it (DM_DEV_REMOVE) hung the guest once, not yet understood.
		Sh("dm-error", FailingUnderJob("err", "base", `DEV=$(lab_dm_linear err "$BASE")`, 3, "lab_dm_error err", job...)),
		// dm-flakey from the start: up for 12 s (mkfs, mount, the job's layout), then down,
		// under the default engine (io_uring). It once left the job hanging now and then: the
		// io_uring engine returned on the first failed I/O with the rest still in flight and
		// closed its ring under them; it now reaps them all first
		// (TestURingEndsOnFailingDrive in internal/engine).
		Sh("dm-flakey", FailingUnderJob("flk", "flaky", `DEV=$(lab_dm_flakey flk "$BASE" 12 60)`, 0, ":", job...)),
		Sh("delete", FailingUnderJob("del", "victim", `DEV=$BASE`, 3, `lab_delete_disk "$BASE"`, job...)),
	)

	w, err := r.Get("wrap")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(w.Stdout), "\n")
	if w.ExitCode != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], " 131072") || lines[1] != "iomark-wrap-marker" {
		t.Errorf("wrap-around fake: exit %d, %q, stderr %q; want a 64 MiB device whose sector 32768 is sector 0", w.ExitCode, w.Stdout, w.Stderr)
	}

	// iomark info on the fake describes the drive it is stacked on, and says so.
	var fake info
	if err := r.JSON("fake-info", &fake); err != nil {
		t.Fatal(err)
	}
	small, _ := r.Disk("small")
	if fake.Device == nil || fake.Device.Name != small || fake.Device.CapacityBytes != 16<<20 || !strings.Contains(strings.Join(fake.Notes, " "), "stacked on "+small) {
		t.Errorf("info of the fake: %+v notes %q", fake.Device, fake.Notes)
	}

	for _, id := range []string{"dm-error", "dm-flakey", "delete"} {
		o, err := r.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s%s", id, o.Stdout, o.Stderr)
		if o.ExitCode != 0 {
			t.Errorf("%s: the script failed before the fault (exit %d): %s", id, o.ExitCode, o.Stderr)
			continue
		}
		if strings.Contains(o.Stdout, "job-exit 0\n") || !strings.Contains(o.Stdout, "job-exit ") {
			t.Errorf("%s: iomark must exit non-zero when the drive fails: %s", id, o.Stdout)
		}
		if !strings.Contains(o.Stderr, "input/output error") && !strings.Contains(o.Stderr, "no such device") {
			t.Errorf("%s: the error must name the I/O failure: %q", id, o.Stderr)
		}
		if strings.Contains(o.Stderr, "panic") || strings.Contains(o.Stderr, "goroutine ") {
			t.Errorf("%s: iomark panicked: %s", id, o.Stderr)
		}
		if id != "delete" && !strings.Contains(o.Stdout, "left: \n") {
			t.Errorf("%s: the test file must not outlive the run: %s", id, o.Stdout)
		}
	}
}
