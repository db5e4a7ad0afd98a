package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

func init() { subcommands = append(subcommands, newSaveCmd) }

func newSaveCmd() *cobra.Command {
	var dsn string
	cmd := &cobra.Command{
		Use:   "save FILE...",
		Short: "Save result records (as iomark run --json prints them, or kept when a save failed) in the results database",
		Long: `save puts result records into the results database as iomark run would have: each FILE
holds one record, as iomark run --json prints it or as iomark keeps it in
$XDG_STATE_HOME/iomark/unsaved/ when saving a run failed. A record kept there is removed once
it is saved. Saving the same record again is harmless; another record under an id already
saved is refused.`,
		Example: `  iomark save ~/.local/state/iomark/unsaved/*.json`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			recs := make([]*record.Run, len(args))
			for i, path := range args {
				raw, err := os.ReadFile(path)
				if err != nil {
					return withExit(exitFailure, err)
				}
				if recs[i], err = record.Decode(raw); err != nil {
					return withExit(exitFailure, fmt.Errorf("%s: %w", path, err))
				}
			}
			return onStore(cmd, dsn, func(st *store.Store) error {
				dir, _ := unsavedDir()
				for i, rec := range recs {
					err := runstore.Save(cmd.Context(), st, rec, store.SourceLocal)
					switch {
					case errors.Is(err, store.ErrDuplicate):
						fmt.Fprintf(cmd.OutOrStdout(), "run %s was already saved in %s (`iomark show %s`)\n", rec.ID, st.Where(), runstore.ShortID(rec.ID))
					case err != nil:
						return withExit(exitFailure, fmt.Errorf("%s: %w", args[i], err))
					default:
						fmt.Fprintf(cmd.OutOrStdout(), "run %s saved in %s (`iomark show %s`)\n", rec.ID, st.Where(), runstore.ShortID(rec.ID))
					}
					if dir != "" && inDir(args[i], dir) {
						os.Remove(args[i])
					}
				}
				return nil
			})
		},
	}
	addDBFlag(cmd, &dsn)
	return cmd
}

// inDir reports whether the file path is directly in dir.
func inDir(path, dir string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	a, errA := filepath.EvalSymlinks(filepath.Dir(abs))
	b, errB := filepath.EvalSymlinks(dir)
	return errA == nil && errB == nil && a == b
}
