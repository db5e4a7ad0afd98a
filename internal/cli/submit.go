package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/upload"
)

func init() { subcommands = append(subcommands, newSubmitCmd) }

func newSubmitCmd() *cobra.Command {
	var db, serverURL, deleteID, token string
	var allowInterrupted bool
	cmd := &cobra.Command{
		Use:   "submit [RUN] --server URL | submit --delete ID --server URL",
		Short: "Upload a saved run (default: the newest complete run) to a results server and print its permalink",
		Long: `submit uploads one run to an iomark results server (iomark serve). RUN is what
iomark show takes: a run id from the local results database or any unique end or start of it (iomark
history lists them), "latest", or nothing for the newest complete run; or a file holding a record as
iomark run --json prints it. "latest" and no RUN take the newest complete run: an
interrupted run is only uploaded when named (iomark submit RUN --allow-interrupted). Serial
numbers are in the record only as hashes; hostnames are never sent (docs/result-record.md,
"What is published"). Uploading the same run again is harmless.

The server answers a new upload with a deletion token, which only the uploader receives: it is
kept in the local results database (--db) beside the run. iomark submit --delete ID takes that
result off the server (every page, list and ranking) with the kept token, or with --token.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if serverURL == "" {
				return usageError("give the results server: --server https://…")
			}
			if deleteID != "" {
				if len(args) > 0 {
					return usageError("--delete takes the result id alone, not a RUN")
				}
				return deleteSubmitted(cmd, db, serverURL, deleteID, token)
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
			a, err := upload.Send(ctx, serverURL, rec)
			if err != nil {
				return withExit(exitFailure, err)
			}
			keepToken(cmd, db, serverURL, rec, a)
			fmt.Fprintln(cmd.OutOrStdout(), a.URL)
			return nil
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", "", "results server URL, e.g. https://results.example")
	cmd.Flags().StringVar(&deleteID, "delete", "", "delete result ID from the server (with the deletion token kept when it was submitted)")
	cmd.Flags().StringVar(&token, "token", "", "with --delete: the deletion token, when it is not kept in this database")
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
	if err == nil && meansLatest(run) {
		passedOver(ctx, stderr, st, row.ID)
	}
	if err != nil {
		return nil, withExit(exitFailure, fmt.Errorf("%w, or give a record file", err))
	}
	return row.Record, nil
}

// keepToken keeps a new upload's deletion token in the local database; when that fails the token
// is printed, so the user can keep it.
func keepToken(cmd *cobra.Command, dsn, serverURL string, rec []byte, a upload.Answer) {
	if a.DeleteToken == "" {
		return
	}
	stderr := cmd.ErrOrStderr()
	runID := a.ID
	if r, err := record.Decode(rec); err == nil {
		runID = r.ID
	}
	err := func() error {
		st, err := openStore(cmd.Context(), dsn)
		if err != nil {
			return err
		}
		defer st.Close()
		return st.SaveSubmission(cmd.Context(), store.Submission{Server: upload.ServerKey(serverURL), ResultID: a.ID, RunID: runID,
			DeleteToken: a.DeleteToken, URL: a.URL, SubmittedAt: time.Now()})
	}()
	if err != nil {
		fmt.Fprintf(stderr, "iomark: the deletion token could not be kept (%v); keep it yourself to delete the result later: %s\n", err, a.DeleteToken)
		return
	}
	fmt.Fprintf(stderr, "iomark: deletion token kept; `iomark submit --delete %s --server %s` takes the result back\n", a.ID, upload.ServerKey(serverURL))
}

// deleteSubmitted deletes result id from the server with the given or kept token.
func deleteSubmitted(cmd *cobra.Command, dsn, serverURL, id, token string) error {
	ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Minute)
	defer cancel()
	if token == "" {
		st, err := openStore(ctx, dsn)
		if err != nil {
			return withExit(exitFailure, err)
		}
		sub, err := st.FindSubmission(ctx, upload.ServerKey(serverURL), id)
		st.Close()
		if err != nil {
			return withExit(exitFailure, fmt.Errorf("%w; give the token the upload was answered with: --token TOKEN", err))
		}
		token = sub.DeleteToken
	}
	if err := upload.Delete(ctx, serverURL, id, token); err != nil {
		return withExit(exitFailure, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "deleted %s from %s\n", id, upload.ServerKey(serverURL))
	return nil
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
