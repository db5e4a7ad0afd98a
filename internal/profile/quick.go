package profile

import (
	"time"

	"github.com/iomark/iomark/internal/engine"
)

// The quick profile's budgets: at most 45 s on a drive as slow as a Pi 4 microSD card (40 MB/s
// read, 20 MB/s write, 2600/700 IOPS), layout included, and at most 512 MiB written on flash and
// on any drive iomark cannot tell (SSDs and hard disks may write more: WriteBudget, budget.go).
//
// The arithmetic on that card: laying out 128 MiB at 20 MB/s takes 6.7 s. Each test has a
// 0.5 s warm-up (longer when the drive shows a burst, until it has passed), then runs of a
// 0.25 s ramp and a measured part; three runs usually reach ±5%. Sequential runs last 2 s, random
// ones 1 s: at 20 MB/s a 1 MiB write takes 52 ms, so a 2 s run holds 38.15 of them, and the
// engine counts the ones its window's edges cut by their share inside it (a whole-I/O count
// would give −0.4% or +2.2% by where the window falls). Three runs each: 2 × 7.25 s + 4 × 4.25 s = 31.5 s, 38 s with the
// layout. Budgets: 9 s for a sequential test, 7 s for a random one (five runs fit when the
// first three disagree, as on a loaded machine a stalled run makes them), and the runner shares
// out what is left of the 45 s. Writes: the
// budget left after the layout is shared 4:1:1 between the sequential and the two random write
// tests; on a drive fast enough for bytes rather than time to bound a test its runs are
// shortened, never below 1 s while one such run still fits.
const (
	quickFileBytes     = 128 * MiB
	quickMaxDuration   = 45 * time.Second
	quickMaxWritten    = 512 * MiB
	quickSeqRunTime    = 2 * time.Second
	quickRandRunTime   = time.Second
	quickMinRunTime    = time.Second
	quickWarmUp        = 500 * time.Millisecond
	quickRamp          = 250 * time.Millisecond
	quickSeqBudget     = 9 * time.Second
	quickRandBudget    = 7 * time.Second
	quickSeqWriteShare = 4
)

// Quick is the default profile: sequential 1 MiB read and write, 4 KiB random read and write
// at QD1 and QD32, each repeated until its 95% interval is within ±5% or its budget is spent.
//
// Sequential tests run at QD1 through psync, as dd and hdparm read and write: one request in
// flight is what a file copy issues, and a 1 MiB request at QD>1 is split by the block layer
// on many devices (blk-throttle then counts it twice on emulated drives, docs/decisions.md).
// The cdm profiles measure SEQ1M Q8T1 for the deep-queue figure.
func Quick() *Profile {
	t := func(name, label string, p engine.Pattern, bs, qd int, eng engine.Engine, primary string) Test {
		tc := Test{Name: name, Label: label, Pattern: p, BlockSize: bs, QD: qd, Jobs: 1, Engine: eng,
			Primary: primary, RunTime: quickRandRunTime, WarmUp: quickWarmUp, Ramp: quickRamp, Budget: quickRandBudget,
			MinRuns: 3, MaxRuns: 10, MinRunTime: quickMinRunTime}
		if !p.Random() {
			tc.RunTime, tc.Budget = quickSeqRunTime, quickSeqBudget
		}
		if p == engine.Write {
			tc.WriteShare = quickSeqWriteShare
		}
		return tc
	}
	return &Profile{
		Name: "quick", Title: "sequential 1M and random 4K at QD1/QD32, at most 45 s",
		Source:    "iomark: the figures that decide how a Pi feels, in at most 45 s",
		FileBytes: quickFileBytes, MaxDuration: quickMaxDuration, MaxBytesWritten: quickMaxWritten, ClassBudget: true, Peer: peerQuickBound,
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
