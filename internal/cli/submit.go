package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/upload"
)

func init() { subcommands = append(subcommands, newSubmitCmd) }

func newSubmitCmd() *cobra.Command {
	var db, serverURL string
	var allowInterrupted bool
	cmd := &cobra.Command{
		Use:   "submit [RUN] --server URL",
		Short: "Upload a saved run (default: the latest) to a results server and print its permalink",
		Long: `submit uploads one run to an iomark results server (iomark serve). RUN is what
iomark show takes: a run id from the local results database or any unique end or start of it (iomark
history lists them), "latest", or nothing for the latest run; or a file holding a record as
iomark run --json prints it. "latest" and no RUN take the newest complete run: an
interrupted run is only uploaded when named (iomark submit RUN --allow-interrupted). Serial
numbers are in the record only as hashes; hostnames are never sent. Uploading the same run
again is harmless.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if serverURL == "" {
				return usageError("give the results server: --server https://…")
			}
			rec, err := readRun(cmd.Context(), db, firstArg(args), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if runstore.Interrupted(rec) && !allowInterrupted {
				return withExit(exitFailure, fmt.Errorf("run %s was interrupted: its figures miss tests or were cut short, so it is not uploaded; "+
					"to upload it anyway: `iomark submit %s --server %s --allow-interrupted`", firstArg(args), firstArg(args), serverURL))
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
	cmd.Flags().BoolVar(&allowInterrupted, "allow-interrupted", false, "upload RUN even though it was interrupted (the site marks it so)")
	addDBFlag(cmd, &db)
	return cmd
}

// readRun returns a record as stored: the file RUN names, else the saved run RUN names as
// `iomark show` finds it (runstore.Find: its id or a unique end or start of it, as `iomark history`
// prints; "latest" or "" is the newest complete run, and stderr says which newer interrupted
// runs it passed over).
func readRun(ctx context.Context, dsn, run string, stderr io.Writer) ([]byte, error) {
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
	if ref := strings.TrimSpace(strings.ToLower(run)); err == nil && (ref == "" || ref == "latest") {
		passedOver(ctx, stderr, st, row.ID)
	}
	if err != nil {
		return nil, withExit(exitFailure, fmt.Errorf("%w, or give a record file", err))
	}
	return row.Record, nil
}

// passedOver tells the user which interrupted runs, newer than the run "latest" took, were
// passed over, and how to take one of them.
func passedOver(ctx context.Context, w io.Writer, st *store.Store, took string) {
	_, skipped, err := runstore.Latest(ctx, st)
	if err != nil || len(skipped) == 0 {
		return
	}
	ids := make([]string, len(skipped))
	for i, r := range skipped {
		ids[i] = runstore.ShortID(r.ID)
	}
	fmt.Fprintf(w, "iomark: taking run %s, the newest complete run; newer, interrupted: %s (name one to take it)\n",
		runstore.ShortID(took), strings.Join(ids, ", "))
}
