package report

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// sbcRow is one row of the table reviewers post (the "Disk" table of geerlingguy/sbc-reviews:
// iozone 4K random read/write, 1M random read/write, 1M sequential read/write). iomark fills
// each row from the test with that op and block size, single job, lowest queue depth, and the
// row says what iomark measured rather than claiming iozone did.
//
// The unit is the one those tables use: their "MB/s" is iozone's kB/s divided by 1024 by
// disk-benchmark.sh (refdata SOURCES.md, "What the iozone MB/s of the sbc-reviews tables
// are"), that is MiB/s, printed with two decimals. iomark prints the same figure, in MiB/s and
// labelled so, to sit beside existing rows figure for figure; the record (JSON) keeps MB/s and
// MiB/s of every test.
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
		rows = append(rows, []string{label, fmt.Sprintf("%.2f MiB/s", sbcMiBPerS(*t))})
	}
	return header, rows
}

// sbcMiBPerS is a test's figure in MiB/s (2^20 bytes/s), from MB/s for a record without it.
func sbcMiBPerS(t record.Test) float64 {
	if t.MiBPerS > 0 {
		return t.MiBPerS
	}
	return t.MBPerS * 1e6 / mib
}

// sbcUnitNote explains the table's unit under it.
const sbcUnitNote = "MiB/s = 2^20 bytes/s: the unit the sbc-reviews tables print as \"MB/s\" (disk-benchmark.sh divides " +
	"iozone's kB/s by 1024), so these rows sit beside theirs figure for figure; MB/s (10^6 bytes/s) is in the test table and the JSON record"

// SBCReviewsTable is the Markdown table reviewers paste (the sbc-reviews "Disk" table): 4K and
// 1M random and 1M sequential reads and writes, each row naming the iomark test and method it
// came from, each result in MiB/s with two decimals as those tables print it (labelled MiB/s,
// where theirs say "MB/s"). Rows the run did not measure say so.
func SBCReviewsTable(run *record.Run) string {
	if run == nil {
		return ""
	}
	header, rows := sbcReviewsRows(run)
	var b strings.Builder
	b.WriteString(mdTable(header, rows))
	b.WriteString("\n" + mdEscape(sbcUnitNote) + ". Measured by iomark " + mdEscape(run.ToolVersion) + " (run " + mdEscape(run.ID) + ").\n")
	return b.String()
}
