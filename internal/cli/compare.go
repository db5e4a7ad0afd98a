package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runstore"
)

func init() { subcommands = append(subcommands, newCompareCmd) }

func newCompareCmd() *cobra.Command {
	var dsn string
	var markdown bool
	cmd := &cobra.Command{
		Use:   "compare [RUN]",
		Short: "Rank a run against your earlier runs of the same drive and against published results",
		Long: `Rank a saved run (default: the latest) against your earlier runs of the same drive
(same device key) and against the published results shipped with iomark for the same
board and drive class: rank and ratio of each figure. Published figures measured another
way (hdparm, dd, iozone) are compared in their own units, with the difference noted.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), dsn)
			if err != nil {
				return withExit(exitFailure, err)
			}
			defer st.Close()
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
			return withExit(exitFailure, report.Compare(cmd.OutOrStdout(), run, earlier, published, report.CompareOptions{Markdown: markdown}))
		},
	}
	addDBFlag(cmd, &dsn)
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print Markdown")
	return cmd
}
