package refdata

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// published-results.csv is the source, edited by hand; the binary embeds it gzipped (32 KB
// instead of 256 KB, for the 20 MiB budget: docs/decisions.md, "Binary size").
// TestEmbeddedCSVIsTheSource fails when the two differ.
//
//go:generate sh -c "gzip -9nc published-results.csv >published-results.csv.gz"
//go:embed published-results.csv.gz
var publishedGz []byte

var (
	csvOnce sync.Once
	csvData []byte
	csvErr  error
)

// publishedCSV is the embedded CSV, unpacked on first use.
func publishedCSV() ([]byte, error) {
	csvOnce.Do(func() {
		zr, err := gzip.NewReader(bytes.NewReader(publishedGz))
		if err != nil {
			csvErr = fmt.Errorf("refdata: the embedded published-results.csv.gz: %w", err)
			return
		}
		if csvData, err = io.ReadAll(zr); err != nil {
			csvErr = fmt.Errorf("refdata: the embedded published-results.csv.gz: %w", err)
		}
	})
	return csvData, csvErr
}

// Figure is one cell as its source printed it and as a number.
type Figure struct {
	Printed string   // exactly as in the CSV ("31.80", "12.0"); empty when the source has no number
	Value   *float64 // parsed Printed; nil when Printed is empty
}

// Result is one row of published-results.csv (SOURCES.md, "Columns and units", defines every
// column). Units are in the field names: MBps is MB/s as the source printed it (see
// IozoneUnitPrinted and IozoneKBDivisor for the iozone MB/s figures, and Notes for rows whose
// source printed no unit); KBpsIozone and Fio…KBps are bare kB/s numbers as the tools print
// them (KiB based); IOPS are operations per second.
type Result struct {
	Row int // 1-based data row in the CSV (the header is row 0)

	SourceID    string
	SourceTitle string // empty when the document has no title
	SourceDate  string // YYYY-MM-DD; empty when not stated (DateNote says why)
	SourceURL   string // where the figures are published
	DateNote    string // why SourceDate is empty; empty when it is set

	Board          string // canonical board name (Boards); BoardFamily groups it
	BoardPublished string // the board as the source words it; empty when it names none
	BoardImplied   bool   // the source does not name the board for these figures; Notes says why Board is what it is
	Overclocked    bool   // the source says the board or its storage bus ran overclocked
	StorageClass   string // one of StorageClasses(); DeviceClass maps it to iomark's classes
	MakeModel      string // the row label as printed
	CapacityGB     Figure
	Interface      string // as the document describes the connection; may be empty
	PCIeGen        string // "2" or "3" where the source states the PCIe generation
	SDBusMode      string // SD bus mode where the source states it (SDBusModes)
	PriceUSD       Figure // the drive's price where the source states one, in US dollars
	MeasuredBy     string // who ran the benchmark, as the source names them; empty when not named
	Method         string // the commands or tool as the source states them

	HdparmReadMBps             Figure // hdparm -t buffered sequential read
	HdparmDirectReadMBps       Figure // hdparm -t --direct (O_DIRECT disk reads), as PiBenchmarks runs it
	HdparmDirectCachedReadMBps Figure // hdparm -T --direct (O_DIRECT cached reads)
	DDWriteMBps                Figure // dd write result
	DDReadMBps                 Figure // dd read result

	Rand4kReadMBps  Figure // 4K random read (iozone where Method says so)
	Rand4kWriteMBps Figure

	IozoneRand1MReadMBps  Figure
	IozoneRand1MWriteMBps Figure
	IozoneSeq1MReadMBps   Figure
	IozoneSeq1MWriteMBps  Figure
	IozoneUnitPrinted     string // "MB/s" or "MiB/s" as printed beside the iozone MB/s figures; empty when none printed
	IozoneKBDivisor       string // "1024" where the source's script divides iozone's kB/s by 1024; empty when not stated

	FioSeq1MReadMBps  Figure
	FioSeq1MWriteMBps Figure

	Rand4kReadKBpsIozone   Figure
	Rand4kWriteKBpsIozone  Figure
	Seq4kReadKBpsIozone    Figure
	Seq4kWriteKBpsIozone   Figure
	Seq4kRewriteKBpsIozone Figure

	FioRand4kReadIOPS  Figure
	FioRand4kWriteIOPS Figure
	FioRand4kReadKBps  Figure
	FioRand4kWriteKBps Figure

	PiBenchmarksScore Figure // the score line of PiBenchmarks' Storage.sh, as printed

	// Raw iozone output at a 1 MiB record (the 2021-2023 disk-benchmark.sh printed it), in
	// iozone's kB/s as printed: write and rewrite are sequential, the others random.
	Seq1MWriteKBpsIozone   Figure
	Seq1MRewriteKBpsIozone Figure
	Rand1MReadKBpsIozone   Figure
	Rand1MWriteKBpsIozone  Figure

	// A maker's stated 4 KB random read / write IOPS (a product specification: the maker does
	// not state its tool or queue depth). Never a measurement of the source's own.
	MakerRand4kReadIOPS  Figure
	MakerRand4kWriteIOPS Figure

	Notes string // conditions, footnotes, non-numeric cells and every inference made
}

// column is one CSV column: its name and where it goes in a Result. Exactly one of text,
// flag or fig is set.
type column struct {
	name string
	text func(*Result) *string
	flag func(*Result) *bool
	fig  func(*Result) *Figure
}

func textCol(name string, f func(*Result) *string) column   { return column{name: name, text: f} }
func flagCol(name string, f func(*Result) *bool) column     { return column{name: name, flag: f} }
func figureCol(name string, f func(*Result) *Figure) column { return column{name: name, fig: f} }

// columns is the CSV header, in order; parse refuses a file whose header differs. The first 18
// are the original columns of shared/data/published-results.csv, the rest were added after.
var columns = []column{
	textCol("source_id", func(r *Result) *string { return &r.SourceID }),
	textCol("source_title", func(r *Result) *string { return &r.SourceTitle }),
	textCol("source_date", func(r *Result) *string { return &r.SourceDate }),
	textCol("board", func(r *Result) *string { return &r.Board }),
	textCol("storage_class", func(r *Result) *string { return &r.StorageClass }),
	textCol("make_model", func(r *Result) *string { return &r.MakeModel }),
	figureCol("capacity_gb", func(r *Result) *Figure { return &r.CapacityGB }),
	textCol("interface", func(r *Result) *string { return &r.Interface }),
	figureCol("hdparm_read_mbps", func(r *Result) *Figure { return &r.HdparmReadMBps }),
	figureCol("dd_write_mbps", func(r *Result) *Figure { return &r.DDWriteMBps }),
	figureCol("rand4k_read_mbps", func(r *Result) *Figure { return &r.Rand4kReadMBps }),
	figureCol("rand4k_write_mbps", func(r *Result) *Figure { return &r.Rand4kWriteMBps }),
	figureCol("rand4k_read_kbps_iozone", func(r *Result) *Figure { return &r.Rand4kReadKBpsIozone }),
	figureCol("rand4k_write_kbps_iozone", func(r *Result) *Figure { return &r.Rand4kWriteKBpsIozone }),
	figureCol("seq4k_read_kbps_iozone", func(r *Result) *Figure { return &r.Seq4kReadKBpsIozone }),
	figureCol("seq4k_write_kbps_iozone", func(r *Result) *Figure { return &r.Seq4kWriteKBpsIozone }),
	figureCol("seq4k_rewrite_kbps_iozone", func(r *Result) *Figure { return &r.Seq4kRewriteKBpsIozone }),
	textCol("notes", func(r *Result) *string { return &r.Notes }),
	textCol("source_url", func(r *Result) *string { return &r.SourceURL }),
	textCol("date_note", func(r *Result) *string { return &r.DateNote }),
	textCol("board_published", func(r *Result) *string { return &r.BoardPublished }),
	flagCol("board_implied", func(r *Result) *bool { return &r.BoardImplied }),
	flagCol("overclocked", func(r *Result) *bool { return &r.Overclocked }),
	textCol("measured_by", func(r *Result) *string { return &r.MeasuredBy }),
	textCol("method", func(r *Result) *string { return &r.Method }),
	textCol("pcie_gen", func(r *Result) *string { return &r.PCIeGen }),
	textCol("sd_bus_mode", func(r *Result) *string { return &r.SDBusMode }),
	figureCol("price_usd", func(r *Result) *Figure { return &r.PriceUSD }),
	textCol("iozone_unit_printed", func(r *Result) *string { return &r.IozoneUnitPrinted }),
	textCol("iozone_kb_divisor", func(r *Result) *string { return &r.IozoneKBDivisor }),
	figureCol("dd_read_mbps", func(r *Result) *Figure { return &r.DDReadMBps }),
	figureCol("hdparm_direct_read_mbps", func(r *Result) *Figure { return &r.HdparmDirectReadMBps }),
	figureCol("hdparm_direct_cached_read_mbps", func(r *Result) *Figure { return &r.HdparmDirectCachedReadMBps }),
	figureCol("fio_rand4k_read_iops", func(r *Result) *Figure { return &r.FioRand4kReadIOPS }),
	figureCol("fio_rand4k_write_iops", func(r *Result) *Figure { return &r.FioRand4kWriteIOPS }),
	figureCol("fio_rand4k_read_kbps", func(r *Result) *Figure { return &r.FioRand4kReadKBps }),
	figureCol("fio_rand4k_write_kbps", func(r *Result) *Figure { return &r.FioRand4kWriteKBps }),
	figureCol("pibenchmarks_score", func(r *Result) *Figure { return &r.PiBenchmarksScore }),
	figureCol("iozone_rand1m_read_mbps", func(r *Result) *Figure { return &r.IozoneRand1MReadMBps }),
	figureCol("iozone_rand1m_write_mbps", func(r *Result) *Figure { return &r.IozoneRand1MWriteMBps }),
	figureCol("iozone_seq1m_read_mbps", func(r *Result) *Figure { return &r.IozoneSeq1MReadMBps }),
	figureCol("iozone_seq1m_write_mbps", func(r *Result) *Figure { return &r.IozoneSeq1MWriteMBps }),
	figureCol("fio_seq1m_read_mbps", func(r *Result) *Figure { return &r.FioSeq1MReadMBps }),
	figureCol("fio_seq1m_write_mbps", func(r *Result) *Figure { return &r.FioSeq1MWriteMBps }),
	figureCol("seq1m_write_kbps_iozone", func(r *Result) *Figure { return &r.Seq1MWriteKBpsIozone }),
	figureCol("seq1m_rewrite_kbps_iozone", func(r *Result) *Figure { return &r.Seq1MRewriteKBpsIozone }),
	figureCol("rand1m_read_kbps_iozone", func(r *Result) *Figure { return &r.Rand1MReadKBpsIozone }),
	figureCol("rand1m_write_kbps_iozone", func(r *Result) *Figure { return &r.Rand1MWriteKBpsIozone }),
	figureCol("maker_rand4k_read_iops", func(r *Result) *Figure { return &r.MakerRand4kReadIOPS }),
	figureCol("maker_rand4k_write_iops", func(r *Result) *Figure { return &r.MakerRand4kWriteIOPS }),
}

// Columns returns the CSV header, in order.
func Columns() []string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = c.name
	}
	return out
}

// NamedFigure is one figure of a row with the CSV column that names its unit.
type NamedFigure struct {
	Column string
	Figure Figure
}

// Figures returns every figure the row's source printed, in column order, each with its
// column name (which carries the unit). Empty cells are left out.
func (r Result) Figures() []NamedFigure {
	var out []NamedFigure
	for _, c := range columns {
		if c.fig == nil {
			continue
		}
		if f := *c.fig(&r); f.Value != nil {
			out = append(out, NamedFigure{Column: c.name, Figure: f})
		}
	}
	return out
}

// FigureColumns lists the CSV columns that hold figures (numbers with a unit in their name),
// in column order: what a comparison with iomark's figures must account for.
func FigureColumns() []string {
	var out []string
	for _, c := range columns {
		if c.fig != nil {
			out = append(out, c.name)
		}
	}
	return out
}

// FigureIn returns the row's figure in the named column; ok is false when the column holds no
// figure (a text column, or no such column).
func (r Result) FigureIn(column string) (f Figure, ok bool) {
	for _, c := range columns {
		if c.name == column && c.fig != nil {
			return *c.fig(&r), true
		}
	}
	return Figure{}, false
}

// Load parses the embedded published results. It fails only if the embedded file is malformed,
// which the package tests rule out.
func Load() ([]Result, error) {
	data, err := publishedCSV()
	if err != nil {
		return nil, err
	}
	return parse(bytes.NewReader(data))
}

func parse(r io.Reader) ([]Result, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(columns)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("refdata: reading the header of published-results.csv: %w", err)
	}
	for i, c := range columns {
		if header[i] != c.name {
			return nil, fmt.Errorf("refdata: published-results.csv column %d is %q, want %q", i+1, header[i], c.name)
		}
	}
	var out []Result
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("refdata: published-results.csv data row %d: %w", row, err)
		}
		res, err := fromRecord(row, rec)
		if err != nil {
			return nil, fmt.Errorf("refdata: published-results.csv data row %d: %w", row, err)
		}
		out = append(out, res)
	}
}

func fromRecord(row int, rec []string) (Result, error) {
	res := Result{Row: row}
	for i, c := range columns {
		switch {
		case c.text != nil:
			*c.text(&res) = rec[i]
		case c.flag != nil:
			b, err := parseFlag(rec[i])
			if err != nil {
				return Result{}, fmt.Errorf("column %s: %w", c.name, err)
			}
			*c.flag(&res) = b
		default:
			fig, err := parseFigure(rec[i])
			if err != nil {
				return Result{}, fmt.Errorf("column %s: %w", c.name, err)
			}
			*c.fig(&res) = fig
		}
	}
	if err := res.check(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// check enforces what every row must have (SOURCES.md, "Rules every row keeps").
func (r Result) check() error {
	if _, ok := SourceByID(r.SourceID); !ok {
		return fmt.Errorf("unknown source_id %q (add it to sources.go and SOURCES.md)", r.SourceID)
	}
	if !knownStorageClass(r.StorageClass) {
		return fmt.Errorf("unknown storage_class %q", r.StorageClass)
	}
	if r.MakeModel == "" {
		return fmt.Errorf("empty make_model")
	}
	if r.SourceURL == "" {
		return fmt.Errorf("empty source_url: every row names where it is published")
	}
	if r.SourceDate == "" && r.DateNote == "" {
		return fmt.Errorf("empty source_date without a date_note saying why")
	}
	if r.SourceDate != "" && !isDate(r.SourceDate) {
		return fmt.Errorf("source_date %q is not YYYY-MM-DD", r.SourceDate)
	}
	if _, ok := BoardFamily(r.Board); !ok {
		return fmt.Errorf("board %q is not a canonical board (see boards.go)", r.Board)
	}
	if r.PCIeGen != "" && r.PCIeGen != "2" && r.PCIeGen != "3" {
		return fmt.Errorf("pcie_gen %q is neither 2 nor 3", r.PCIeGen)
	}
	if r.SDBusMode != "" && !oneOf(r.SDBusMode, sdBusModes) {
		return fmt.Errorf("sd_bus_mode %q is not one of %s", r.SDBusMode, strings.Join(sdBusModes, ", "))
	}
	if r.IozoneUnitPrinted != "" && r.IozoneUnitPrinted != "MB/s" && r.IozoneUnitPrinted != "MiB/s" {
		return fmt.Errorf("iozone_unit_printed %q is neither MB/s nor MiB/s", r.IozoneUnitPrinted)
	}
	if r.IozoneKBDivisor != "" && r.IozoneKBDivisor != "1024" {
		return fmt.Errorf("iozone_kb_divisor %q is not 1024", r.IozoneKBDivisor)
	}
	return nil
}

// sdBusModes are the SD/MMC bus modes a row may name, as the Linux kernel prints them.
var sdBusModes = []string{"DS", "HS", "SDR12", "SDR25", "SDR50", "SDR104", "DDR50", "HS200", "HS400"}

// SDBusModes returns the sd_bus_mode values a row may carry.
func SDBusModes() []string { return append([]string(nil), sdBusModes...) }

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func parseFlag(s string) (bool, error) {
	switch s {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, fmt.Errorf("%q is neither true, false nor empty", s)
}

// parseFigure keeps the printed text and parses it; only plain non-negative decimals occur in
// the sources, so anything else is an error rather than a guess. A source that groups
// thousands with commas ("12,132") is kept as printed: the commas must group exactly three
// digits, and the value is read without them.
func parseFigure(printed string) (Figure, error) {
	if printed == "" {
		return Figure{}, nil
	}
	if strings.TrimSpace(printed) != printed || strings.ContainsAny(printed, "eE+-_xX") {
		return Figure{}, fmt.Errorf("%q is not a plain decimal number", printed)
	}
	digits := printed
	if strings.Contains(printed, ",") {
		if !thousandsGrouped.MatchString(printed) {
			return Figure{}, fmt.Errorf("%q is not a plain decimal number (commas must group thousands)", printed)
		}
		digits = strings.ReplaceAll(printed, ",", "")
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Figure{}, fmt.Errorf("%q is not a plain decimal number", printed)
	}
	return Figure{Printed: printed, Value: &v}, nil
}

// thousandsGrouped is a number printed with comma thousands separators: "12,132", "1,234.5".
var thousandsGrouped = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?$`)

// DDWithoutSync reports whether the row's dd figures were taken without conv=fsync or a sync,
// so they include the page cache: Method says "no sync" for such rows (SOURCES.md).
func (r Result) DDWithoutSync() bool { return strings.Contains(r.Method, "no sync") }
