package refdata

import (
	"strings"
	"testing"
)

// The rules every row of the embedded file keeps (SOURCES.md, "Rules every row keeps"). parse
// enforces the per-row ones; these check the file as a whole.

func loadAll(t *testing.T) []Result {
	t.Helper()
	results, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return results
}

// sourceRow is row (counted from 1, as in the CSV) of results; false, with the test failed,
// when that row does not come from source.
func sourceRow(t *testing.T, results []Result, row int, source string) (Result, bool) {
	t.Helper()
	r := results[row-1]
	if r.SourceID != source {
		t.Errorf("row %d: source %q, want %q", row, r.SourceID, source)
		return r, false
	}
	return r, true
}

// checkGotWant fails the test for each named {got, want} of a row that differ.
func checkGotWant(t *testing.T, row int, checks map[string][2]string) {
	t.Helper()
	for name, gw := range checks {
		if gw[0] != gw[1] {
			t.Errorf("row %d %s: got %q, want %q", row, name, gw[0], gw[1])
		}
	}
}

func TestEveryRowHasURLAndDateOrReason(t *testing.T) {
	for _, r := range loadAll(t) {
		if !strings.HasPrefix(r.SourceURL, "https://") && !strings.HasPrefix(r.SourceURL, "http://") {
			t.Errorf("row %d: source_url %q is not a web address", r.Row, r.SourceURL)
		}
		if (r.SourceDate == "") == (r.DateNote == "") {
			t.Errorf("row %d: want exactly one of source_date (%q) and date_note (%q)", r.Row, r.SourceDate, r.DateNote)
		}
	}
}

// TestNoDuplicateRows: two rows never say the same thing. Every column but row-local notes
// takes part, so two runs of one drive stay distinct by their figures, dates or URLs.
func TestNoDuplicateRows(t *testing.T) {
	seen := map[string]int{}
	for i, line := range strings.Split(strings.TrimSpace(string(sourceCSV(t))), "\n")[1:] {
		if prev, ok := seen[line]; ok {
			t.Errorf("rows %d and %d are identical", prev, i+1)
		}
		seen[line] = i + 1
	}
	// The figures alone: the same figures from one source under one label is a duplicate
	// even if a note differs.
	figs := map[string]int{}
	for _, r := range loadAll(t) {
		var b strings.Builder
		b.WriteString(r.SourceID + "|" + r.MakeModel + "|" + r.Board + "|" + r.PCIeGen)
		for _, f := range r.Figures() {
			b.WriteString("|" + f.Column + "=" + f.Figure.Printed)
		}
		key := b.String()
		if prev, ok := figs[key]; ok {
			t.Errorf("rows %d and %d carry the same figures for the same drive and source", prev, r.Row)
		}
		figs[key] = r.Row
	}
}

// TestUnitsAsDocumented checks the unit rules that a typo would break: the iozone MB/s
// columns say what the source printed, a 1024 divisor is only claimed for iozone MB/s
// figures, and no figure is implausible for its unit (an MB/s figure over 10000 would be a
// kB/s figure in the wrong column; a kB/s figure is never a fraction).
func TestUnitsAsDocumented(t *testing.T) {
	for _, r := range loadAll(t) {
		iozoneMB := r.IozoneRand1MReadMBps.Value != nil || r.IozoneRand1MWriteMBps.Value != nil ||
			r.IozoneSeq1MReadMBps.Value != nil || r.IozoneSeq1MWriteMBps.Value != nil
		if r.IozoneKBDivisor != "" && !iozoneMB && r.Rand4kReadMBps.Value == nil {
			t.Errorf("row %d: iozone_kb_divisor set without any iozone MB/s figure", r.Row)
		}
		if r.IozoneKBDivisor != "" && r.IozoneUnitPrinted != "MB/s" {
			t.Errorf("row %d: a 1024 divisor is documented only for tables printed in MB/s, got %q", r.Row, r.IozoneUnitPrinted)
		}
		if iozoneMB && r.IozoneUnitPrinted == "" {
			t.Errorf("row %d: iozone 1M figures without the unit the source printed", r.Row)
		}
		for _, f := range r.Figures() {
			v := *f.Figure.Value
			switch {
			case strings.HasSuffix(f.Column, "_mbps") && v > 10000:
				t.Errorf("row %d: %s = %s MB/s is implausible; a kB/s figure in an MB/s column?", r.Row, f.Column, f.Figure.Printed)
			case strings.Contains(f.Column, "_kbps") && strings.Contains(f.Figure.Printed, "."):
				t.Errorf("row %d: %s = %s: the tools print whole kB/s", r.Row, f.Column, f.Figure.Printed)
			case strings.HasSuffix(f.Column, "_iops") && strings.Contains(f.Figure.Printed, "."):
				t.Errorf("row %d: %s = %s: IOPS are printed whole", r.Row, f.Column, f.Figure.Printed)
			}
		}
	}
}

// TestBoardsAreCanonicalAndWordingMaps: every row names a canonical board, and the wording it
// keeps maps to that board through the alias table.
func TestBoardsAreCanonicalAndWordingMaps(t *testing.T) {
	for _, r := range loadAll(t) {
		if _, ok := BoardFamily(r.Board); !ok {
			t.Errorf("row %d: board %q is not canonical", r.Row, r.Board)
		}
		if r.BoardPublished == "" {
			continue
		}
		got, ok := CanonicalBoard(r.BoardPublished)
		if !ok || got != r.Board {
			t.Errorf("row %d: published wording %q maps to %q (known %v), the row says %q", r.Row, r.BoardPublished, got, ok, r.Board)
		}
		if r.BoardImplied {
			t.Errorf("row %d: board_implied with a published board wording %q", r.Row, r.BoardPublished)
		}
	}
}

// TestIssueRequirements checks the coverage the site's rankings need, as far as sources we could read
// allow (SOURCES.md, "Not found, and left out"): Pi 5 NVMe rows measured at PCIe gen 2 and 3,
// a Pi 5 USB SSD row, and a Pi 5 microSD row at SDR104. Not asserted because no source we
// read has them: a Pi 5 microSD row at DDR50 and a measured (not a maker's) Pi 5 microSD row.
// (314 rows in all is held by TestLoadKeepsEveryRow.)
func TestIssueRequirements(t *testing.T) {
	gens := map[string]int{}
	usbSSD, sdr104 := 0, 0
	for _, r := range loadAll(t) {
		fam, _ := BoardFamily(r.Board)
		if fam != FamilyPi5 {
			continue
		}
		measured := r.MakerRand4kReadIOPS.Value == nil && r.MakerRand4kWriteIOPS.Value == nil
		switch {
		case r.StorageClass == "nvme" && measured:
			gens[r.PCIeGen]++
		case DeviceClass(r.StorageClass) == "usb-ssd":
			usbSSD++
		case r.StorageClass == "microsd" && r.SDBusMode == "SDR104":
			sdr104++
		}
	}
	if gens["2"] == 0 || gens["3"] == 0 {
		t.Errorf("measured Pi 5 NVMe rows by PCIe gen: %v; want rows at gen 2 and gen 3", gens)
	}
	if usbSSD == 0 {
		t.Error("no Pi 5 USB SSD row")
	}
	if sdr104 == 0 {
		t.Error("no Pi 5 microSD row at SDR104")
	}
}

// TestMakerFiguresStayApart: a maker's specification never shares a row with measured figures,
// so nothing ranks a datasheet claim as a benchmark result.
func TestMakerFiguresStayApart(t *testing.T) {
	for _, r := range loadAll(t) {
		maker := r.MakerRand4kReadIOPS.Value != nil || r.MakerRand4kWriteIOPS.Value != nil
		if !maker {
			continue
		}
		for _, f := range r.Figures() {
			if f.Column != "capacity_gb" && !strings.HasPrefix(f.Column, "maker_") {
				t.Errorf("row %d: maker's figures beside a measured %s", r.Row, f.Column)
			}
		}
		if !strings.Contains(r.Method, "maker's specification") {
			t.Errorf("row %d: maker's figures without a method saying so: %q", r.Row, r.Method)
		}
	}
}
