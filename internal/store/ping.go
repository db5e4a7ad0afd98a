package store

import "context"

// Ping reaches the database: for PostgreSQL a round trip on a connection of the pool (a dead
// one is replaced), for SQLite a connection to the file.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return s.wrapErr("reaching", err)
	}
	return nil
}
