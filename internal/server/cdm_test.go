package server

import (
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestCDMGrid(t *testing.T) {
	tests := []record.Test{
		{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, MBPerS: 90, Runs: 3},
		{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 0, MBPerS: 30, Runs: 3},
		{Name: "rand-read-4k-qd32", Op: "randread", BS: 4096, QD: 32, Jobs: 1, IOPS: 3000, Runs: 3},
		{Name: "rand-read-4k-qd32t16", Op: "randread", BS: 4096, QD: 32, Jobs: 16, IOPS: 9000, Runs: 3},
		{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, IOPS: 700, Runs: 3},
		{Name: "interrupted", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Runs: 0},
		{Name: "hdparm-read", Op: "hdparm-read", MBPerS: 40, Runs: 1},
	}
	g := cdmGrid(tests)
	name := func(t *record.Test) string {
		if t == nil {
			return "-"
		}
		return t.Name
	}
	got := [][3]string{}
	for _, r := range g {
		got = append(got, [3]string{r.Label, name(r.Read), name(r.Write)})
	}
	want := [][3]string{
		{"SEQ1M Q8T1", "-", "-"},
		{"SEQ1M Q1T1", "seq-read-1m", "seq-write-1m"},
		{"RND4K Q32T16", "rand-read-4k-qd32t16", "-"},
		{"RND4K Q1T1", "-", "rand-write-4k-qd1"},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %v, want %v", i, got[i], want[i])
		}
	}
}
