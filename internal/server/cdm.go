package server

import "github.com/iomark/iomark/internal/record"

// CDMRow is one row of the CrystalDiskMark-style grid of a result page: a shape (block size,
// queue depth, threads) with the read and write figures of the run's tests of exactly that
// shape; nil where the run has no such test.
type CDMRow struct {
	Label string       `json:"label"` // as CrystalDiskMark 8 names its default rows
	Read  *record.Test `json:"read,omitempty"`
	Write *record.Test `json:"write,omitempty"`
}

// cdmShapes are CrystalDiskMark 8's default rows (its "Default" profile: SEQ1M Q8T1,
// SEQ1M Q1T1, RND4K Q32T16, RND4K Q1T1).
var cdmShapes = []struct {
	label      string
	random     bool
	bs, qd, th int
}{
	{"SEQ1M Q8T1", false, 1 << 20, 8, 1},
	{"SEQ1M Q1T1", false, 1 << 20, 1, 1},
	{"RND4K Q32T16", true, 4 << 10, 32, 16},
	{"RND4K Q1T1", true, 4 << 10, 1, 1},
}

// cdmGrid fills the grid from whichever tests of the run have those shapes (the first of each).
func cdmGrid(tests []record.Test) []CDMRow {
	rows := make([]CDMRow, len(cdmShapes))
	for i, sh := range cdmShapes {
		rows[i].Label = sh.label
		read, write := "read", "write"
		if sh.random {
			read, write = "randread", "randwrite"
		}
		for j := range tests {
			t := &tests[j]
			jobs := max(t.Jobs, 1)
			if t.BS != sh.bs || t.QD != sh.qd || jobs != sh.th || t.Runs == 0 {
				continue
			}
			if t.Op == read && rows[i].Read == nil {
				rows[i].Read = t
			}
			if t.Op == write && rows[i].Write == nil {
				rows[i].Write = t
			}
		}
	}
	return rows
}
