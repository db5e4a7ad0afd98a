package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// sqliteMigrateAttempts bounds the retries of racing SQLite migrations (see migrate).
const sqliteMigrateAttempts = 8

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationsFor returns the migration directory and the file names the dialect must not run:
// the per-dialect files of the other database (doc.go).
func migrationsFor(d dialect) (fs.FS, []string, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, nil, err
	}
	entries, err := fs.ReadDir(sub, ".")
	if err != nil {
		return nil, nil, err
	}
	var exclude []string
	for _, e := range entries {
		name := e.Name()
		for _, other := range []dialect{sqliteDialect, postgresDialect} {
			if other != d && strings.HasSuffix(name, "."+other.String()+".sql") {
				exclude = append(exclude, name)
			}
		}
	}
	return sub, exclude, nil
}

// migrate brings the schema up to date. Running it again is a no-op.
func (s *Store) migrate(ctx context.Context) ([]*goose.MigrationResult, error) {
	p, err := s.migrations()
	if err != nil {
		return nil, err
	}
	res, err := p.Up(ctx)
	// SQLite has no advisory lock for goose: processes opening a new file at once may each read
	// the same version and race to apply the next migration. The loser fails ("already exists")
	// and, trying again, reads the version the winner committed. Every failed round means
	// another process made progress, so a few rounds settle it.
	for attempt := 1; err != nil && s.dialect == sqliteDialect && attempt < sqliteMigrateAttempts; attempt++ {
		if ctx.Err() != nil {
			break
		}
		res, err = p.Up(ctx)
	}
	if err != nil {
		return nil, s.wrapErr("migrating", err)
	}
	// goose ignores versions it has no file for, so a database a newer iomark migrated would
	// open silently and then fail in obscure ways.
	current, target, err := p.GetVersions(ctx)
	if err != nil {
		return nil, s.wrapErr("reading the schema version of", err)
	}
	if current > target {
		return nil, fmt.Errorf("store: %s has schema version %d, newer than the %d this iomark knows: a newer iomark wrote it; upgrade iomark to use it", s.where, current, target)
	}
	return res, nil
}

// migrations is the goose provider of the store's dialect.
func (s *Store) migrations() (*goose.Provider, error) {
	fsys, exclude, err := migrationsFor(s.dialect)
	if err != nil {
		return nil, fmt.Errorf("store: reading the embedded migrations: %w", err)
	}
	opts := []goose.ProviderOption{
		goose.WithExcludeNames(exclude),
		goose.WithSlog(slog.New(slog.DiscardHandler)), // never print: --json owns stdout
		goose.WithGoMigrations(goMigrations()...),
	}
	gd := goose.DialectSQLite3
	if s.dialect == postgresDialect {
		gd = goose.DialectPostgres
		// Two servers starting against one database take turns.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(gd, s.db, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("store: preparing migrations: %w", err)
	}
	return p, nil
}
