package profile

import (
	"time"

	"github.com/iomark/iomark/internal/engine"
)

// The quick profile's budgets. Issue 4: "≤ 60 s and ≤ 512 MiB written on a drive as slow as
// a Pi 4 microSD card" (40 MB/s read, 20 MB/s write, 2600/700 IOPS), layout included.
//
// The arithmetic on that card: laying out 128 MiB at 20 MB/s takes 6.7 s. Each test has a
// 0.5 s warm-up, then runs of a 0.25 s ramp and a measured part; three runs usually reach
// ±5%. Sequential runs last 3 s: a run's window drops the I/O in flight at its end, and at
// 20 MB/s a 1 MiB write takes 52 ms, so a 1.5 s run would step by one I/O in 29 (3.5%)
// between runs, a 3 s run by 1.8%. Budgets: 11 s for a sequential test, 7 s for a random
// one, so the worst case is 6.7 + 2×11 + 4×7 = 56.7 s (WorstCase: 50 s; the runner also
// shares out what is left of the 60 s). Writes: the 384 MiB left after the layout are
// shared 4:1:1 between the sequential and the two random write tests, each run capped at
// its share over the warm-up and three runs (64 MiB for the sequential one: 3 s at 20 MB/s
// is 57 MiB), so no drive, however fast, makes quick write more than 512 MiB.
const (
	quickFileBytes     = 128 * MiB
	quickMaxDuration   = 60 * time.Second
	quickMaxWritten    = 512 * MiB
	quickSeqRunTime    = 3 * time.Second
	quickRandRunTime   = 1500 * time.Millisecond
	quickWarmUp        = 500 * time.Millisecond
	quickRamp          = 250 * time.Millisecond
	quickSeqBudget     = 11 * time.Second
	quickRandBudget    = 7 * time.Second
	quickSeqWriteShare = 4
)

// Quick is the default profile: sequential 1 MiB read and write, 4 KiB random read and write
// at QD1 and QD32, each repeated until its 95% interval is within ±5% or its budget is spent.
//
// Sequential tests run at QD1 through psync, as dd and hdparm read and write: one request in
// flight is what a file copy issues, and a 1 MiB request at QD>1 is split by the block layer
// on many devices (blk-throttle then counts it twice on emulated drives, shared/STACK.md).
// The cdm profiles measure SEQ1M Q8T1 for the deep-queue figure.
func Quick() *Profile {
	t := func(name, label string, p engine.Pattern, bs, qd int, eng engine.Engine, primary string) Test {
		tc := Test{Name: name, Label: label, Pattern: p, BlockSize: bs, QD: qd, Jobs: 1, Engine: eng,
			Primary: primary, RunTime: quickRandRunTime, WarmUp: quickWarmUp, Ramp: quickRamp, Budget: quickRandBudget,
			MinRuns: 3, MaxRuns: 10}
		if !p.Random() {
			tc.RunTime, tc.Budget = quickSeqRunTime, quickSeqBudget
		}
		if p == engine.Write {
			tc.WriteShare = quickSeqWriteShare
		}
		return tc
	}
	return &Profile{
		Name: "quick", Title: "sequential 1M and random 4K at QD1/QD32, about a minute",
		Source:    "iomark (issue 4): the figures that decide how a Pi feels, in about a minute",
		FileBytes: quickFileBytes, MaxDuration: quickMaxDuration, MaxBytesWritten: quickMaxWritten, Peer: peerQuickBound,
		Score: quickScores,
		Tests: []Test{
			t("seq-read-1m", "SEQ1M Q1", engine.Read, MiB, 1, engine.EnginePsync, PrimaryMBPerS),
			t("seq-write-1m", "SEQ1M Q1", engine.Write, MiB, 1, engine.EnginePsync, PrimaryMBPerS),
			t("rand-read-4k-qd1", "RND4K Q1", engine.RandRead, 4*KiB, 1, engine.EngineAuto, PrimaryIOPS),
			t("rand-write-4k-qd1", "RND4K Q1", engine.RandWrite, 4*KiB, 1, engine.EngineAuto, PrimaryIOPS),
			t("rand-read-4k-qd32", "RND4K Q32", engine.RandRead, 4*KiB, 32, engine.EngineAuto, PrimaryIOPS),
			t("rand-write-4k-qd32", "RND4K Q32", engine.RandWrite, 4*KiB, 32, engine.EngineAuto, PrimaryIOPS),
		},
	}
}
