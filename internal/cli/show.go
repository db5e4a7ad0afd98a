package cli

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newShowCmd) }

func newShowCmd() *cobra.Command {
	var dsn string
	var asJSON, latency, fio bool
	cmd := &cobra.Command{
		Use:   "show [RUN]",
		Short: "Show a saved run (default: the newest complete run)",
		Long:  "Show a saved run: RUN is its id, any unique end of it as `iomark history` prints, or a unique start; without RUN or with \"latest\", the newest complete run (an interrupted one is shown when named).",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onStore(cmd, dsn, func(st *store.Store) error {
				run, err := loadShown(cmd, st, firstArg(args))
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if asJSON {
					return printJSON(out, run)
				}
				if fio {
					return report.Fio(out, run)
				}
				return report.Terminal(out, run, report.TermOptions{Color: isTerminal(out), Latency: latency})
			})
		},
	}
	addDBFlag(cmd, &dsn)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result record as JSON")
	cmd.Flags().BoolVar(&latency, "latency", false, "show latency percentiles of every test")
	cmd.Flags().BoolVar(&fio, "fio", false, "print the fio command line equivalent to each test, to run from the benchmarked directory")
	cmd.MarkFlagsMutuallyExclusive("json", "fio")
	return cmd
}

// loadShown is the saved run ref names, as show and export take it (runstore.Load); when
// ref asks for the newest complete run, stderr names the newer interrupted runs passed over.
func loadShown(cmd *cobra.Command, st *store.Store, ref string) (*record.Run, error) {
	run, err := runstore.Load(cmd.Context(), st, ref)
	if err != nil {
		return nil, withExit(exitFailure, err)
	}
	if meansLatest(ref) {
		passedOver(cmd.Context(), cmd.ErrOrStderr(), st, run.ID)
	}
	return run, nil
}

// meansLatest reports whether a RUN argument asks for the newest complete run: none, or
// "latest".
func meansLatest(ref string) bool {
	ref = strings.TrimSpace(strings.ToLower(ref))
	return ref == "" || ref == "latest"
}

func firstArg(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}

// printJSON writes v to w as indented JSON, as every --json of iomark prints.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// isTerminal reports whether w is a terminal (for colour and live progress).
func isTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
