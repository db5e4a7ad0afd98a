package profile

import (
	"time"

	"github.com/iomark/iomark/internal/engine"
)

// The sbc-reviews profile measures the table reviewers paste into
// github.com/geerlingguy/sbc-reviews issues, produced by Jeff Geerling's disk-benchmark.sh
// (github.com/geerlingguy/pi-cluster, benchmarks/disk-benchmark.sh, 2024 version):
//
//	iozone -e -I -a -s $TEST_SIZE -r 4k -r 1024k -i 0 -i 1 -i 2   (TEST_SIZE defaults to 1g)
//
// printed as "iozone 4K random read | … MB/s" rows for 4K random read/write, 1M random
// read/write and 1M sequential read/write. The script divides iozone's kB/s by 1024 and
// labels the result MB/s (it is MiB/s), and its sequential rows read the columns `awk $4` and
// `$6` of `cut -c7-100` output, which need not be iozone's first write and read passes.
// Here each row measures what its label says — a first pass of O_DIRECT 1 MiB sequential
// reads or writes, 4 KiB or 1 MiB uniform random at QD1 — and the record carries MB/s and
// MiB/s so the report can print the unit the label names.
const (
	sbcFileBytes = 1 * GiB // TEST_SIZE=1g
	sbcRunTime   = 3 * time.Second
	sbcBudget    = 15 * time.Second
)

// SBCReviews is the reviewers' table profile.
func SBCReviews() *Profile {
	t := func(name, label string, p engine.Pattern, bs int) Test {
		return Test{Name: name, Label: label, Peer: "iozone -e -I -a -s 1g -r 4k -r 1024k -i 0 -i 1 -i 2",
			Pattern: p, BlockSize: bs, QD: 1, Jobs: 1, Engine: engine.EnginePsync, EndFsync: p.Writes(),
			Primary: PrimaryMBPerS, RunTime: sbcRunTime, WarmUp: 500 * time.Millisecond, Ramp: 250 * time.Millisecond, Budget: sbcBudget,
			MinRuns: 3, MaxRuns: 10}
	}
	return &Profile{
		Name: "sbc-reviews", Title: "the 4K/1M random and sequential table of sbc-reviews",
		Source:    "github.com/geerlingguy/pi-cluster benchmarks/disk-benchmark.sh",
		FileBytes: sbcFileBytes, MaxBytesWritten: peerDiskBenchmarkSh.Bytes, Peer: peerDiskBenchmarkSh,
		Tests: []Test{
			t("rand-read-4k-qd1", "iozone 4K random read", engine.RandRead, 4*KiB),
			t("rand-write-4k-qd1", "iozone 4K random write", engine.RandWrite, 4*KiB),
			t("rand-read-1m-qd1", "iozone 1M random read", engine.RandRead, MiB),
			t("rand-write-1m-qd1", "iozone 1M random write", engine.RandWrite, MiB),
			t("seq-read-1m", "iozone 1M sequential read", engine.Read, MiB),
			t("seq-write-1m", "iozone 1M sequential write", engine.Write, MiB),
		},
	}
}
