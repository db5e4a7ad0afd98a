package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newModerateCmd) }

// moderate works on a results server's database directly (no accounts, no API): the operator
// runs it on the server's machine, with the --db that `iomark serve` uses. A running server sees
// the change within a second (store.ModerationEpoch).
func newModerateCmd() *cobra.Command {
	var dsn string
	cmd := &cobra.Command{
		Use:   "moderate",
		Short: "List the results a results server doubts or hid, and hide, unhide or approve one by id",
		Long: `moderate works on the database of iomark serve (give the same --db). A result the server
doubts (figures above what its drive's class and link can carry, figures that contradict each
other, an impossible date) is stored but not listed: no list, count, median, ranking or sort order
includes it. hide takes any result out the same way; approve lists a doubted one anyway; unhide
returns a result to the server's own verdict. A running server notices within a second.`,
	}

	subs := []*cobra.Command{newModerateFlaggedCmd(&dsn),
		newModerateSetCmd(&dsn, "hide", "Take a result out of every list, ranking and page (its pages answer 410)", store.ModerationHidden, "hidden"),
		newModerateSetCmd(&dsn, "unhide", "Return a result to the server's own verdict (listed unless doubted)", store.ModerationAuto, "back to the server's verdict"),
		newModerateSetCmd(&dsn, "approve", "List a result the server doubts anyway", store.ModerationApproved, "approved")}
	// The same --db as iomark serve's, given to moderate or after any of its subcommands.
	addDBFlagTo(cmd.PersistentFlags(), &dsn)
	for _, sub := range subs {
		cmd.AddCommand(sub)
	}
	return cmd
}

// newModerateFlaggedCmd is moderate flagged, on the database *dsn names.
func newModerateFlaggedCmd(dsn *string) *cobra.Command {
	var asJSON bool
	var limit int
	cmd := &cobra.Command{
		Use:   "flagged",
		Short: "List the doubted, hidden and approved results, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return onStore(cmd, *dsn, func(st *store.Store) error {
				runs, err := st.Moderated(cmd.Context(), limit, 0)
				if err != nil {
					return withExit(exitFailure, fmt.Errorf("reading the results database: %w", err))
				}
				ids := make([]string, len(runs))
				for i, r := range runs {
					ids[i] = r.ID
				}
				deleted, err := st.DeletedAt(cmd.Context(), ids)
				if err != nil {
					return withExit(exitFailure, fmt.Errorf("reading the results database: %w", err))
				}
				if asJSON {
					return printModeratedJSON(cmd.OutOrStdout(), runs, deleted)
				}
				return printModerated(cmd.OutOrStdout(), runs, deleted)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.Flags().IntVar(&limit, "limit", store.MaxLimit, "list at most this many")
	return cmd
}

// newModerateSetCmd is a moderate subcommand that sets one result's moderation (hide,
// unhide, approve) on the database *dsn names; done says what it did.
func newModerateSetCmd(dsn *string, use, short, moderation, done string) *cobra.Command {
	return &cobra.Command{
		Use:   use + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onStore(cmd, *dsn, func(st *store.Store) error {
				r, err := st.SetModeration(cmd.Context(), args[0], moderation)
				if errors.Is(err, store.ErrNotFound) {
					return withExit(exitFailure, fmt.Errorf("no result has id %q in this database: `iomark moderate flagged` lists the doubted ones, the result's page shows its id", args[0]))
				}
				if err != nil {
					return withExit(exitFailure, fmt.Errorf("moderating %s: %w", args[0], err))
				}
				listed := "it is listed"
				if !r.Listed {
					listed = "it is not listed"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %s\n", args[0], done, listed)
				return nil
			})
		},
	}
}

// printModeratedJSON prints moderate flagged --json: one object a result, with when its
// uploader deleted it, if they did.
func printModeratedJSON(out io.Writer, runs []store.Run, deleted map[string]time.Time) error {
	type row struct {
		ID         string          `json:"id"`
		CreatedAt  string          `json:"created_at"`
		Board      string          `json:"board"`
		Drive      string          `json:"drive"`
		Listed     bool            `json:"listed"`
		Moderation string          `json:"moderation"`
		Flags      json.RawMessage `json:"flags"`
		// DeletedAt: when its uploader deleted it (then hidden); absent otherwise.
		DeletedAt string `json:"deleted_at,omitempty"`
	}
	rows := make([]row, 0, len(runs))
	for _, r := range runs {
		flags := r.Flags
		if len(flags) == 0 {
			flags = json.RawMessage("[]")
		}
		var at string
		if d, ok := deleted[r.ID]; ok {
			at = d.Format("2006-01-02T15:04:05Z")
		}
		rows = append(rows, row{r.ID, r.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), r.Board,
			joinNonEmpty(r.DeviceClass, r.Vendor, r.Model), r.Listed, r.Moderation, flags, at})
	}
	return printJSON(out, rows)
}

// printModerated prints the doubted, hidden and approved results as a table.
func printModerated(out io.Writer, runs []store.Run, deleted map[string]time.Time) error {
	if len(runs) == 0 {
		fmt.Fprintln(out, "no result is doubted, hidden or approved")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RESULT\tDATE\tSTATE\tDRIVE\tBOARD\tWHY")
	for _, r := range runs {
		state := "not listed"
		switch {
		case r.Moderation == store.ModerationHidden && !deleted[r.ID].IsZero():
			state = "deleted by its uploader " + deleted[r.ID].Format("2006-01-02")
		case r.Moderation == store.ModerationHidden:
			state = "hidden"
		case r.Moderation == store.ModerationApproved:
			state = "approved"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.CreatedAt.UTC().Format("2006-01-02"), state,
			joinNonEmpty(r.DeviceClass, r.Vendor, r.Model), r.Board, flagSummary(r.Flags))
	}
	return tw.Flush()
}

// flagSummary names a stored run's flags in one line.
func flagSummary(raw json.RawMessage) string {
	var flags []struct {
		ID   string `json:"id"`
		Test string `json:"test"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &flags) != nil {
		return "-"
	}
	out := ""
	for i, f := range flags {
		if i > 0 {
			out += ", "
		}
		out += f.ID
		if f.Test != "" {
			out += " (" + f.Test + ")"
		}
	}
	return out
}
