package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/iomark/iomark/internal/store"
)

// addDBFlag adds --db to a command that reads or writes the local results database.
func addDBFlag(cmd *cobra.Command, dsn *string) { addDBFlagTo(cmd.Flags(), dsn) }

// addDBFlagTo adds --db to a flag set (a command's persistent flags: its subcommands' too).
func addDBFlagTo(fs *pflag.FlagSet, dsn *string) {
	fs.StringVar(dsn, "db", "", "results database: sqlite:PATH, a file path, or postgres://… (default: the XDG data dir, iomark/results.db)")
}

// openStore opens the results database named by dsn, or the default one.
func openStore(ctx context.Context, dsn string) (*store.Store, error) {
	return openStoreWith(ctx, dsn, store.Options{})
}

// openStoreWith is openStore with bounds on connections and caches (a server's).
func openStoreWith(ctx context.Context, dsn string, o store.Options) (*store.Store, error) {
	if dsn == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("finding the results database: %w — give --db PATH", err)
		}
		dsn = p
	}
	st, err := store.OpenWith(ctx, dsn, o)
	if err != nil {
		return nil, fmt.Errorf("opening the results database: %w", err)
	}
	return st, nil
}
