package refdata

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestLoadKeepsEveryRow(t *testing.T) {
	results := loadAll(t)
	if len(results) != 314 {
		t.Fatalf("Load returned %d rows, SOURCES.md says 314", len(results))
	}
	// Count lines independently of encoding/csv: no field of this file spans lines, so every
	// non-empty line after the header is one row.
	lines := 0
	for _, l := range bytes.Split(sourceCSV(t), []byte("\n"))[1:] {
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
	results := loadAll(t)
	got := map[string]int{}
	for _, r := range results {
		src, ok := SourceByID(r.SourceID)
		if !ok {
			t.Errorf("row %d: source %q is not in Sources()", r.Row, r.SourceID)
			continue
		}
		got[r.SourceID]++
		if r.SourceTitle != src.Title {
			t.Errorf("row %d: title %q differs from the source table's %q", r.Row, r.SourceTitle, src.Title)
		}
		// A source's rows may carry their own dates (one commit or comment each), but a
		// source that states a date never has an undated row.
		if src.Date != "" && r.SourceDate == "" {
			t.Errorf("row %d: no source_date although source %s is dated %s", r.Row, src.ID, src.Date)
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
	results := loadAll(t)
	tests := []struct {
		row      int // 1-based data row
		source   string
		board    string
		class    string
		model    string
		iface    string
		figures  map[string]string // CSV column: the figure as printed ("" for none)
		notesHas string
	}{
		{
			// First row: trailing zero kept ("31.80"), empty dd cell.
			row: 1, source: "geerling-2020-usb", board: "Raspberry Pi 4 Model B",
			class: "usb-ssd-nvme", model: "Inland Premium 256GB NVMe 3.0 x4 SSD", iface: "",
			figures:  map[string]string{"capacity_gb": "256", "hdparm_read_mbps": "308.46", "dd_write_mbps": "", "rand4k_read_mbps": "19.41", "rand4k_write_mbps": "31.80", "rand4k_read_kbps_iozone": ""},
			notesHas: "Rob Logan's results",
		},
		{
			// A quoted board with a comma; the iozone kB/s columns.
			row: 7, source: "chambers-storage-2019", board: "Raspberry Pi 4 Model B",
			class: "microsd", model: "EMTEC", iface: "microSD (reader not stated)",
			figures: map[string]string{"capacity_gb": "64", "hdparm_read_mbps": "", "dd_write_mbps": "8.4", "rand4k_read_kbps_iozone": "6422", "rand4k_write_kbps_iozone": "205", "seq4k_read_kbps_iozone": "7431", "seq4k_write_kbps_iozone": "209", "seq4k_rewrite_kbps_iozone": "204"},
		},
		{
			// Non-ASCII (″) in the label and the interface; no capacity stated.
			row: 15, source: "chambers-storage-2019", board: "Raspberry Pi 4 Model B",
			class: "usb-ssd-sata", model: "Crucial 2.5″ SATA SSD USB", iface: "2.5″ SATA to USB 3.0 adapter",
			figures: map[string]string{"capacity_gb": "", "dd_write_mbps": "35.1", "seq4k_rewrite_kbps_iozone": "11443"},
		},
		{
			// A quoted label with a comma; "12.0"-style printing of the pidramble tables.
			row: 22, source: "pidramble-microsd", board: "Raspberry Pi 4 Model B",
			class: "microsd", model: "NOOBS (1.4, C6) 8GB", iface: "built-in microSD reader",
			figures: map[string]string{"hdparm_read_mbps": "43.15", "dd_write_mbps": "6.6", "rand4k_read_mbps": "7.14", "rand4k_write_mbps": "1.05"},
		},
		{
			row: 30, source: "pidramble-microsd", board: "Raspberry Pi 4 Model B",
			class: "microsd", model: "Toshiba C10 U1 16GB", iface: "built-in microSD reader",
			figures: map[string]string{"dd_write_mbps": "12.0", "rand4k_write_mbps": "0.22"},
		},
		{
			// Non-numeric cells left empty, their words in the notes.
			row: 74, source: "pidramble-microsd", board: "Raspberry Pi 2 Model B",
			class: "microsd", model: "No-name (C4) 4GB", iface: "built-in microSD reader",
			figures:  map[string]string{"capacity_gb": "4", "hdparm_read_mbps": "13.37", "dd_write_mbps": "", "rand4k_read_mbps": "", "rand4k_write_mbps": ""},
			notesHas: "'Sad'",
		},
		{
			row: 76, source: "usbflash-align-2009", board: "PC (x86)",
			class: "usb-flash", model: "Transcend 8GB usb flash stick", iface: "USB",
			figures:  map[string]string{"hdparm_read_mbps": "33.94", "dd_write_mbps": "6.2"},
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
		for col, printed := range tt.figures {
			want := Figure{}
			if printed != "" {
				v, err := strconv.ParseFloat(printed, 64)
				if err != nil {
					t.Fatal(err)
				}
				want = fig(printed, v)
			}
			if got := figureOf(t, &r, col); !sameFigure(got, want) {
				t.Errorf("row %d %s: got %s, want %s", tt.row, col, showFigure(got), showFigure(want))
			}
		}
		if !strings.Contains(r.Notes, tt.notesHas) {
			t.Errorf("row %d: notes %q do not contain %q", tt.row, r.Notes, tt.notesHas)
		}
	}
}

// figureOf is the figure of one CSV column of r.
func figureOf(t *testing.T, r *Result, name string) Figure {
	t.Helper()
	for _, c := range columns {
		if c.name == name && c.fig != nil {
			return *c.fig(r)
		}
	}
	t.Fatalf("%s is not a figure column", name)
	return Figure{}
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
	results := loadAll(t)
	for _, r := range results {
		var figs []Figure
		for _, c := range columns {
			if c.fig != nil {
				figs = append(figs, *c.fig(&r))
			}
		}
		for _, f := range figs {
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
	header := strings.Join(Columns(), ",") + "\n"
	row := func(cells ...string) string {
		base := make([]string, len(columns))
		copy(base, []string{"pidramble-microsd", "microSD Card Benchmarks", "", "Raspberry Pi 4 Model B",
			"microsd", "X 8GB", "8", "", "1.0", "", "", "", "", "", "", "", "", "", "http://example.invalid/", "not stated"})
		copy(base, cells)
		return strings.Join(base, ",") + "\n"
	}
	withCol := func(name, value string) string {
		cells := strings.Split(strings.TrimSuffix(row(), "\n"), ",")
		for i, c := range columns {
			if c.name == name {
				cells[i] = value
			}
		}
		return header + strings.Join(cells, ",") + "\n"
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
		{"no url", withCol("source_url", ""), "empty source_url"},
		{"no date, no reason", withCol("date_note", ""), "without a date_note"},
		{"bad date", withCol("source_date", "2024-13-01"), "not YYYY-MM-DD"},
		{"alias as board", withCol("board", "Pi 5"), "not a canonical board"},
		{"bad flag", withCol("overclocked", "yes"), "neither true"},
		{"bad pcie gen", withCol("pcie_gen", "4"), "neither 2 nor 3"},
		{"bad bus mode", withCol("sd_bus_mode", "UHS-I"), "sd_bus_mode"},
		{"bad iozone unit", withCol("iozone_unit_printed", "kB/s"), "iozone_unit_printed"},
		{"bad divisor", withCol("iozone_kb_divisor", "1000"), "not 1024"},
		{"comma not grouping thousands", withCol("fio_rand4k_read_kbps", `"15,1985"`), "commas must group thousands"},
		{"leading comma", withCol("pibenchmarks_score", `",123"`), "commas must group thousands"},
		{"decimal comma", withCol("dd_write_mbps", `"1,5"`), "commas must group thousands"},
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
	// Thousands separators are kept as printed and read without the commas.
	got, err := parse(strings.NewReader(withCol("pibenchmarks_score", `"16,407"`)))
	if err != nil {
		t.Fatalf("a score printed with a thousands separator failed: %v", err)
	}
	if f := got[0].PiBenchmarksScore; f.Printed != "16,407" || f.Value == nil || *f.Value != 16407 {
		t.Errorf("score = %q (%v), want printed 16,407 and value 16407", f.Printed, f.Value)
	}
}

// rowCheck compares one row with its document: each check's name with {got, want}.
type rowCheck struct {
	row    int
	source string
	check  func(r Result) map[string][2]string
}

func checkRows(t *testing.T, tests []rowCheck) {
	t.Helper()
	results := loadAll(t)
	for _, tt := range tests {
		r, ok := sourceRow(t, results, tt.row, tt.source)
		if !ok {
			continue
		}
		checkGotWant(t, tt.row, tt.check(r))
	}
}

// TestSpotChecksNewColumns compares rows of the added sources with their documents (each
// figure was read again in the source named in the comment).
func TestSpotChecksNewColumns(t *testing.T) {
	checkRows(t, []rowCheck{
		// ricsanfre/pi-storage-benchmark output/SDCard/output_benchmark_1.txt: Storage.sh summary
		// and the raw iozone table's rewrite column.
		{77, "ricsanfre-pi-storage-2021", func(r Result) map[string][2]string {
			return map[string][2]string{
				"hdparm direct": {r.HdparmDirectReadMBps.Printed, "41.90"}, "cached": {r.HdparmDirectCachedReadMBps.Printed, "39.00"},
				"dd": {r.DDWriteMBps.Printed, "19.3"}, "fio read iops": {r.FioRand4kReadIOPS.Printed, "2742"},
				"fio write kbps": {r.FioRand4kWriteKBps.Printed, "3859"}, "iozone rewrite": {r.Seq4kRewriteKBpsIozone.Printed, "2288"},
				"score": {r.PiBenchmarksScore.Printed, "1151"}, "published board": {r.BoardPublished, "Raspberry Pi 4 Model B Rev 1.2"},
				"date": {r.SourceDate, "2021-07-27"}, "buffered hdparm": {r.HdparmReadMBps.Printed, ""},
			}
		}},
		// yacy doc/sd_card_speed.md: first card, Pi 3B+ stock then overclocked.
		{92, "yacy-sd-card-speed", func(r Result) map[string][2]string {
			return map[string][2]string{"dd write": {r.DDWriteMBps.Printed, "22.5"}, "dd read": {r.DDReadMBps.Printed, "23.4"},
				"board": {r.Board, "Raspberry Pi 3 Model B+"}, "overclocked": {fmt.Sprint(r.Overclocked), "false"}}
		}},
		{93, "yacy-sd-card-speed", func(r Result) map[string][2]string {
			return map[string][2]string{"dd write": {r.DDWriteMBps.Printed, "26.5"}, "dd read": {r.DDReadMBps.Printed, "38.3"},
				"overclocked": {fmt.Sprint(r.Overclocked), "true"}}
		}},
		// pipci pinedrive page: Pi 5 at PCIe Gen 3, disk-benchmark.sh's table, a stated price.
		{108, "pipci-pinedrive-2242-nvme-ssd", func(r Result) map[string][2]string {
			return map[string][2]string{"gen": {r.PCIeGen, "3"}, "4k read": {r.Rand4kReadMBps.Printed, "61.08"},
				"1M rand write": {r.IozoneRand1MWriteMBps.Printed, "746.80"}, "1M seq write": {r.IozoneSeq1MWriteMBps.Printed, "727.14"},
				"unit": {r.IozoneUnitPrinted, "MB/s"}, "divisor": {r.IozoneKBDivisor, "1024"}, "price": {r.PriceUSD.Printed, "50"},
				"class": {r.StorageClass, "nvme"}}
		}},
		// raspberry-pi-pcie-devices#664: the same SSD at PCIe Gen 2.
		{114, "pcie-devices-664", func(r Result) map[string][2]string {
			return map[string][2]string{"gen": {r.PCIeGen, "2"}, "1M seq read": {r.IozoneSeq1MReadMBps.Printed, "442.15"},
				"implied": {fmt.Sprint(r.BoardImplied), "true"}, "by": {r.MeasuredBy, "ghostdevv"}}
		}},
		// Pineboards docs#16: a PiBenchmarks summary at PCIe Gen 2.
		{119, "pineboards-docs-16", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "419.38"}, "fio write": {r.FioRand4kWriteIOPS.Printed, "86779"},
				"iozone rand write": {r.Rand4kWriteKBpsIozone.Printed, "156207"}, "score": {r.PiBenchmarksScore.Printed, "37325"}}
		}},
	})
}

func TestFiguresListsEveryPrintedFigure(t *testing.T) {
	results := loadAll(t)
	got := map[string]string{}
	for _, f := range results[118].Figures() { // row 119
		got[f.Column] = f.Figure.Printed
	}
	want := map[string]string{"capacity_gb": "256", "dd_write_mbps": "316", "rand4k_read_kbps_iozone": "57282",
		"rand4k_write_kbps_iozone": "156207", "seq4k_read_kbps_iozone": "182437", "seq4k_write_kbps_iozone": "143118",
		"hdparm_direct_read_mbps": "419.38", "hdparm_direct_cached_read_mbps": "412.53", "fio_rand4k_read_iops": "106113",
		"fio_rand4k_write_iops": "86779", "fio_rand4k_read_kbps": "424455", "fio_rand4k_write_kbps": "347118",
		"pibenchmarks_score": "37325"}
	if len(got) != len(want) {
		t.Errorf("Figures returned %d figures, want %d: %v", len(got), len(want), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Figures %s = %q, want %q", k, got[k], v)
		}
	}
}

// TestSpotChecksContinued compares the rows of the second round of sources with their
// documents; each expected figure was read again in the document named in the comment.
func TestSpotChecksContinued(t *testing.T) {
	checkRows(t, []rowCheck{
		// pxpunx/raspberry-pi compute-blade/cm4/nvme/wd_sn520_256.md: the PiBenchmarks table, then
		// the raw disk-benchmark.sh output (fio "READ: bw=397MiB/s (416MB/s)", iozone rows
		// "102400 1024 379827 388069 372117 383582" and "102400 4 57643 93344 39096 89859").
		{165, "pxpunx-compute-blade-cm4", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmDirectReadMBps.Printed, "360.64"}, "fio read iops": {r.FioRand4kReadIOPS.Printed, "41626"},
				"iozone rand write": {r.Rand4kWriteKBpsIozone.Printed, "81949"}, "score": {r.PiBenchmarksScore.Printed, "15194"},
				"board": {r.Board, "Raspberry Pi Compute Module 4"}, "gen": {r.PCIeGen, "2"}, "date": {r.SourceDate, "2023-03-05"}}
		}},
		{166, "pxpunx-compute-blade-cm4", func(r Result) map[string][2]string {
			return map[string][2]string{"fio": {r.FioSeq1MReadMBps.Printed, "416"}, "1M write": {r.Seq1MWriteKBpsIozone.Printed, "379827"},
				"1M rewrite": {r.Seq1MRewriteKBpsIozone.Printed, "388069"}, "1M rand read": {r.Rand1MReadKBpsIozone.Printed, "372117"},
				"1M rand write": {r.Rand1MWriteKBpsIozone.Printed, "383582"}, "4k write": {r.Seq4kWriteKBpsIozone.Printed, "57643"},
				"4k rewrite": {r.Seq4kRewriteKBpsIozone.Printed, "93344"}, "4k rand read": {r.Rand4kReadKBpsIozone.Printed, "39096"},
				"4k rand write": {r.Rand4kWriteKBpsIozone.Printed, "89859"}, "no score": {r.PiBenchmarksScore.Printed, ""}}
		}},
		// teamgroup_mp33_256.md prints thousands separators, and "15,1985 KB/s" (left empty).
		{151, "pxpunx-compute-blade-cm4", func(r Result) map[string][2]string {
			return map[string][2]string{"score": {r.PiBenchmarksScore.Printed, "14,386"}, "fio read iops": {r.FioRand4kReadIOPS.Printed, "37,996"},
				"bad cell": {r.FioRand4kReadKBps.Printed, ""}, "noted": {fmt.Sprint(strings.Contains(r.Notes, "'15,1985 KB/s'")), "true"}}
		}},
		// xerxes-pi/cm4/nvme/intel_optane_m10_32.md: the disk-benchmark.sh table.
		{171, "pxpunx-xerxes-pi-cm4", func(r Result) map[string][2]string {
			return map[string][2]string{"4k read": {r.Rand4kReadMBps.Printed, "124.06"}, "1M seq write": {r.IozoneSeq1MWriteMBps.Printed, "323.23"},
				"divisor": {r.IozoneKBDivisor, "1024"}}
		}},
		{172, "pxpunx-xerxes-pi-cm4", func(r Result) map[string][2]string {
			return map[string][2]string{"score": {r.PiBenchmarksScore.Printed, "26352"}, "no dd": {r.DDWriteMBps.Printed, ""}}
		}},
		// Pineboards nvme-compatibility-list.md: "|Lexar NM620|444 MB/s|849.2 MB/s|44,542|".
		{220, "pineboards-nvme-compatibility", func(r Result) map[string][2]string {
			return map[string][2]string{"dd": {r.DDWriteMBps.Printed, "444"}, "hdparm": {r.HdparmDirectReadMBps.Printed, "849.2"},
				"score": {r.PiBenchmarksScore.Printed, "44,542"}, "implied": {fmt.Sprint(r.BoardImplied), "true"}, "board": {r.Board, "Raspberry Pi 5"}}
		}},
		// compute_blade_pcie3.mdx: "| 2.0 x 1 | 2.4 GHz | 910 MHz | [40,799](…100326/) |".
		{226, "compute-blade-cm5-pcie3", func(r Result) map[string][2]string {
			return map[string][2]string{"score": {r.PiBenchmarksScore.Printed, "40,799"}, "gen": {r.PCIeGen, "2"},
				"board": {r.Board, "Raspberry Pi Compute Module 5"}, "overclocked": {fmt.Sprint(r.Overclocked), "false"}}
		}},
		// sd-cards/about.adoc: "5,000 IOPS on Raspberry Pi 5 (SDR104)", "2,000 IOPS on Raspberry Pi 5 (SDR104)".
		{231, "rpi-docs-sd-cards", func(r Result) map[string][2]string {
			return map[string][2]string{"read": {r.MakerRand4kReadIOPS.Printed, "5,000"}, "write": {r.MakerRand4kWriteIOPS.Printed, "2,000"},
				"mode": {r.SDBusMode, "SDR104"}, "board": {r.Board, "Raspberry Pi 5"}}
		}},
		// turing-pi-cluster#11: "| Pi 4 Kingston USB 3.0 SSD w/ UASP | 20.59 MB/sec | 28.54 MB/sec |".
		{240, "turing-pi-cluster-11", func(r Result) map[string][2]string {
			return map[string][2]string{"read": {r.Rand4kReadMBps.Printed, "20.59"}, "write": {r.Rand4kWriteMBps.Printed, "28.54"},
				"class": {r.StorageClass, "usb-ssd"}, "board": {r.Board, "Raspberry Pi 4 Model B"}}
		}},
		// jeffgeerling.com P550 post: "| iozone 1M sequential write | 616.79 MB/s | 798.01 MB/s |", x1 then x4.
		{243, "geerling-2025-p550", func(r Result) map[string][2]string {
			return map[string][2]string{"1M seq write": {r.IozoneSeq1MWriteMBps.Printed, "616.79"}, "4k read": {r.Rand4kReadMBps.Printed, "45.00"},
				"gen": {r.PCIeGen, ""}, "board": {r.Board, "SiFive HiFive Premier P550"}}
		}},
		{244, "geerling-2025-p550", func(r Result) map[string][2]string {
			return map[string][2]string{"1M seq write": {r.IozoneSeq1MWriteMBps.Printed, "798.01"}, "gen": {r.PCIeGen, "3"}}
		}},
		// TheRemote/PiBenchmarks#34: "Timing buffered disk reads: 1090 MB in  3.01 seconds = 362.52 MB/sec".
		{242, "pibenchmarks-34", func(r Result) map[string][2]string {
			return map[string][2]string{"hdparm": {r.HdparmReadMBps.Printed, "362.52"}, "class": {r.StorageClass, "usb-ssd"}, "board": {r.Board, "Raspberry Pi 5"}}
		}},
	})
}

// TestFigureColumns: FigureColumns names exactly the columns Figures reads, and FigureIn finds
// each of them (and nothing for a text column).
func TestFigureColumns(t *testing.T) {
	rows, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	cols := FigureColumns()
	if len(cols) < 20 || cols[0] != "capacity_gb" {
		t.Fatalf("figure columns %v", cols)
	}
	isFig := map[string]bool{}
	for _, c := range cols {
		isFig[c] = true
	}
	for _, r := range rows {
		for _, nf := range r.Figures() {
			got, ok := r.FigureIn(nf.Column)
			if !isFig[nf.Column] || !ok || got.Printed != nf.Figure.Printed {
				t.Fatalf("row %d column %s: FigureIn %v %v, in FigureColumns %v", r.Row, nf.Column, got, ok, isFig[nf.Column])
			}
		}
	}
	if _, ok := rows[0].FigureIn("make_model"); ok {
		t.Error("FigureIn found a figure in a text column")
	}
}
