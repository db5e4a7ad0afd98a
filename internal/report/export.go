package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// Exporter writes result records in one format (`iomark export --format NAME`).
type Exporter interface {
	Name() string // the --format value: json, csv, md, html, png, svg, sbc-reviews
	Ext() string  // file extension without the dot
	Export(w io.Writer, runs []*record.Run, opts Options) error
}

// Chart picks what the png and svg exports draw (and which charts html inlines first).
type Chart string

// Charts.
const (
	// ChartAuto draws the sustained-write line when the run has a sustained test, else bars.
	ChartAuto Chart = ""
	// ChartBars draws each figure of the run beside comparable published drives.
	ChartBars Chart = "bars"
	// ChartSustained draws MB/s over the sustained write with SoC and drive temperature.
	ChartSustained Chart = "sustained"
)

// Options tune an export. The zero value is valid: no published comparison, automatic chart.
type Options struct {
	Chart Chart
	// Published are the reference results charts and Markdown compare against; the CLI
	// passes refdata.Load(). Only rows comparable with the run are used (published.go).
	Published []refdata.Result
}

var exporters = []Exporter{
	format{"json", "json", false, writeJSON},
	format{"csv", "csv", false, writeCSV},
	format{"md", "md", false, writeMarkdownReport},
	format{"html", "html", false, writeHTML},
	format{"png", "png", true, writePNG},
	format{"svg", "svg", true, writeSVG},
	format{"sbc-reviews", "md", false, writeSBCReviews},
}

// format is one export format: Export refuses an empty or (for a chart) a multi-run export
// before the format's writer runs.
type format struct {
	name, ext string
	oneRun    bool // the format draws a single run
	write     func(w io.Writer, runs []*record.Run, opts Options) error
}

func (f format) Name() string { return f.name }
func (f format) Ext() string  { return f.ext }

func (f format) Export(w io.Writer, runs []*record.Run, opts Options) error {
	check := needRuns
	if f.oneRun {
		check = needOneRun
	}
	if err := check(f.name, runs); err != nil {
		return err
	}
	return f.write(w, runs, opts)
}

// Formats lists the export formats, in the order --help shows them.
func Formats() []string {
	out := make([]string, len(exporters))
	for i, e := range exporters {
		out[i] = e.Name()
	}
	return out
}

// ByName returns the exporter for a --format value (case-insensitive; "markdown" is md).
func ByName(format string) (Exporter, error) {
	f := strings.ToLower(strings.TrimSpace(format))
	if f == "markdown" {
		f = "md"
	}
	for _, e := range exporters {
		if e.Name() == f {
			return e, nil
		}
	}
	names := Formats()
	sort.Strings(names)
	return nil, fmt.Errorf("unknown export format %q: use one of %s", format, strings.Join(names, ", "))
}

// needRuns refuses an empty export, and nil records, with an error the user can act on.
func needRuns(format string, runs []*record.Run) error {
	if len(runs) == 0 {
		return fmt.Errorf("%s export: no run to export (see `iomark history` for run ids)", format)
	}
	for i, r := range runs {
		if r == nil {
			return fmt.Errorf("%s export: run %d of %d is missing", format, i+1, len(runs))
		}
	}
	return nil
}

// needOneRun is for formats that draw a single run (charts).
func needOneRun(format string, runs []*record.Run) error {
	if err := needRuns(format, runs); err != nil {
		return err
	}
	if len(runs) > 1 {
		return fmt.Errorf("%s export draws one run, got %d: export each run separately", format, len(runs))
	}
	return nil
}
