package cli

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestQuickOutlastsABurstAndKeepsIt: on an emulated card whose SLC cache takes the first
// 40 MiB (or 120 MiB) written at three times its sustained 20 MB/s — a burst of 0.7 s, longer
// than quick's 0.5 s warm-up (or of 2.1 s, into the first measured run) — quick's sequential
// write reports the sustained rate, records the burst (its length from the test's first I/O,
// how much faster) and its warm-up, and the run has a burst finding.
//
// blk-throttle has no burst, so the drive is the lab's FUSE card (lab.CardSpec's SLC cache),
// benchmarked as a bare device so no layout fills the cache first, by the iomark binary in a
// process of its own: the engine's raw syscalls and the FUSE server in one process deadlock
// when the collector stops the world while a write waits for the server.
func TestQuickOutlastsABurstAndKeepsIt(t *testing.T) {
	for _, slc := range []int64{40 << 20, 120 << 20} {
		t.Run(fmt.Sprintf("SLC %d MiB", slc>>20), func(t *testing.T) { burstCase(t, slc) })
	}
}

func burstCase(t *testing.T, slcBytes int64) {
	const fastMBps, slowMBps = 60, 20
	d := lab.NewCardDrive(t, lab.CardSpec{Name: "burst", ClaimedBytes: 512 << 20, ReadMBps: 40,
		WriteMBps: fastMBps, SLCBytes: slcBytes, SLCSlowMBps: slowMBps, SLCRecover: 1 << 40}, lab.CardAttach{})
	code, out, errOut := runChild(t, t.TempDir(), "run", d.Dev, "--destructive", "--confirm", d.Dev, "--json", "--no-save")
	if code != 0 {
		t.Fatalf("iomark run exited %d:\n%s", code, errOut)
	}
	var rec record.Run
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("parse the record: %v", err)
	}
	t.Logf("stderr:\n%s", errOut)
	var seqW *record.Test
	for i, tc := range rec.Tests {
		t.Logf("%-20s %8.2f MB/s %8.0f IOPS runs %v warm-up %.2f s burst %+v", tc.Name, tc.MBPerS, tc.IOPS, tc.RunValues, tc.WarmUpS, tc.Burst)
		if tc.Name == "seq-write-1m" {
			seqW = &rec.Tests[i]
		}
	}
	if seqW == nil {
		t.Fatalf("no seq-write-1m in %d tests", len(rec.Tests))
	}
	if seqW.MBPerS < slowMBps*0.95 || seqW.MBPerS > slowMBps*1.05 {
		t.Errorf("figure %.2f MB/s, want the sustained %d MB/s ±5%%, not the burst", seqW.MBPerS, slowMBps)
	}
	burstS := float64(slcBytes) / (fastMBps * 1e6)
	if b := seqW.Burst; b == nil || b.X < 2 || b.S < burstS*0.6 || b.S > burstS*1.4 {
		t.Errorf("burst %+v, want about %.2f s at about 3×", b, burstS)
	}
	// The warm-up is recorded (fio's ramp_time with the ramp); a run still mostly inside the
	// burst (over 1.25× the rest) would have been counted as warm-up, and the figure above
	// shows none was left in.
	if seqW.WarmUpS <= 0 {
		t.Errorf("no warm-up recorded")
	}
	found := false
	for _, f := range rec.Findings {
		if f.ID == "burst" {
			found = true
			t.Logf("finding: %s", f.Message)
		}
	}
	if !found {
		t.Errorf("no burst finding in %+v", rec.Findings)
	}
}
