package refdata

import (
	"bytes"
	"strings"
	"testing"
)

func TestLoadKeepsEveryRow(t *testing.T) {
	results, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(results) != 76 {
		t.Fatalf("Load returned %d rows, SOURCES.md says 76", len(results))
	}
	// Count lines independently of encoding/csv: no field of this file spans lines, so every
	// non-empty line after the header is one row.
	lines := 0
	for _, l := range bytes.Split(publishedCSV, []byte("\n"))[1:] {
		if len(bytes.TrimSpace(l)) > 0 {
			lines++
		}
	}
	if lines != len(results) {
		t.Errorf("the CSV has %d data lines, Load returned %d rows", lines, len(results))
	}
	for i, r := range results {
		if r.Row != i+1 {
			t.Errorf("result %d has Row %d, want %d", i, r.Row, i+1)
		}
	}
}

func TestEverySourceIsKnownAndCounted(t *testing.T) {
	results, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	got := map[string]int{}
	for _, r := range results {
		src, ok := SourceByID(r.SourceID)
		if !ok {
			t.Errorf("row %d: source %q is not in Sources()", r.Row, r.SourceID)
			continue
		}
		got[r.SourceID]++
		if r.SourceTitle != src.Title || r.SourceDate != src.Date {
			t.Errorf("row %d: title/date %q/%q differ from the source table's %q/%q",
				r.Row, r.SourceTitle, r.SourceDate, src.Title, src.Date)
		}
	}
	for _, s := range Sources() {
		if got[s.ID] != s.Rows {
			t.Errorf("source %s: %d rows in the CSV, SOURCES.md says %d", s.ID, got[s.ID], s.Rows)
		}
	}
}

func fig(printed string, v float64) Figure { return Figure{Printed: printed, Value: &v} }

func TestSpotChecks(t *testing.T) {
	results, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	type check struct {
		name string
		got  Figure
		want Figure
	}
	tests := []struct {
		row      int // 1-based data row
		source   string
		board    string
		class    string
		model    string
		iface    string
		checks   func(r Result) []check
		notesHas string
	}{
		{
			// First row: trailing zero kept ("31.80"), empty dd cell.
			row: 1, source: "geerling-2020-usb", board: "Raspberry Pi 4 Model B (implied)",
			class: "usb-ssd-nvme", model: "Inland Premium 256GB NVMe 3.0 x4 SSD", iface: "",
			checks: func(r Result) []check {
				return []check{
					{"capacity", r.CapacityGB, fig("256", 256)},
					{"hdparm", r.HdparmReadMBps, fig("308.46", 308.46)},
					{"dd", r.DDWriteMBps, Figure{}},
					{"rand read", r.Rand4kReadMBps, fig("19.41", 19.41)},
					{"rand write", r.Rand4kWriteMBps, fig("31.80", 31.8)},
					{"iozone rand read", r.Rand4kReadKBpsIozone, Figure{}},
				}
			},
			notesHas: "Rob Logan's results",
		},
		{
			// A quoted board with a comma; the iozone kB/s columns.
			row: 7, source: "chambers-storage-2019", board: "Raspberry Pi (as published: Pi 4 named, USB 2.0 bus limits)",
			class: "microsd", model: "EMTEC", iface: "microSD (reader not stated)",
			checks: func(r Result) []check {
				return []check{
					{"capacity", r.CapacityGB, fig("64", 64)},
					{"hdparm", r.HdparmReadMBps, Figure{}},
					{"dd", r.DDWriteMBps, fig("8.4", 8.4)},
					{"iozone rand read", r.Rand4kReadKBpsIozone, fig("6422", 6422)},
					{"iozone rand write", r.Rand4kWriteKBpsIozone, fig("205", 205)},
					{"iozone seq read", r.Seq4kReadKBpsIozone, fig("7431", 7431)},
					{"iozone seq write", r.Seq4kWriteKBpsIozone, fig("209", 209)},
					{"iozone rewrite", r.Seq4kRewriteKBpsIozone, fig("204", 204)},
				}
			},
		},
		{
			// Non-ASCII (″) in the label and the interface; no capacity stated.
			row: 15, source: "chambers-storage-2019", board: "Raspberry Pi (as published: Pi 4 named, USB 2.0 bus limits)",
			class: "usb-ssd-sata", model: "Crucial 2.5″ SATA SSD USB", iface: "2.5″ SATA to USB 3.0 adapter",
			checks: func(r Result) []check {
				return []check{
					{"capacity", r.CapacityGB, Figure{}},
					{"dd", r.DDWriteMBps, fig("35.1", 35.1)},
					{"iozone rewrite", r.Seq4kRewriteKBpsIozone, fig("11443", 11443)},
				}
			},
		},
		{
			// A quoted label with a comma; "12.0"-style printing of the pidramble tables.
			row: 22, source: "pidramble-microsd", board: "Raspberry Pi 4 Model B",
			class: "microsd", model: "NOOBS (1.4, C6) 8GB", iface: "built-in microSD reader",
			checks: func(r Result) []check {
				return []check{
					{"hdparm", r.HdparmReadMBps, fig("43.15", 43.15)},
					{"dd", r.DDWriteMBps, fig("6.6", 6.6)},
					{"rand read", r.Rand4kReadMBps, fig("7.14", 7.14)},
					{"rand write", r.Rand4kWriteMBps, fig("1.05", 1.05)},
				}
			},
		},
		{
			row: 30, source: "pidramble-microsd", board: "Raspberry Pi 4 Model B",
			class: "microsd", model: "Toshiba C10 U1 16GB", iface: "built-in microSD reader",
			checks: func(r Result) []check {
				return []check{
					{"dd", r.DDWriteMBps, fig("12.0", 12)},
					{"rand write", r.Rand4kWriteMBps, fig("0.22", 0.22)},
				}
			},
		},
		{
			// Non-numeric cells left empty, their words in the notes.
			row: 74, source: "pidramble-microsd", board: "Raspberry Pi 2 Model B",
			class: "microsd", model: "No-name (C4) 4GB", iface: "built-in microSD reader",
			checks: func(r Result) []check {
				return []check{
					{"capacity", r.CapacityGB, fig("4", 4)},
					{"hdparm", r.HdparmReadMBps, fig("13.37", 13.37)},
					{"dd", r.DDWriteMBps, Figure{}},
					{"rand read", r.Rand4kReadMBps, Figure{}},
					{"rand write", r.Rand4kWriteMBps, Figure{}},
				}
			},
			notesHas: "'Sad'",
		},
		{
			row: 76, source: "usbflash-align-2009", board: "x86 PC (2009)",
			class: "usb-flash", model: "Transcend 8GB usb flash stick", iface: "USB",
			checks: func(r Result) []check {
				return []check{
					{"hdparm", r.HdparmReadMBps, fig("33.94", 33.94)},
					{"dd", r.DDWriteMBps, fig("6.2", 6.2)},
				}
			},
			notesHas: "AFTER alignment",
		},
	}
	for _, tt := range tests {
		r := results[tt.row-1]
		if r.SourceID != tt.source || r.Board != tt.board || r.StorageClass != tt.class ||
			r.MakeModel != tt.model || r.Interface != tt.iface {
			t.Errorf("row %d: got %q / %q / %q / %q / %q, want %q / %q / %q / %q / %q", tt.row,
				r.SourceID, r.Board, r.StorageClass, r.MakeModel, r.Interface,
				tt.source, tt.board, tt.class, tt.model, tt.iface)
		}
		for _, c := range tt.checks(r) {
			if !sameFigure(c.got, c.want) {
				t.Errorf("row %d %s: got %s, want %s", tt.row, c.name, showFigure(c.got), showFigure(c.want))
			}
		}
		if !strings.Contains(r.Notes, tt.notesHas) {
			t.Errorf("row %d: notes %q do not contain %q", tt.row, r.Notes, tt.notesHas)
		}
	}
}

func sameFigure(a, b Figure) bool {
	if a.Printed != b.Printed || (a.Value == nil) != (b.Value == nil) {
		return false
	}
	return a.Value == nil || *a.Value == *b.Value
}

func showFigure(f Figure) string {
	if f.Value == nil {
		return "(none " + f.Printed + ")"
	}
	return f.Printed
}

func TestPrintedAndValueAgree(t *testing.T) {
	results, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, r := range results {
		for _, f := range []Figure{r.CapacityGB, r.HdparmReadMBps, r.DDWriteMBps, r.Rand4kReadMBps,
			r.Rand4kWriteMBps, r.Rand4kReadKBpsIozone, r.Rand4kWriteKBpsIozone,
			r.Seq4kReadKBpsIozone, r.Seq4kWriteKBpsIozone, r.Seq4kRewriteKBpsIozone} {
			if (f.Printed == "") != (f.Value == nil) {
				t.Errorf("row %d: printed %q but value %v", r.Row, f.Printed, f.Value)
			}
			if f.Value != nil && *f.Value < 0 {
				t.Errorf("row %d: negative figure %q", r.Row, f.Printed)
			}
		}
	}
}

func TestParseRejectsBadFiles(t *testing.T) {
	header := strings.Join(columns, ",") + "\n"
	row := func(cells ...string) string {
		base := []string{"pidramble-microsd", "microSD Card Benchmarks", "", "Raspberry Pi 4 Model B",
			"microsd", "X 8GB", "8", "", "1.0", "", "", "", "", "", "", "", "", ""}
		copy(base, cells)
		return strings.Join(base, ",") + "\n"
	}
	tests := []struct {
		name string
		csv  string
		want string
	}{
		{"renamed column", strings.Replace(header, "dd_write_mbps", "dd_mbps", 1), "column 10"},
		{"short row", header + "a,b\n", "data row 1"},
		{"unknown source", header + row("nobody"), "unknown source_id"},
		{"unknown class", header + row("pidramble-microsd", "", "", "", "floppy"), "unknown storage_class"},
		{"words in a number", header + row("pidramble-microsd", "", "", "", "microsd", "X", "8", "", "Sad"), "not a plain decimal"},
		{"exponent", header + row("pidramble-microsd", "", "", "", "microsd", "X", "8", "", "1e3"), "not a plain decimal"},
		{"infinity", header + row("pidramble-microsd", "", "", "", "microsd", "X", "8", "", "inf"), "not a plain decimal"},
		{"empty label", header + row("pidramble-microsd", "", "", "", "microsd", ""), "empty make_model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(strings.NewReader(tt.csv))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("parse: err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
	if _, err := parse(strings.NewReader(header + row())); err != nil {
		t.Fatalf("a good row failed: %v", err)
	}
}
