package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	where := redactURL(dsn)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", where, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connecting to %s: %w; check the URL, that the server runs and that the database exists", where, err)
	}
	return &Store{db: db, dialect: postgresDialect, where: where}, nil
}

// redactURL drops the password from a URL shown in messages.
func redactURL(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the PostgreSQL database (unparsable URL)"
	}
	return u.Redacted()
}
