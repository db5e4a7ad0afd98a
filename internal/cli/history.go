package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newHistoryCmd) }

func newHistoryCmd() *cobra.Command {
	var dsn, device string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List the runs saved in the local results database, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := openStore(cmd.Context(), dsn)
			if err != nil {
				return withExit(exitFailure, err)
			}
			defer st.Close()
			runs, err := st.ListRuns(cmd.Context(), store.Filter{Limit: limit, DeviceKey: device})
			if err != nil {
				return withExit(exitFailure, fmt.Errorf("reading the results database: %w", err))
			}
			out := cmd.OutOrStdout()
			if asJSON {
				type row struct {
					ID, CreatedAt, Profile, DeviceKey, DeviceClass, Vendor, Model, Board string
					ScoreIomark, ScorePibenchmarks                                       *float64
				}
				rows := make([]row, 0, len(runs))
				for _, r := range runs {
					rows = append(rows, row{r.ID, r.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), r.Profile, r.DeviceKey,
						r.DeviceClass, r.Vendor, r.Model, r.Board, r.ScoreIomark, r.ScorePibenchmarks})
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			if len(runs) == 0 {
				fmt.Fprintln(out, "no runs saved yet: `iomark run` measures the current directory and saves the result")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RUN\tDATE\tPROFILE\tDEVICE\tBOARD\tSCORE")
			for _, r := range runs {
				dev := joinNonEmpty(r.DeviceClass, r.Vendor, r.Model)
				score := "-"
				if r.ScorePibenchmarks != nil {
					score = fmt.Sprintf("%.0f (pibenchmarks)", *r.ScorePibenchmarks)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", runstore.ShortID(r.ID), r.CreatedAt.Local().Format("2006-01-02 15:04"),
					r.Profile, orDash(dev), orDash(r.Board), score)
			}
			return tw.Flush()
		},
	}
	addDBFlag(cmd, &dsn)
	cmd.Flags().IntVar(&limit, "limit", 20, "show at most this many runs")
	cmd.Flags().StringVar(&device, "device", "", "only runs of this device key (see `iomark show`)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func joinNonEmpty(parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += " "
		}
		out += p
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
