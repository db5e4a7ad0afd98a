package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/report"
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
			return onStore(cmd, dsn, func(st *store.Store) error {
				// With records: the price is only in the record (price per performance needs its tests).
				runs, err := st.ListRuns(cmd.Context(), store.Filter{Limit: limit, DeviceKey: device, WithRecord: true})
				if err != nil {
					return withExit(exitFailure, fmt.Errorf("reading the results database: %w", err))
				}
				if asJSON {
					return printHistoryJSON(cmd.OutOrStdout(), runs)
				}
				return printHistory(cmd.OutOrStdout(), runs)
			})
		},
	}
	addDBFlag(cmd, &dsn)
	cmd.Flags().IntVar(&limit, "limit", 20, "show at most this many runs")
	cmd.Flags().StringVar(&device, "device", "", "only runs of this device key (see `iomark show`)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// printHistoryJSON prints the runs as history --json does: one object a run, with its price
// per performance when the record has a price.
func printHistoryJSON(out io.Writer, runs []store.Run) error {
	type row struct {
		ID, CreatedAt, Profile, DeviceKey, DeviceClass, Vendor, Model, Board string
		ScoreIomark, ScorePibenchmarks                                       *float64
		Interrupted                                                          bool     `json:",omitempty"`
		PriceUSD, USDPerMBPerS, USDPerIOPS                                   *float64 `json:",omitempty"`
	}
	rows := make([]row, 0, len(runs))
	for _, r := range runs {
		jr := row{ID: r.ID, CreatedAt: r.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), Profile: r.Profile,
			DeviceKey: r.DeviceKey, DeviceClass: r.DeviceClass, Vendor: r.Vendor, Model: r.Model, Board: r.Board,
			ScoreIomark: r.ScoreIomark, ScorePibenchmarks: r.ScorePibenchmarks, Interrupted: runstore.Interrupted(r.Record)}
		if rec, err := record.Decode(r.Record); err == nil {
			if p, ok := compare.PriceOf(rec); ok {
				jr.PriceUSD = &p.PriceUSD
				if p.SeqRead != nil {
					jr.USDPerMBPerS = &p.USDPerMBPerS
				}
				if p.RandRead != nil {
					jr.USDPerIOPS = &p.USDPerIOPS
				}
			}
		}
		rows = append(rows, jr)
	}
	return printJSON(out, rows)
}

// printHistory prints the runs as a table, newest first.
func printHistory(out io.Writer, runs []store.Run) error {
	if len(runs) == 0 {
		fmt.Fprintln(out, "no runs saved yet: `iomark run` measures the current directory and saves the result")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tDATE\tPROFILE\tDEVICE\tBOARD\tSCORE\tPRICE")
	anyInterrupted := false
	for _, r := range runs {
		profile := r.Profile
		if runstore.Interrupted(r.Record) {
			profile += " (interrupted)"
			anyInterrupted = true
		}
		dev := joinNonEmpty(r.DeviceClass, r.Vendor, r.Model)
		price := "-"
		if rec, err := record.Decode(r.Record); err == nil {
			price = report.PriceCell(rec)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", runstore.ShortID(r.ID), r.CreatedAt.Local().Format("2006-01-02 15:04"),
			profile, orDash(dev), orDash(r.Board), historyScore(r), price)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if anyInterrupted {
		fmt.Fprintln(out, "An interrupted run is kept with what it measured; \"latest\" and a bare submit, compare or export pass over it.")
	}
	return nil
}

// historyScore is the run's own score, named: a quick run's iomark score, a pibenchmarks run's
// PiBenchmarks score; "-" for a profile that has none.
func historyScore(r store.Run) string {
	var out []string
	if r.ScoreIomark != nil {
		out = append(out, fmt.Sprintf("%.0f (iomark)", *r.ScoreIomark))
	}
	if r.ScorePibenchmarks != nil {
		out = append(out, fmt.Sprintf("%.0f (pibenchmarks)", *r.ScorePibenchmarks))
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ", ")
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
