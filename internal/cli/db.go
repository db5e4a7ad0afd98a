package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/iomark/iomark/internal/store"
)

// envDB names the results database when --db is not given, so that a PostgreSQL URL with its
// password need not be typed on a command line (where ps and shell history keep it).
const envDB = "IOMARK_DB"

// addDBFlag adds --db to a command that reads or writes the local results database.
func addDBFlag(cmd *cobra.Command, dsn *string) { addDBFlagTo(cmd.Flags(), dsn) }

// addDBFlagTo adds --db to a flag set (a command's persistent flags: its subcommands' too).
func addDBFlagTo(fs *pflag.FlagSet, dsn *string) {
	fs.StringVar(dsn, "db", "", "results database: sqlite:PATH, a file path, postgres://… or host=… dbname=… (default: $"+envDB+
		", else the XDG data dir, iomark/results.db); a PostgreSQL password can come from PGPASSWORD or ~/.pgpass instead")
}

// namedDB is the database the user named: --db, else $IOMARK_DB; "" for the default file.
func namedDB(dsn string) string {
	if dsn != "" {
		return dsn
	}
	return os.Getenv(envDB)
}

// openStore opens the results database named by dsn, or the default one.
func openStore(ctx context.Context, dsn string) (*store.Store, error) {
	return openStoreWith(ctx, dsn, store.Options{})
}

// onStore opens the results database dsn names for a command, runs do on it and closes it;
// a database that cannot be opened ends the command with exitFailure.
func onStore(cmd *cobra.Command, dsn string, do func(st *store.Store) error) error {
	st, err := openStore(cmd.Context(), dsn)
	if err != nil {
		return withExit(exitFailure, err)
	}
	defer st.Close()
	return do(st)
}

// existingStore opens the results database dsn names, or the default one when its file
// exists; nil, nil when there is none. What only reads the database (a drive's latest verify)
// never creates one.
func existingStore(dsn string) func(context.Context) (*store.Store, error) {
	return func(ctx context.Context) (*store.Store, error) {
		if namedDB(dsn) == "" {
			p, err := store.DefaultPath()
			if err != nil {
				return nil, nil
			}
			if _, err := os.Stat(p); err != nil {
				return nil, nil
			}
		}
		return openStore(ctx, dsn)
	}
}

// openStoreWith is openStore with bounds on connections and caches (a server's).
func openStoreWith(ctx context.Context, dsn string, o store.Options) (*store.Store, error) {
	dsn = namedDB(dsn)
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
