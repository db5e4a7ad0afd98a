package runner

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// expectedOnMicroSD is what a test of this shape must measure on the emulated card: the
// tighter of its IOPS and bandwidth limits. ok is false where the emulation itself cannot
// give the limit: blk-throttle counts a split bio twice, so blocks above 512 KiB at QD > 1
// (and 1 profile.MiB through io_uring at any depth) read at a fraction of it (docs/decisions.md, "Emulated drives"); those
// are checked against fio on the same device instead.
func expectedOnMicroSD(pattern engine.Pattern, bs, qd int, eng string) (mbPerS float64, ok bool) {
	if bs > 512<<10 && (qd > 1 || eng == string(engine.EngineIOUring)) {
		return 0, false
	}
	iops, mbps := float64(lab.MicroSDReadIOPS), float64(lab.MicroSDReadMBps)
	if pattern.Writes() {
		iops, mbps = lab.MicroSDWriteIOPS, lab.MicroSDWriteMBps
	}
	return math.Min(iops*float64(bs)/1e6, mbps), true
}

// TestEveryProfileOnEmulatedMicroSD runs the profiles the other lab tests do not (sbc-reviews,
// cdm, cdm-nvme, a1, a2) on the emulated card: every O_DIRECT figure matches
// the card's limits within ±5%, or, where the emulation cannot show the limit, fio running
// the same job shape on the same device within ±5%.
func TestEveryProfileOnEmulatedMicroSD(t *testing.T) {
	lab.Require(t)
	// CrystalDiskMark's sets use a 1 profile.GiB test file: the card needs room for it.
	spec := lab.MicroSD("every", "ext4")
	spec.SizeMB = 2048
	d := lab.NewDrive(t, spec)
	rep, err := probe.Probe(d.Mnt, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// cdm-flash is left out to keep CI short (~4 min): its four shapes (SEQ128K Q32T1/Q1T1,
	// RND4K Q32T1/Q1T1) are measured here by cdm-nvme and cdm.
	for _, name := range []string{"sbc-reviews", "cdm", "cdm-nvme", "a1", "a2"} {
		t.Run(name, func(t *testing.T) {
			p, err := profile.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Run(context.Background(), *p, Env{Target: d.Mnt, Probe: rep})
			if err != nil {
				t.Fatal(err)
			}
			if len(leftovers(t, d.Mnt)) > 0 {
				t.Errorf("%s left test files: %v", name, leftovers(t, d.Mnt))
			}
			if len(out.Tests) == 0 {
				t.Fatal("no test measured")
			}
			for _, tst := range out.Tests {
				pattern := engine.Pattern(tst.Op)
				if !tst.Direct || !(pattern.Reads() || pattern.Writes()) {
					t.Logf("%s: %s is a peer-style test (%s), judged in bench/peers", name, tst.Name, tst.Op)
					continue
				}
				want, ok := expectedOnMicroSD(pattern, tst.BS, tst.QD, tst.Engine)
				if !ok {
					lab.NeedFio(t)
					fio, err := lab.RunFio("--name=check", "--directory="+d.Mnt, "--size=256m", "--direct=1",
						"--rw="+tst.Op, fmt.Sprintf("--bs=%d", tst.BS), fmt.Sprintf("--iodepth=%d", tst.QD),
						fmt.Sprintf("--numjobs=%d", tst.Jobs), "--group_reporting", "--ioengine="+tst.Engine,
						"--time_based", "--runtime=4", "--ramp_time=1")
					if err != nil {
						t.Fatal(err)
					}
					want = (fio.ReadBytesPerS + fio.WriteBytesPerS) / 1e6
				}
				t.Logf("%s %s: %.2f MB/s (%.0f IOPS), expected %.2f MB/s (limit %v)", name, tst.Name, tst.MBPerS, tst.IOPS, want, ok)
				if !within(tst.MBPerS, want, labTolerance) {
					t.Errorf("%s %s: %.2f MB/s, want %.2f ±5%% (from the limits: %v, else fio)", name, tst.Name, tst.MBPerS, want, ok)
				}
			}
		})
	}
}
