package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// dialect is the database behind a Store.
type dialect int

const (
	sqliteDialect dialect = iota
	postgresDialect
)

func (d dialect) String() string {
	if d == postgresDialect {
		return "postgres"
	}
	return "sqlite"
}

// maxIdleConns is how many connections a Store keeps open between uses.
const maxIdleConns = 16

// Store is an open results database. It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	dialect dialect
	where   string // the database as a user would name it, for messages (no password)

	sizes sizes // counts query plans use (aggregate.go)
	idle  int   // idle connections kept (Ping drops them when the database stopped answering)
}

// Options bound what an open Store holds. The zero value keeps database/sql's unbounded
// connections and SQLite's default page cache per connection (sqliteCacheKiB).
type Options struct {
	// MaxConns caps the open connections (0: no cap). Callers beyond it wait for one. A
	// server sets it: every SQLite connection keeps its own page cache in this process, and
	// every PostgreSQL connection is a backend process.
	MaxConns int
	// CacheBytes is SQLite's page cache per connection (0: sqliteCacheKiB). PostgreSQL
	// ignores it (its cache is the server's shared_buffers).
	CacheBytes int64
}

// Open opens (creating if needed) and migrates the results database dsn names:
//   - "postgres://…" or "postgresql://…": a PostgreSQL database (pgx URL syntax);
//   - "host=… dbname=… user=…": a PostgreSQL database (libpq key=value syntax);
//   - "sqlite:PATH" or a bare PATH: a SQLite file, created if missing (its directory must exist;
//     DefaultPath makes the default one).
func Open(ctx context.Context, dsn string) (*Store, error) {
	return OpenWith(ctx, dsn, Options{})
}

// OpenWith is Open with bounds on connections and caches.
func OpenWith(ctx context.Context, dsn string, o Options) (*Store, error) {
	s, err := openWith(ctx, dsn, o)
	// No message shows a password, whoever wrote it (pgx quotes parts of what it was given).
	return s, maskSecrets(err, dsn)
}

func openWith(ctx context.Context, dsn string, o Options) (*Store, error) {
	d, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if o.MaxConns < 0 || o.CacheBytes < 0 {
		return nil, fmt.Errorf("store: negative connection cap or cache size")
	}
	cacheKiB := int64(sqliteCacheKiB)
	if o.CacheBytes > 0 {
		cacheKiB = max(o.CacheBytes>>10, 64) // SQLite needs a few pages to work at all
	}
	var s *Store
	switch d {
	case postgresDialect:
		s, err = openPostgres(ctx, target)
	default:
		s, err = openSQLite(ctx, target, cacheKiB)
	}
	if err != nil {
		return nil, err
	}
	// database/sql keeps 2 idle connections by default: a server answering 8 requests at once
	// closed and reopened connections all the time, losing each one's SQLite page cache, or
	// starting a PostgreSQL backend process per request.
	idle := maxIdleConns
	if o.MaxConns > 0 {
		s.db.SetMaxOpenConns(o.MaxConns)
		idle = min(idle, o.MaxConns)
	}
	s.db.SetMaxIdleConns(idle)
	s.idle = idle
	s.db.SetConnMaxIdleTime(5 * time.Minute)
	if _, err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	return s.db.Close()
}

// parseDSN tells the back end and its target (a file path, or the PostgreSQL URL as given).
func parseDSN(dsn string) (dialect, string, error) {
	switch {
	case dsn == "":
		return 0, "", fmt.Errorf("store: no database named: give sqlite:PATH, a file path or a postgres:// URL")
	case isPostgresURL(dsn), isKeyValueDSN(dsn):
		return postgresDialect, dsn, nil
	case strings.HasPrefix(dsn, "sqlite://"):
		return 0, "", fmt.Errorf("store: %q: write sqlite:PATH (one colon, no slashes before a relative path), e.g. sqlite:/var/lib/iomark/results.db", dsn)
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" {
			return 0, "", fmt.Errorf("store: %q names no file: write sqlite:PATH", dsn)
		}
		return sqliteDialect, path, nil
	case strings.Contains(dsn, "://"):
		scheme, _, _ := strings.Cut(dsn, "://")
		return 0, "", fmt.Errorf("store: unsupported database %q: iomark stores results in SQLite (sqlite:PATH) or PostgreSQL (postgres://… or host=… dbname=…)", scheme+"://")
	default:
		return sqliteDialect, dsn, nil
	}
}

// DefaultPath returns where iomark keeps its results database by default,
// $XDG_DATA_HOME/iomark/results.db or ~/.local/share/iomark/results.db, and creates its
// directory (mode 0700: the database names the user's hardware) if missing.
func DefaultPath() (string, error) {
	base := os.Getenv("XDG_DATA_HOME")
	// The XDG base directory spec says a relative path here is invalid and must be ignored.
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("store: no home directory for the results database (%v); set XDG_DATA_HOME or pass a database path", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	dir := filepath.Join(base, "iomark")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("store: creating %s for the results database: %w; set XDG_DATA_HOME or pass a database path", dir, err)
	}
	return filepath.Join(dir, "results.db"), nil
}

// wrapErr names the operation and the database in an error.
func (s *Store) wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s %s: %w", what, s.where, markFull(err))
}
