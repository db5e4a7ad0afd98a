package store

import "context"

// Ping reaches the database: for PostgreSQL a round trip on a connection of the pool, for
// SQLite a connection to the file. When it fails the idle connections are dropped: after a
// database restart each of them is dead, and the next ping (and query) should open a new one
// instead of finding the next dead one.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		s.db.SetMaxIdleConns(0)
		s.db.SetMaxIdleConns(s.idle)
		return s.wrapErr("reaching", err)
	}
	return nil
}
