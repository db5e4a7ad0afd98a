package store

// Backend names the database behind the store: "sqlite" or "postgres". Callers use it to tune
// concurrency (SQLite takes one writer at a time; PostgreSQL commits in parallel).
func (s *Store) Backend() string { return s.dialect.String() }

// Where names the database as a user would: the SQLite file's absolute path, or the
// PostgreSQL URL without its password. For messages such as "saved in …".
func (s *Store) Where() string { return s.where }
