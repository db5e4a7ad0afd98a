package pg

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
)

func TestStartServesAFreshDatabase(t *testing.T) {
	u := Start(t)
	if !strings.HasPrefix(u, "postgres://postgres@127.0.0.1:") {
		t.Fatalf("Start returned %q", u)
	}
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var name string
	if err := db.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
		t.Fatalf("querying the test server: %v", err)
	}
	if !strings.HasPrefix(name, "iomark_test_") {
		t.Errorf("connected to database %q", name)
	}
	var tables int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("a fresh database has %d tables", tables)
	}

	other := NewDatabase(t, u)
	if other == u {
		t.Fatalf("NewDatabase returned the same URL %q", u)
	}
	db2, err := sql.Open("pgx", other)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if err := db2.PingContext(ctx); err != nil {
		t.Fatalf("second database: %v", err)
	}
}

func TestClusterIsRemovedAtCleanup(t *testing.T) {
	var dir string
	t.Run("server", func(t *testing.T) {
		bin, err := findBinDir()
		if err != nil {
			t.Skip(err)
		}
		c, err := newCluster(bin)
		if err != nil {
			t.Fatal(err)
		}
		dir = c.dir
		if err := c.start(); err != nil {
			c.stop()
			t.Fatal(err)
		}
		if err := c.stop(); err != nil {
			t.Fatal(err)
		}
	})
	if dir == "" {
		t.Skip("PostgreSQL not installed")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory %s still exists after stop (stat: %v)", dir, err)
	}
}
