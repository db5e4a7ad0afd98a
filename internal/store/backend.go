package store

// Backend names the database behind the store: "sqlite" or "postgres". Callers use it to tune
// concurrency (SQLite takes one writer at a time; PostgreSQL commits in parallel).
func (s *Store) Backend() string { return s.dialect.String() }
