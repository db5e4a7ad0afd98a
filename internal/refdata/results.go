package refdata

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

//go:embed published-results.csv
var publishedCSV []byte

// Figure is one cell as its source printed it and as a number.
type Figure struct {
	Printed string   // exactly as in the CSV ("31.80", "12.0"); empty when the source has no number
	Value   *float64 // parsed Printed; nil when Printed is empty
}

// Result is one row of published-results.csv. Units are in the field names: MBps is MB/s as
// the source printed it (see Notes for rows whose source printed no unit), KBpsIozone is the
// bare number of a table read as iozone kB/s (SOURCES.md, chambers-storage-2019).
type Result struct {
	Row int // 1-based data row in the CSV (the header is row 0)

	SourceID    string
	SourceTitle string // empty when the document has no title
	SourceDate  string // YYYY-MM-DD as printed; empty when not stated

	Board        string // test machine, normalised as SOURCES.md explains per source
	StorageClass string // one of StorageClasses()
	MakeModel    string // the row label as printed
	CapacityGB   Figure
	Interface    string // as the document describes the connection; may be empty

	HdparmReadMBps  Figure // hdparm -t buffered sequential read
	DDWriteMBps     Figure // dd result
	Rand4kReadMBps  Figure
	Rand4kWriteMBps Figure

	Rand4kReadKBpsIozone   Figure
	Rand4kWriteKBpsIozone  Figure
	Seq4kReadKBpsIozone    Figure
	Seq4kWriteKBpsIozone   Figure
	Seq4kRewriteKBpsIozone Figure

	Notes string // conditions, footnotes, non-numeric cells and every inference made
}

// columns is the CSV header, in order; Load refuses a file whose header differs.
var columns = []string{
	"source_id", "source_title", "source_date", "board", "storage_class", "make_model",
	"capacity_gb", "interface", "hdparm_read_mbps", "dd_write_mbps", "rand4k_read_mbps",
	"rand4k_write_mbps", "rand4k_read_kbps_iozone", "rand4k_write_kbps_iozone",
	"seq4k_read_kbps_iozone", "seq4k_write_kbps_iozone", "seq4k_rewrite_kbps_iozone", "notes",
}

// Load parses the embedded published results. It fails only if the embedded file is malformed,
// which the package tests rule out.
func Load() ([]Result, error) {
	return parse(bytes.NewReader(publishedCSV))
}

func parse(r io.Reader) ([]Result, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(columns)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("refdata: reading the header of published-results.csv: %w", err)
	}
	for i, name := range columns {
		if header[i] != name {
			return nil, fmt.Errorf("refdata: published-results.csv column %d is %q, want %q", i+1, header[i], name)
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
	res := Result{
		Row:          row,
		SourceID:     rec[0],
		SourceTitle:  rec[1],
		SourceDate:   rec[2],
		Board:        rec[3],
		StorageClass: rec[4],
		MakeModel:    rec[5],
		Interface:    rec[7],
		Notes:        rec[17],
	}
	if _, ok := SourceByID(res.SourceID); !ok {
		return Result{}, fmt.Errorf("unknown source_id %q (add it to sources.go and SOURCES.md)", res.SourceID)
	}
	if !knownStorageClass(res.StorageClass) {
		return Result{}, fmt.Errorf("unknown storage_class %q", res.StorageClass)
	}
	if res.MakeModel == "" {
		return Result{}, fmt.Errorf("empty make_model")
	}
	figures := []struct {
		col int
		dst *Figure
	}{
		{6, &res.CapacityGB},
		{8, &res.HdparmReadMBps},
		{9, &res.DDWriteMBps},
		{10, &res.Rand4kReadMBps},
		{11, &res.Rand4kWriteMBps},
		{12, &res.Rand4kReadKBpsIozone},
		{13, &res.Rand4kWriteKBpsIozone},
		{14, &res.Seq4kReadKBpsIozone},
		{15, &res.Seq4kWriteKBpsIozone},
		{16, &res.Seq4kRewriteKBpsIozone},
	}
	for _, f := range figures {
		fig, err := parseFigure(rec[f.col])
		if err != nil {
			return Result{}, fmt.Errorf("column %s: %w", columns[f.col], err)
		}
		*f.dst = fig
	}
	return res, nil
}

// parseFigure keeps the printed text and parses it; only plain non-negative decimals occur in
// the sources, so anything else is an error rather than a guess.
func parseFigure(printed string) (Figure, error) {
	if printed == "" {
		return Figure{}, nil
	}
	if strings.TrimSpace(printed) != printed || strings.ContainsAny(printed, "eE+-_xX") {
		return Figure{}, fmt.Errorf("%q is not a plain decimal number", printed)
	}
	v, err := strconv.ParseFloat(printed, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Figure{}, fmt.Errorf("%q is not a plain decimal number", printed)
	}
	return Figure{Printed: printed, Value: &v}, nil
}
