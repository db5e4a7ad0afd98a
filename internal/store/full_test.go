package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/pg"
)

// A full disk: saving fails with ErrFull (a server answers 503 and Retry-After), and what was
// stored before stays readable. The disk is a small tmpfs the test mounts, so it needs root.

// bulkyRun is a run whose record carries n bytes that do not compress.
func bulkyRun(i, n int) (Run, []Test) {
	r, tests := variedRun(i)
	b := make([]byte, n/2)
	_, _ = rand.Read(b)
	r.Record = []byte(fmt.Sprintf(`{"id":%q,"padding":%q}`, r.ID, hex.EncodeToString(b)))
	return r, tests
}

// fillUntilFull saves bulky runs until one fails and returns how many were stored and the error.
func fillUntilFull(t *testing.T, s *Store) (int, error) {
	t.Helper()
	ctx := context.Background()
	for i := range 1000 {
		r, tests := bulkyRun(i, 64<<10)
		if err := s.SaveRun(ctx, r, tests); err != nil {
			return i, err
		}
	}
	t.Fatal("1000 runs of 64 KiB fitted on the small disk")
	return 0, nil
}

func checkFull(t *testing.T, s *Store, stored int, err error) {
	t.Helper()
	if !errors.Is(err, ErrFull) {
		t.Fatalf("after %d runs: %v; want an error wrapping ErrFull", stored, err)
	}
	if stored == 0 {
		t.Fatal("the disk was full before the first run: make it larger")
	}
	ctx := context.Background()
	if _, _, err := s.GetRun(ctx, fmt.Sprintf("run-%04d", stored-1)); err != nil {
		t.Errorf("the last run stored before the disk filled: %v", err)
	}
	if n, err := s.CountRuns(ctx, Filter{}); err != nil || n != stored {
		t.Errorf("CountRuns = %d, %v; want the %d stored before the disk filled", n, err, stored)
	}
	// Batches fail the same way, each run with ErrFull.
	r, tests := bulkyRun(5000, 64<<10)
	r2, tests2 := bulkyRun(5001, 64<<10)
	for i, err := range s.SaveBatch(ctx, []BatchRun{{r, tests}, {r2, tests2}}) {
		if !errors.Is(err, ErrFull) {
			t.Errorf("batch run %d on a full disk: %v; want ErrFull", i, err)
		}
	}
}

func TestFullDiskSQLite(t *testing.T) {
	dir := testkit.SmallDisk(t, 2<<20, "")
	s, err := Open(context.Background(), "sqlite:"+filepath.Join(dir, "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stored, err := fillUntilFull(t, s)
	checkFull(t, s, stored, err)
}

func TestFullDiskPostgres(t *testing.T) {
	server := pg.Start(t)
	dir := testkit.SmallDisk(t, 4<<20, "postgres")
	dsn := pg.NewDatabase(t, server)
	s := openT(t, dsn)
	// The runs and tests tables, and runs' TOAST table that holds big records, move to a
	// tablespace on the small disk; the rest of the cluster stays where it is.
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ts := fmt.Sprintf("full_%d", os.Getpid())
	for _, q := range []string{
		`CREATE TABLESPACE ` + ts + ` LOCATION '` + dir + `'`,
		`ALTER TABLE runs SET TABLESPACE ` + ts,
		`ALTER TABLE tests SET TABLESPACE ` + ts,
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		s.Close()
		admin.Exec(`DROP TABLE tests`)
		admin.Exec(`DROP TABLE run_counts`)
		admin.Exec(`DROP TABLE runs`)
		admin.Exec(`DROP TABLESPACE ` + ts)
	})
	stored, err := fillUntilFull(t, s)
	checkFull(t, s, stored, err)
}
