package profile

import (
	"math"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
)

// The pibenchmarks profile reproduces the workloads of TheRemote/PiBenchmarks Storage.sh
// (the script behind pibenchmarks.com; read at github.com/TheRemote/PiBenchmarks, Storage.sh,
// "Run HDParm tests" to "Calculate score"):
//
//	hdparm -Tt --direct $BootDrive   (falls back to hdparm -Tt, -T, -t without --direct)
//	dd if=/dev/zero of=test bs=4k count=130k conv=fsync
//	fio --minimal --randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test
//	    --filename=test --bs=4k --iodepth=64 --size=80M --readwrite=randwrite   (then randread)
//	iozone -a -e -I -i 0 -i 1 -i 2 -s 80M -r 4k
//
// and its score (the same script, "Calculate score", bc with scale=2 then scale=0):
//
//	int((dd MB/s*1024 + fio randread IOPS*4 + fio randwrite IOPS*10 + iozone read kB/s +
//	     iozone write kB/s + iozone randread kB/s*4 + iozone randwrite kB/s*10) / 100)
//
// Each step is bounded by time as well as size, so a slow card cannot take an hour: the dd
// step writes what the drive writes in ddSeconds at its layout rate (at most dd's 520 MiB),
// and each fio and iozone pass stops after pibRunTime even if its 80 MiB is not done (a
// 700-IOPS card needs 29 s for fio's 80 MiB of 4 KiB writes, iozone's QD1 4 KiB writes 30 s).
// What still differs from the script, and why, is in docs/methodology.md.
const (
	pibFileBytes  = 80 * MiB  // fio --size=80M, iozone -s 80M
	pibDDBytes    = 520 * MiB // dd bs=4k count=130k: 133120 blocks of 4 KiB
	pibDDSeconds  = 5 * time.Second
	pibRunTime    = 5 * time.Second
	pibHdparmTime = 3 * time.Second // hdparm -t times reads for about 3 s (hdparm(8))
	pibBudget     = 20 * time.Second
	// pibDDWriteShare weighs dd's part of the byte budget against each 4 KiB write test's:
	// dd moves far more bytes in its 5 s (Storage.sh's dd writes 520 of its 920 MiB).
	pibDDWriteShare = 4
)

// Test names of the pibenchmarks profile, used by its score.
const (
	PibHdparmRead     = "hdparm-read"
	PibDDWrite        = "dd-write-4k"
	PibFioRandWrite   = "fio-rand-write-4k-qd64"
	PibFioRandRead    = "fio-rand-read-4k-qd64"
	PibIozoneWrite    = "iozone-write-4k"
	PibIozoneRead     = "iozone-read-4k"
	PibIozoneRandRead = "iozone-rand-read-4k"
	PibIozoneRandWrt  = "iozone-rand-write-4k"
)

// PiBenchmarks is the Storage.sh-compatible profile with its score.
func PiBenchmarks() *Profile {
	rep := func(t Test) Test {
		t.Jobs = 1
		if t.Budget == 0 {
			t.Budget = pibBudget
		}
		t.MinRuns, t.MaxRuns = 3, 5
		return t
	}
	fio := func(name string, p engine.Pattern) Test {
		return rep(Test{Name: name, Label: "fio 4k " + string(p) + " iodepth=64 size=80M",
			Peer:    "fio --ioengine=libaio --direct=1 --bs=4k --iodepth=64 --size=80M --readwrite=" + string(p),
			Pattern: p, BlockSize: 4 * KiB, QD: 64, Engine: engine.EngineAuto, Primary: PrimaryIOPS,
			RunTime: pibRunTime, RunBytes: pibFileBytes, RegionBytes: pibFileBytes, WarmUp: 500 * time.Millisecond,
			Ramp: 250 * time.Millisecond})
	}
	iozone := func(name, label string, p engine.Pattern) Test {
		return rep(Test{Name: name, Label: "iozone 4k " + label, Peer: "iozone -a -e -I -i 0 -i 1 -i 2 -s 80M -r 4k",
			Pattern: p, BlockSize: 4 * KiB, QD: 1, Engine: engine.EnginePsync, Primary: PrimaryMBPerS,
			EndFsync: p.Writes(), RunTime: pibRunTime, RunBytes: pibFileBytes, RegionBytes: pibFileBytes,
			Ramp: 250 * time.Millisecond})
	}
	return &Profile{
		Name: "pibenchmarks", Title: "the workloads and score of PiBenchmarks' Storage.sh",
		Source:    "github.com/TheRemote/PiBenchmarks Storage.sh",
		FileBytes: pibFileBytes, MaxBytesWritten: peerStorageSh.Bytes, Peer: peerStorageSh,
		Tests: []Test{
			rep(Test{Name: PibHdparmRead, Label: "hdparm -t", Peer: "hdparm -t (buffered device reads after flushing the buffer cache)",
				Pattern: engine.Read, BlockSize: 2 * MiB, QD: 1, Engine: engine.EnginePsync, Buffered: true, DropCache: true,
				DeviceRead: true, Primary: PrimaryMBPerS, RunTime: pibHdparmTime, RunBytes: pibFileBytes, Budget: 12 * time.Second}),
			rep(Test{Name: PibDDWrite, Label: "dd bs=4k conv=fsync", Peer: "dd if=/dev/zero of=test bs=4k count=130k conv=fsync",
				Pattern: engine.Write, BlockSize: 4 * KiB, QD: 1, Engine: engine.EnginePsync, Buffered: true, DropCache: true,
				EndFsync: true, Primary: PrimaryMBPerS, RunTime: 30 * time.Second, RunBytes: pibDDBytes,
				SizeForSeconds: pibDDSeconds, Budget: 40 * time.Second, WriteShare: pibDDWriteShare}),
			fio(PibFioRandWrite, engine.RandWrite),
			fio(PibFioRandRead, engine.RandRead),
			iozone(PibIozoneWrite, "write", engine.Write),
			iozone(PibIozoneRead, "read", engine.Read),
			iozone(PibIozoneRandRead, "random read", engine.RandRead),
			iozone(PibIozoneRandWrt, "random write", engine.RandWrite),
		},
		Score: pibenchmarksScores,
	}
}

// PibInputs are the seven figures the Storage.sh score adds up, in the units it reads them.
type PibInputs struct {
	DDWriteMBPerS                  float64 // dd's MB/s (10^6 bytes/s)
	FioRandReadIOPS, FioRandWrIOPS float64
	// iozone prints kB/s meaning KiB/s (1024 bytes/s).
	IozoneReadKBps, IozoneWriteKBps, IozoneRandReadKBps, IozoneRandWriteKBps float64
}

// PibScore is Storage.sh's score, exactly as the script computes it with bc: inputs carry
// two decimals there (scale=2), every product of such an input and an integer weight is
// exact, the sum is exact, and the final division by 100 at scale=0 truncates. Working in
// integer hundredths reproduces that without float rounding at the truncation.
func PibScore(in PibInputs) int {
	cents := func(x float64) int64 {
		if math.IsNaN(x) || x <= 0 {
			return 0
		}
		return int64(math.Round(x * 100))
	}
	sum := cents(in.DDWriteMBPerS)*1024 + cents(in.FioRandReadIOPS)*4 + cents(in.FioRandWrIOPS)*10 +
		cents(in.IozoneReadKBps) + cents(in.IozoneWriteKBps) + cents(in.IozoneRandReadKBps)*4 +
		cents(in.IozoneRandWriteKBps)*10
	return int(sum / 100 / 100)
}

// PibInputsFrom reads the score's inputs from measured tests; ok is false when one is
// missing (an interrupted run), and then there is no score.
func PibInputsFrom(tests []record.Test) (in PibInputs, ok bool) {
	get := func(name string) (*record.Test, bool) {
		for i := range tests {
			if tests[i].Name == name && tests[i].Runs > 0 {
				return &tests[i], true
			}
		}
		return nil, false
	}
	kibPerS := func(t *record.Test) float64 { return t.MiBPerS * 1024 }
	names := PibScoreInputs()
	var ts [7]*record.Test
	for i, n := range names {
		t, found := get(n)
		if !found {
			return PibInputs{}, false
		}
		ts[i] = t
	}
	return PibInputs{DDWriteMBPerS: ts[0].MBPerS, FioRandReadIOPS: ts[1].IOPS, FioRandWrIOPS: ts[2].IOPS,
		IozoneReadKBps: kibPerS(ts[3]), IozoneWriteKBps: kibPerS(ts[4]),
		IozoneRandReadKBps: kibPerS(ts[5]), IozoneRandWriteKBps: kibPerS(ts[6])}, true
}

// PibScoreInputs are the tests the PiBenchmarks score is computed from, in PibInputs' order.
func PibScoreInputs() []string {
	return []string{PibDDWrite, PibFioRandRead, PibFioRandWrite, PibIozoneRead, PibIozoneWrite, PibIozoneRandRead, PibIozoneRandWrt}
}

func pibenchmarksScores(tests []record.Test) record.Scores {
	in, ok := PibInputsFrom(tests)
	if !ok {
		return record.Scores{}
	}
	s := PibScore(in)
	return record.Scores{Pibenchmarks: &s}
}
