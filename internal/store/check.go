package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// CheckWrite makes sure a save can succeed before the work that produces it starts: the
// SQLite file's directory takes a new file and has needBytes free (a full disk is ErrFull);
// a PostgreSQL role may insert runs on a server that is not a read-only standby (the free
// space of a server's disk cannot be seen from here).
func (s *Store) CheckWrite(ctx context.Context, needBytes int64) error {
	if s.dialect == postgresDialect {
		var canInsert, standby bool
		err := s.db.QueryRowContext(ctx, `SELECT has_table_privilege('runs', 'INSERT') AND has_table_privilege('tests', 'INSERT'), pg_is_in_recovery()`).Scan(&canInsert, &standby)
		switch {
		case err != nil:
			return s.wrapErr("checking that runs can be saved in", err)
		case standby:
			return fmt.Errorf("store: %s is a read-only standby: give the primary server", s.where)
		case !canInsert:
			return fmt.Errorf("store: the role of %s may not insert into its runs table: grant it INSERT, or give another database", s.where)
		}
		return nil
	}
	dir := filepath.Dir(s.where)
	probe, err := os.CreateTemp(dir, ".iomark-check-*")
	if err != nil {
		return fmt.Errorf("store: cannot write beside the results database %s: %w — give a writable --db", s.where, markFull(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	free, ok := freeBytes(dir)
	if !ok {
		return fmt.Errorf("store: cannot tell the free space of %s", dir)
	}
	if free < needBytes {
		return fmt.Errorf("%w: %s has %d bytes free and a run needs up to %d to be saved in %s: free some space or give another --db",
			ErrFull, dir, free, needBytes, s.where)
	}
	return nil
}

// minFreeBytes is less than SQLite needs to open a database in WAL mode (its -shm file takes
// 32 KiB at once).
const minFreeBytes = 64 << 10

// freeBytes is the space an unprivileged user may still write on the filesystem holding dir.
func freeBytes(dir string) (int64, bool) {
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil {
		return 0, false
	}
	return int64(fs.Bavail) * int64(fs.Bsize), true
}
