package store

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// pgDiskFull is PostgreSQL's SQLSTATE disk_full (class 53, insufficient resources).
const pgDiskFull = "53100"

// diskFull reports whether err says the disk holding the database is full: SQLite's
// SQLITE_FULL, PostgreSQL's disk_full, or ENOSPC from the system.
func diskFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == pgDiskFull {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// markFull makes errors.Is(err, ErrFull) hold for an error that says the disk is full.
func markFull(err error) error {
	if err == nil || errors.Is(err, ErrFull) || !diskFull(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrFull, err)
}
