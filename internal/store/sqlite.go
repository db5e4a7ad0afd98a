package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // also the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteBusyTimeoutMS is how long a writer waits for another (a second iomark, or the server's
// other connections) before giving up.
const sqliteBusyTimeoutMS = 10000

// sqliteCacheKiB is each connection's page cache, at most (it fills as pages are read, so a
// small database uses little).
const sqliteCacheKiB = 32 << 10

func openSQLite(ctx context.Context, path string, cacheKiB int64) (*Store, error) {
	if path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("store: %q: give the path of a database file (in-memory and URI databases are not supported)", path)
	}
	if strings.ContainsAny(path, "?#") {
		// The driver reads everything after '?' as its own parameters.
		return nil, fmt.Errorf("store: %q: a database path must not contain '?' or '#'; rename the file or its directory", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %q: %w", path, err)
	}
	dir := filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("store: cannot create the results database %s: directory %s does not exist; create it, or leave the database unset to use the default", abs, dir)
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(sqliteBusyTimeoutMS))
	q.Set("_foreign_keys", "1")
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL") // a committed run survives power loss, not only a crash
	q.Set("_txlock", "immediate") // writers queue on the busy timeout instead of deadlocking
	// 32 MiB of pages per connection instead of 2 MiB: a server's database grows to gigabytes,
	// and every index page not kept is a read system call on the next save or search.
	q.Set("_pragma", fmt.Sprintf("cache_size(%d)", cacheKiB*-1))
	db, err := sql.Open("sqlite", abs+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", abs, err)
	}
	s := &Store{db: db, dialect: sqliteDialect, where: abs}
	if err := s.retryBusy(ctx, s.checkSQLite); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// retryBusy runs f again while SQLite answers "database is locked" without waiting: a new
// connection's journal-mode switch needs the file to itself and is not covered by the busy
// timeout, so a process opening the database while another migrates it can meet that.
func (s *Store) retryBusy(ctx context.Context, f func(context.Context) error) error {
	deadline := time.Now().Add(sqliteBusyTimeoutMS * time.Millisecond)
	for {
		err := f(ctx)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// checkSQLite reads the file once so that a file that is not a database fails here, with a
// message that says so, and confirms the connection settings took effect.
func (s *Store) checkSQLite(ctx context.Context) error {
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		if free, ok := freeBytes(filepath.Dir(s.where)); ok && free < minFreeBytes {
			// SQLite needs room for its shared-memory and WAL files before it reads a page; on
			// a full disk it says only "disk I/O error".
			return fmt.Errorf("%w: %s has %d bytes free, and SQLite needs room beside %s to open it: free some space or give another database (%v)",
				ErrFull, filepath.Dir(s.where), free, s.where, err)
		}
		return fmt.Errorf("store: opening %s: %w; is it an iomark results database?", s.where, err)
	}
	var fk int
	if err := s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return s.wrapErr("opening", err)
	}
	if fk != 1 {
		return fmt.Errorf("store: opening %s: foreign keys are off", s.where)
	}
	// WAL needs shared memory that some network and FUSE filesystems lack; SQLite then keeps
	// its rollback journal, which is just as safe, only slower with concurrent readers.
	return nil
}
