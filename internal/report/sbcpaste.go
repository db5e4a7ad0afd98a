package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
)

// sbcTemplateRows are the template's row names (.github/ISSUE_TEMPLATE/sbc-board.md of
// geerlingguy/sbc-reviews), in its order, with the iomark row each comes from.
var sbcTemplateRows = []struct {
	name string
	row  sbcRow
}{
	{"iozone 4K random read", sbcRows[0]},
	{"iozone 4K random write", sbcRows[1]},
	{"iozone 1M random read", sbcRows[2]},
	{"iozone 1M random write", sbcRows[3]},
	{"iozone 1M sequential read", sbcRows[4]},
	{"iozone 1M sequential write", sbcRows[5]},
}

// writeSBCReviews prints only the block a reviewer pastes into a geerlingguy/sbc-reviews
// issue: the template's "#### <disk>" heading and its Disk table, rows named as the template
// names them, each figure as disk-benchmark.sh prints it (KiB/s / 1024, awk's "%.2f", labelled
// "MB/s"), and one line saying what measured them and what the unit is. The iomark-labelled
// table stays in the full Markdown and HTML reports (SBCReviewsTable).
func writeSBCReviews(w io.Writer, runs []*record.Run, _ Options) error {
	var b strings.Builder
	for i, r := range runs {
		if i > 0 {
			b.WriteString("\n")
		}
		writeSBCPaste(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSBCPaste writes one run's block, laid out as the template lays it out (the Benchmark
// column padded to the template's 26 characters).
func writeSBCPaste(b *strings.Builder, r *record.Run) {
	fmt.Fprintf(b, "#### %s\n\n", sbcDiskName(r))
	b.WriteString("| Benchmark                  | Result |\n")
	b.WriteString("| -------------------------- | ------ |\n")
	missing := 0
	for _, tr := range sbcTemplateRows {
		result := "not measured"
		if t := sbcTest(r, tr.row.op, tr.row.bs); t != nil {
			result = fmt.Sprintf("%.2f MB/s", sbcMiBPerS(*t))
		} else {
			missing++
		}
		fmt.Fprintf(b, "| %-26s | %s |\n", tr.name, result)
	}
	how := "profile " + r.Profile + ", O_DIRECT, one I/O at a time"
	if r.Profile == "sbc-reviews" {
		how = "profile sbc-reviews: iozone's workload, O_DIRECT, one I/O at a time, a 1 GiB file"
	}
	fmt.Fprintf(b, "\nMeasured by iomark %s (%s), not by iozone; \"MB/s\" is MiB/s (2^20 bytes/s), as disk-benchmark.sh prints it.\n", r.ToolVersion, how)
	if missing > 0 {
		b.WriteString("Rows marked \"not measured\": run `iomark run --profile sbc-reviews` for all six.\n")
	}
}

// sbcDiskName is the disk as the heading names it: the drive model iomark compares it as, else
// what the device reports.
func sbcDiskName(r *record.Run) string {
	if m := compare.RecordModel(r); m.Name != "" {
		return m.Name
	}
	if r.Device != nil {
		if s := strings.TrimSpace(r.Device.Vendor + " " + r.Device.Model); s != "" {
			return s
		}
		if r.Device.Class != "" {
			return r.Device.Class + " (model not reported)"
		}
	}
	return "disk (model not reported)"
}
