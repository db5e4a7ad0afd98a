package profile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iomark/iomark/internal/record"
)

// The expected lines are written from fio's HOWTO, option by option, not from the code:
// psync at depth N is N jobs of iodepth=1 (HOWTO, "psync": one I/O per call), io_uring keeps
// the depth in one job with fixedbufs and registerfiles, norandommap for offsets drawn with
// repeats, overwrite=1 so a new file is laid out before writes, sizes in kb_base=1024 units,
// time in seconds or with "ms".
func TestFioFor(t *testing.T) {
	dir := &record.Run{Profile: "quick", Target: record.Target{Path: "/mnt/card", Kind: "dir"}}
	tests := []struct {
		name string
		run  *record.Run
		test record.Test
		want string // fio's options, or "" when there is no line
		why  string // a word of the reason when there is none
	}{
		{
			name: "sequential read, psync QD1, warm-up added to the ramp",
			run:  dir,
			test: record.Test{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				DurationS: 3.0004, WorkingSetBytes: 128 << 20, RampS: 0.25},
			want: "--name=seq-read-1m --filename=iomark-fio.tmp --size=128m --rw=read --bs=1m --ioengine=psync " +
				"--iodepth=1 --numjobs=1 --direct=1 --time_based --runtime=3 --ramp_time=750ms",
		},
		{
			name: "sequential write after a burst: the recorded warm-up, not the profile's",
			run:  dir,
			test: record.Test{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				DurationS: 2.0004, WorkingSetBytes: 128 << 20, RampS: 0.25, WarmUpS: 2.81, Burst: &record.Burst{S: 0.84, X: 3}},
			want: "--name=seq-write-1m --filename=iomark-fio.tmp --size=128m --rw=write --bs=1m --ioengine=psync " +
				"--iodepth=1 --numjobs=1 --direct=1 --overwrite=1 --time_based --runtime=2 --ramp_time=3060ms",
		},
		{
			name: "sequential write: the file laid out before it",
			run:  dir,
			test: record.Test{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				DurationS: 0.4123, WorkingSetBytes: 128 << 20, RampS: 0.1},
			want: "--name=seq-write-1m --filename=iomark-fio.tmp --size=128m --rw=write --bs=1m --ioengine=psync " +
				"--iodepth=1 --numjobs=1 --direct=1 --overwrite=1 --time_based --runtime=410ms --ramp_time=600ms",
		},
		{
			name: "random read through io_uring at QD32",
			run:  dir,
			test: record.Test{Name: "rand-read-4k-qd32", Op: "randread", BS: 4096, QD: 32, Jobs: 1, Engine: "io_uring", Direct: true,
				DurationS: 1.5, WorkingSetBytes: 128 << 20, RampS: 0.25},
			want: "--name=rand-read-4k-qd32 --filename=iomark-fio.tmp --size=128m --rw=randread --bs=4k --ioengine=io_uring " +
				"--fixedbufs --registerfiles --iodepth=32 --numjobs=1 --direct=1 --norandommap --time_based --runtime=1500ms --ramp_time=750ms",
		},
		{
			name: "random write through psync at QD32: 32 jobs in one group",
			run:  dir,
			test: record.Test{Name: "rand-write-4k-qd32", Op: "randwrite", BS: 4096, QD: 32, Jobs: 1, Engine: "psync", Direct: true,
				DurationS: 1.5, WorkingSetBytes: 128 << 20, RampS: 0.25},
			want: "--name=rand-write-4k-qd32 --filename=iomark-fio.tmp --size=128m --rw=randwrite --bs=4k --ioengine=psync " +
				"--iodepth=1 --numjobs=32 --group_reporting --direct=1 --norandommap --overwrite=1 --time_based --runtime=1500ms --ramp_time=750ms",
		},
		{
			name: "CDM's RND4K Q32T16: 16 jobs of depth 32 over the whole file",
			run:  &record.Run{Profile: "cdm-nvme", Target: record.Target{Path: "/mnt/nvme", Kind: "dir"}},
			test: record.Test{Name: "rand-read-4k-q32t16", Op: "randread", BS: 4096, QD: 32, Jobs: 16, Engine: "io_uring", Direct: true,
				DurationS: 5, WorkingSetBytes: 1 << 30, RampS: 0.25},
			want: "--name=rand-read-4k-q32t16 --filename=iomark-fio.tmp --size=1g --rw=randread --bs=4k --ioengine=io_uring " +
				"--fixedbufs --registerfiles --iodepth=32 --numjobs=16 --group_reporting --direct=1 --norandommap --time_based --runtime=5 --ramp_time=1250ms",
		},
		{
			name: "an older record: size and ramp from the profile",
			run:  dir,
			test: record.Test{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true, DurationS: 1.5},
			want: "--name=rand-read-4k-qd1 --filename=iomark-fio.tmp --size=128m --rw=randread --bs=4k --ioengine=psync " +
				"--iodepth=1 --numjobs=1 --direct=1 --norandommap --time_based --runtime=1500ms --ramp_time=750ms",
		},
		{
			name: "a block device is read in place, read-only, over its first bytes",
			run:  &record.Run{Profile: "quick", Target: record.Target{Path: "/dev/sdb", Kind: "block"}},
			test: record.Test{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Engine: "io_uring", Direct: true,
				DurationS: 1.5, WorkingSetBytes: 128 << 20, RampS: 0.25},
			want: "--name=rand-read-4k-qd1 --filename=/dev/sdb --readonly --size=128m --rw=randread --bs=4k --ioengine=io_uring " +
				"--fixedbufs --registerfiles --iodepth=1 --numjobs=1 --direct=1 --norandommap --time_based --runtime=1500ms --ramp_time=750ms",
		},
		{
			name: "iozone -e's end fsync (sbc-reviews)",
			run:  &record.Run{Profile: "sbc-reviews", Target: record.Target{Path: "/mnt", Kind: "dir"}},
			test: record.Test{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true,
				DurationS: 2, WorkingSetBytes: 1 << 30, RampS: 0.25},
			want: "--name=rand-write-4k-qd1 --filename=iomark-fio.tmp --size=1g --rw=randwrite --bs=4k --ioengine=psync " +
				"--iodepth=1 --numjobs=1 --direct=1 --norandommap --overwrite=1 --end_fsync=1 --time_based --runtime=2 --ramp_time=750ms",
		},
		{name: "a write to a block device", run: &record.Run{Profile: "quick", Target: record.Target{Path: "/dev/sdb", Kind: "block"}},
			test: record.Test{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true, DurationS: 3, WorkingSetBytes: 1 << 27},
			why:  "overwrite"},
		{name: "a buffered dd-style write", run: &record.Run{Profile: "pibenchmarks", Target: record.Target{Path: "/mnt", Kind: "dir"}},
			test: record.Test{Name: "dd-write-4k", Op: "write", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", DurationS: 3},
			why:  "buffered"},
		{name: "psync over one sequential stream at QD8", run: &record.Run{Profile: "cdm", Target: record.Target{Path: "/mnt", Kind: "dir"}},
			test: record.Test{Name: "seq-read-1m-q8t1", Op: "read", BS: 1 << 20, QD: 8, Jobs: 1, Engine: "psync", Direct: true, DurationS: 5, WorkingSetBytes: 1 << 30},
			why:  "sequential stream"},
		{name: "a sustained write", run: &record.Run{Profile: "sustained", Target: record.Target{Path: "/mnt", Kind: "dir"}},
			test: record.Test{Name: "sustained-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Engine: "psync", Direct: true, DurationS: 60, Sustained: &record.Sustained{}},
			why:  "series"},
		{name: "a mixed random test", run: &record.Run{Profile: "made-up", Target: record.Target{Path: "/mnt", Kind: "dir"}},
			test: record.Test{Name: "mix", Op: "randrw", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true, DurationS: 1, WorkingSetBytes: 1 << 27},
			why:  "rwmixread"},
		{name: "an unknown profile without a size", run: &record.Run{Profile: "made-up", Target: record.Target{Path: "/mnt", Kind: "dir"}},
			test: record.Test{Name: "x", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Engine: "psync", Direct: true, DurationS: 1},
			why:  "working set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, derived, err := FioFor(tt.run, tt.test)
			if tt.want == "" && tt.why != "" {
				if err == nil || !strings.Contains(err.Error(), tt.why) {
					t.Fatalf("FioFor = %+v, %v; want an error about %q", s, err, tt.why)
				}
				return
			}
			if err != nil {
				t.Fatalf("FioFor: %v", err)
			}
			args, err := s.Args()
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				t.Logf("%s (derived: %v)", strings.Join(args, " "), derived)
				return
			}
			if diff := cmp.Diff(strings.Fields(tt.want), args); diff != "" {
				t.Errorf("fio options (-want +got):\n%s\nderived: %v", diff, derived)
			}
		})
	}
}
