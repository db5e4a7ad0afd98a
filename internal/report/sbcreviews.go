package report

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// sbcRow is one row of the table reviewers post (the "Disk" table of geerlingguy/sbc-reviews:
// iozone 4K random read/write, 1M random read/write, 1M sequential read/write, in MB/s). iomark
// fills each row from the test with that op and block size, single job, lowest queue depth,
// and the row says what iomark measured rather than claiming iozone did.
type sbcRow struct {
	op   string
	bs   int
	what string
}

var sbcRows = []sbcRow{
	{"randread", 4 * kib, "4K random read"},
	{"randwrite", 4 * kib, "4K random write"},
	{"randread", mib, "1M random read"},
	{"randwrite", mib, "1M random write"},
	{"read", mib, "1M sequential read"},
	{"write", mib, "1M sequential write"},
}

// sbcTest picks the single-job test of op and block size with the lowest queue depth.
func sbcTest(r *record.Run, op string, bs int) *record.Test {
	var best *record.Test
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Op != op || t.BS != bs || t.Jobs > 1 {
			continue
		}
		if best == nil || t.QD < best.QD {
			best = t
		}
	}
	return best
}

func sbcReviewsRows(r *record.Run) (header []string, rows [][]string) {
	header = []string{"Benchmark", "Result"}
	for _, s := range sbcRows {
		t := sbcTest(r, s.op, s.bs)
		if t == nil {
			rows = append(rows, []string{fmt.Sprintf("iomark %s", s.what), "not measured"})
			continue
		}
		direct := "O_DIRECT"
		if !t.Direct {
			direct = "buffered"
		}
		label := fmt.Sprintf("iomark %s (%s, QD%d, %s)", s.what, t.Name, t.QD, direct)
		rows = append(rows, []string{label, fmtRate(t.MBPerS) + " MB/s"})
	}
	return header, rows
}

// SBCReviewsTable is the Markdown table reviewers paste (the sbc-reviews "Disk" table): 4K and
// 1M random and 1M sequential reads and writes, each row naming the iomark test and method it
// came from, each result in MB/s (10^6 bytes/s). Rows the run did not measure say so.
func SBCReviewsTable(run *record.Run) string {
	if run == nil {
		return ""
	}
	header, rows := sbcReviewsRows(run)
	var b strings.Builder
	b.WriteString(mdTable(header, rows))
	b.WriteString("\nMB/s = 10^6 bytes/s, measured by iomark " + mdEscape(run.ToolVersion) + " (run " + mdEscape(run.ID) + ").\n")
	return b.String()
}
