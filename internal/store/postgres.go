package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	where := Redact(dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", where, err)
	}
	// pgx prepares each statement once per connection, and after five runs PostgreSQL may plan
	// it once for any parameters. Searches depend on theirs (a word in 5 names or 5,000, ids
	// given as an array that is hashed only when known at planning); generic plans made a
	// search list statement take 345 ms (docs/decisions.md).
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	db := stdlib.OpenDB(*cfg)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connecting to %s: %w; check the URL, that the server runs and that the database exists", where, err)
	}
	return &Store{db: db, dialect: postgresDialect, where: where}, nil
}
