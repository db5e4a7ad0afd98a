package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newExportCmd) }

func newExportCmd() *cobra.Command {
	var dsn, format, outPath, chart string
	cmd := &cobra.Command{
		Use:   "export [RUN]",
		Short: "Export a saved run as json, csv, md, html, png, svg or sbc-reviews (the block to paste into an sbc-reviews issue)",
		Long: `Export a saved run (default: the newest complete run). Charts (png, svg, and inside html) set the
run's figures beside comparable published results; --chart sustained draws the
sustained-write curve with temperatures.

RUN may also be a saved verify's id (as iomark verify prints it): png and svg then draw its
speed by position (a full verify's surface, a fill's rates) with bad and slow stretches
marked, and json gives its result.`,
		Example: `  iomark export --format md
  iomark export 3f9a1c2d4e5f --format png --out card.png
  iomark export 98f055d41aee --format svg --out surface.svg   # a verify's surface`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ex, err := report.ByName(format)
			if err != nil {
				return usageError("--format %q: %v (one of %s)", format, err, strings.Join(report.Formats(), ", "))
			}
			binary := ex.Ext() == "png"
			if binary && outPath == "" && isTerminal(cmd.OutOrStdout()) {
				return usageError("a PNG on a terminal is unreadable: give --out FILE")
			}
			return onStore(cmd, dsn, func(st *store.Store) error {
				if ref := strings.TrimSpace(firstArg(args)); ref != "" && ref != "latest" {
					if vs, err := st.VerifiesByID(cmd.Context(), ref); err != nil {
						return withExit(exitFailure, err)
					} else if len(vs) == 1 {
						return withExit(exitFailure, exportVerify(cmd.OutOrStdout(), outPath, ex, vs[0]))
					}
				}
				run, err := loadShown(cmd, st, firstArg(args))
				if err != nil {
					return err
				}
				published, err := refdata.Load()
				if err != nil {
					return withExit(exitFailure, fmt.Errorf("reading the published results: %w", err))
				}
				return withExit(exitFailure, exportTo(cmd.OutOrStdout(), outPath, ex, run, report.Options{Chart: report.Chart(chart), Published: published}))
			})
		},
	}
	addDBFlag(cmd, &dsn)
	cmd.Flags().StringVar(&format, "format", "md", "json, csv, md, html, png, svg or sbc-reviews")
	cmd.Flags().StringVarP(&outPath, "out", "o", "", "write to this file instead of stdout")
	cmd.Flags().StringVar(&chart, "chart", "", "chart for png/svg: bars (figures against published drives) or sustained (default: sustained when the run has one)")
	return cmd
}

// exportTo writes one run to path (atomically) or to w.
func exportTo(w io.Writer, path string, ex report.Exporter, run *record.Run, opts report.Options) error {
	return exportWrite(w, path, "run "+run.ID+" as "+ex.Name(), func(w io.Writer) error {
		return ex.Export(w, []*record.Run{run}, opts)
	})
}

// exportWrite writes what write writes to w, or to path when path is not empty: atomically,
// so that a failed export leaves no half file. what names the export in its error.
func exportWrite(w io.Writer, path, what string, write func(io.Writer) error) error {
	if path == "" {
		return write(w)
	}
	return writeAtomic(path, ".iomark-export-*", write, "exporting "+what, "writing "+path)
}

// writeAtomic writes path (mode 0644) with write through a temporary file in its directory,
// named after pattern and renamed into place once complete, so that a failed write leaves no
// half file. An error of write is wrapped in writing, one of the file in filing.
func writeAtomic(path, pattern string, write func(io.Writer) error, writing, filing string) error {
	tmp, err := os.CreateTemp(dirOf(path), pattern)
	if err != nil {
		return fmt.Errorf("%s: %w", filing, err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", writing, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", filing, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", filing, err)
	}
	return os.Chmod(path, 0o644)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i+1]
	}
	return "."
}

// exportVerify writes a saved verify: its chart (png, svg) or its result (json).
func exportVerify(w io.Writer, path string, ex report.Exporter, v store.Verify) error {
	var res flash.Result
	if err := json.Unmarshal(v.Result, &res); err != nil {
		return fmt.Errorf("verify %s: its saved result does not parse: %w", v.ID, err)
	}
	var write func(io.Writer) error
	switch ex.Name() {
	case "png", "svg":
		write = func(w io.Writer) error { return report.VerifyChart(w, &res, v.Target, ex.Name()) }
	case "json":
		write = func(w io.Writer) error { return printJSON(w, &res) }
	default:
		return fmt.Errorf("%s is a verify: it exports as png, svg or json, not %s", v.ID, ex.Name())
	}
	return exportWrite(w, path, "verify "+v.ID+" as "+ex.Name(), write)
}
