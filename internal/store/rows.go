package store

import (
	"context"
	"database/sql"
)

// querier is what a query runs through: the store's pool or one of its transactions.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryRows runs q through db and hands each row to row, then closes the rows. An error of
// the query, of row or of reading the rows is returned as s.wrapErr(what, err).
func (s *Store) queryRows(ctx context.Context, db querier, what, q string, args []any, row func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return s.wrapErr(what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return s.wrapErr(what, err)
		}
	}
	return s.wrapErr(what, rows.Err())
}

// queryAll is queryRows gathering what scan makes of each row; after an error it returns the
// rows scanned before it.
func queryAll[T any](ctx context.Context, s *Store, db querier, what, q string, args []any, scan func(*sql.Rows) (T, error)) ([]T, error) {
	var out []T
	err := s.queryRows(ctx, db, what, q, args, func(rows *sql.Rows) error {
		v, err := scan(rows)
		if err == nil {
			out = append(out, v)
		}
		return err
	})
	return out, err
}

// queryMap is queryRows for rows of two columns, a key and its value, set in m.
func queryMap[K comparable, V any](ctx context.Context, s *Store, db querier, what, q string, args []any, m map[K]V) error {
	return s.queryRows(ctx, db, what, q, args, func(rows *sql.Rows) error {
		var k K
		var v V
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		m[k] = v
		return nil
	})
}

// scanValue scans a row of one column.
func scanValue[T any](rows *sql.Rows) (v T, err error) {
	err = rows.Scan(&v)
	return v, err
}
