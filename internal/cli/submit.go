package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/server"
	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newSubmitCmd) }

func newSubmitCmd() *cobra.Command {
	var db, serverURL string
	cmd := &cobra.Command{
		Use:   "submit RUN --server URL",
		Short: "Upload a saved run to a results server and print its permalink",
		Long: `submit uploads one run to an iomark results server (iomark serve): RUN is a run id from
the local results database (iomark history lists them) or a file holding a record as
iomark run --json prints it. Serial numbers are in the record only as hashes; hostnames are
never sent. Uploading the same run again is harmless.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if serverURL == "" {
				return usageError("give the results server: --server https://…")
			}
			rec, err := readRun(cmd.Context(), db, args[0])
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			_, link, err := server.Submit(ctx, serverURL, rec)
			if err != nil {
				return withExit(exitFailure, err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), link)
			return nil
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", "", "results server URL, e.g. https://results.example")
	cmd.Flags().StringVar(&db, "db", "", "results database holding RUN: sqlite:PATH or postgres://… (default: the local one)")
	return cmd
}

// readRun returns the record of a stored run, or of a file when RUN names one.
func readRun(ctx context.Context, db, run string) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if st, err := os.Stat(run); err == nil && st.Mode().IsRegular() {
		b, err := os.ReadFile(run)
		if err != nil {
			return nil, withExit(exitFailure, err)
		}
		return b, nil
	}
	if db == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, withExit(exitFailure, err)
		}
		db = "sqlite:" + p
	}
	s, err := store.Open(ctx, db)
	if err != nil {
		return nil, withExit(exitFailure, err)
	}
	defer s.Close()
	r, _, err := s.GetRun(ctx, run)
	if errors.Is(err, store.ErrNotFound) {
		return nil, withExit(exitFailure, fmt.Errorf("no saved run %q in %s; `iomark history` lists them, or give a record file", run, db))
	}
	if err != nil {
		return nil, withExit(exitFailure, err)
	}
	return r.Record, nil
}
