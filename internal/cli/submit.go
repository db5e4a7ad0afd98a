package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/upload"
)

func init() { subcommands = append(subcommands, newSubmitCmd) }

func newSubmitCmd() *cobra.Command {
	var db, serverURL string
	cmd := &cobra.Command{
		Use:   "submit [RUN] --server URL",
		Short: "Upload a saved run (default: the latest) to a results server and print its permalink",
		Long: `submit uploads one run to an iomark results server (iomark serve). RUN is what
iomark show takes: a run id from the local results database or any unique end or start of it (iomark
history lists them), "latest", or nothing for the latest run; or a file holding a record as
iomark run --json prints it. Serial numbers are in the record only as hashes; hostnames are
never sent. Uploading the same run again is harmless.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if serverURL == "" {
				return usageError("give the results server: --server https://…")
			}
			rec, err := readRun(cmd.Context(), db, firstArg(args))
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			_, link, err := upload.Submit(ctx, serverURL, rec)
			if err != nil {
				return withExit(exitFailure, err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), link)
			return nil
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", "", "results server URL, e.g. https://results.example")
	addDBFlag(cmd, &db)
	return cmd
}

// readRun returns a record as stored: the file RUN names, else the saved run RUN names as
// `iomark show` finds it (runstore.Find: its id or a unique end or start of it, as `iomark history`
// prints; "latest" or "" is the newest).
func readRun(ctx context.Context, dsn, run string) ([]byte, error) {
	if st, err := os.Stat(run); run != "" && err == nil && st.Mode().IsRegular() {
		b, err := os.ReadFile(run)
		if err != nil {
			return nil, withExit(exitFailure, err)
		}
		return b, nil
	}
	st, err := openStore(ctx, dsn)
	if err != nil {
		return nil, withExit(exitFailure, err)
	}
	defer st.Close()
	row, err := runstore.Find(ctx, st, run)
	if err != nil {
		return nil, withExit(exitFailure, fmt.Errorf("%w, or give a record file", err))
	}
	return row.Record, nil
}
