package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newCompareCmd) }

func newCompareCmd() *cobra.Command {
	var dsn string
	var markdown bool
	cmd := &cobra.Command{
		Use:   "compare [RUN]",
		Short: "Say where a run stands among published results and your runs of the same board, class and link setting, and rank it against your earlier runs",
		Long: `Say where a saved run (default: the newest complete run) stands: each headline figure's percentile
among the published results shipped with iomark and your other saved runs of the same board
family, drive class and link setting, measured the same way, and among the same drive model
(docs/compare.md); then rank and ratio against your earlier runs of the same drive and, column
by column, against the published figures (hdparm, dd, iozone, compared in their own units,
with the difference noted).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onStore(cmd, dsn, func(st *store.Store) error {
				run, err := runstore.Load(cmd.Context(), st, firstArg(args))
				if err != nil {
					return withExit(exitFailure, err)
				}
				earlier, err := runstore.Earlier(cmd.Context(), st, run)
				if err != nil {
					return withExit(exitFailure, err)
				}
				published, err := refdata.Load()
				if err != nil {
					return withExit(exitFailure, fmt.Errorf("reading the published results: %w", err))
				}
				history, err := runstore.Recent(cmd.Context(), st, store.MaxLimit)
				if err != nil {
					return withExit(exitFailure, err)
				}
				return withExit(exitFailure, report.Compare(cmd.OutOrStdout(), run, earlier, published, report.CompareOptions{Markdown: markdown, History: history}))
			})
		},
	}
	addDBFlag(cmd, &dsn)
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print Markdown")
	return cmd
}
