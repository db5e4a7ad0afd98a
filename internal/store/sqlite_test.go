package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestParseDSN(t *testing.T) {
	cases := []struct {
		dsn     string
		dialect dialect
		target  string
		errHas  string
	}{
		{dsn: "sqlite:/var/lib/iomark/results.db", dialect: sqliteDialect, target: "/var/lib/iomark/results.db"},
		{dsn: "sqlite:results.db", dialect: sqliteDialect, target: "results.db"},
		{dsn: "/home/pi/.local/share/iomark/results.db", dialect: sqliteDialect, target: "/home/pi/.local/share/iomark/results.db"},
		{dsn: "relative/r.db", dialect: sqliteDialect, target: "relative/r.db"},
		{dsn: "postgres://u:p@db.example:5432/iomark?sslmode=disable", dialect: postgresDialect, target: "postgres://u:p@db.example:5432/iomark?sslmode=disable"},
		{dsn: "postgresql://localhost/iomark", dialect: postgresDialect, target: "postgresql://localhost/iomark"},
		{dsn: "host=db.example user=iomark password=pw dbname=iomark", dialect: postgresDialect, target: "host=db.example user=iomark password=pw dbname=iomark"},
		{dsn: " dbname = iomark ", dialect: postgresDialect, target: " dbname = iomark "},
		{dsn: "results=2024.db", dialect: sqliteDialect, target: "results=2024.db"}, // no libpq keyword: a file
		{dsn: "my host=x.db", dialect: sqliteDialect, target: "my host=x.db"},
		{dsn: "", errHas: "no database named"},
		{dsn: "sqlite:", errHas: "names no file"},
		{dsn: "sqlite:///tmp/x.db", errHas: "write sqlite:PATH"},
		{dsn: "mysql://localhost/iomark", errHas: `unsupported database "mysql://"`},
	}
	for _, c := range cases {
		t.Run(c.dsn, func(t *testing.T) {
			d, target, err := parseDSN(c.dsn)
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("parseDSN(%q): err = %v, want one mentioning %q", c.dsn, err, c.errHas)
				}
				return
			}
			if err != nil || d != c.dialect || target != c.target {
				t.Fatalf("parseDSN(%q) = %v, %q, %v; want %v, %q", c.dsn, d, target, err, c.dialect, c.target)
			}
		})
	}
}

func TestOpenSQLiteRefusesBadPaths(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path   string
		errHas string
	}{
		{filepath.Join(dir, "missing", "results.db"), "does not exist"},
		{filepath.Join(dir, "odd?name.db"), "must not contain"},
		{":memory:", "in-memory"},
		{"file:" + filepath.Join(dir, "x.db"), "URI"},
		{notDB, "is it an iomark results database"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			s, err := Open(context.Background(), "sqlite:"+c.path)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded", c.path)
			}
			if !strings.Contains(err.Error(), c.errHas) {
				t.Fatalf("Open(%q): %v; want it to mention %q", c.path, err, c.errHas)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("Open created the missing directory (stat: %v)", err)
	}
}

func TestSQLiteConnectionSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	s := openT(t, path) // a bare path works like sqlite:PATH
	ctx := context.Background()
	// Every connection of the pool gets the settings: hold several at once.
	conns := make([]interface{ Close() error }, 0, 3)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 3; i++ {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		for _, p := range []struct {
			pragma string
			want   string
		}{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"busy_timeout", fmt.Sprint(sqliteBusyTimeoutMS)},
			{"synchronous", "2"}, // FULL
			{"cache_size", fmt.Sprint(-sqliteCacheKiB)},
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(&got); err != nil {
				t.Fatalf("PRAGMA %s: %v", p.pragma, err)
			}
			if got != p.want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", i, p.pragma, got, p.want)
			}
		}
	}
	// Foreign keys are enforced: a test row needs its run.
	_, err := s.db.ExecContext(ctx, `INSERT INTO tests (run_id, seq, name, op, bs_bytes, qd, jobs,
    iops, mb_per_s, lat_p50_us, lat_p99_us, lat_max_us) VALUES ('ghost', 0, 'x', 'read', 4096, 1, 1, 0, 0, 0, 0, 0)`)
	if err == nil {
		t.Error("a test row without its run was accepted: foreign keys are off")
	}
}

func TestDefaultPath(t *testing.T) {
	t.Run("XDG_DATA_HOME", func(t *testing.T) {
		base := filepath.Join(t.TempDir(), "data")
		t.Setenv("XDG_DATA_HOME", base)
		got, err := DefaultPath()
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(base, "iomark", "results.db"); got != want {
			t.Errorf("DefaultPath = %q, want %q", got, want)
		}
		checkPrivateDir(t, filepath.Join(base, "iomark"))
	})
	for _, xdg := range []string{"", "relative/data"} { // a relative XDG_DATA_HOME is ignored
		t.Run("home with XDG_DATA_HOME="+xdg, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_DATA_HOME", xdg)
			got, err := DefaultPath()
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(home, ".local", "share", "iomark", "results.db"); got != want {
				t.Errorf("DefaultPath = %q, want %q", got, want)
			}
			checkPrivateDir(t, filepath.Join(home, ".local", "share", "iomark"))
			// The path opens.
			s := openT(t, got)
			s.Close()
		})
	}
}

func checkPrivateDir(t *testing.T, dir string) {
	t.Helper()
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatalf("DefaultPath did not create %s: %v", dir, err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("%s has mode %v, want 0700", dir, st.Mode().Perm())
	}
}

// The kill test runs the test binary again as a child that saves runs; the parent kills it with
// SIGKILL right after it reports a commit and checks that the committed runs are all there.
const killChildEnv = "IOMARK_STORE_KILL_CHILD_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(killChildEnv); path != "" {
		os.Exit(killChild(path))
	}
	os.Exit(m.Run())
}

// killChild saves runs forever, printing each id once it is committed.
func killChild(path string) int {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; ; i++ {
		run, tests := sampleRun(fmt.Sprintf("kill-%d", i), t0, "Samsung", "Evo")
		if err := s.SaveRun(ctx, run, tests); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(run.ID)
	}
}

func TestSQLiteSurvivesKill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var committed []string
	sc := bufio.NewScanner(out)
	for len(committed) < 20 && sc.Scan() {
		committed = append(committed, sc.Text())
	}
	// Killed mid-stream: the child is usually inside its next transaction.
	cmd.Process.Signal(syscall.SIGKILL)
	werr := cmd.Wait()
	if len(committed) < 20 {
		t.Fatalf("the child committed %d runs before stopping (%v): %s", len(committed), werr, stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(werr, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed by SIGKILL: %v", werr)
	}

	s := openT(t, path)
	ctx := context.Background()
	for _, id := range committed {
		_, tests, err := s.GetRun(ctx, id)
		if err != nil {
			t.Errorf("run %s, committed before the kill: %v", id, err)
		} else if len(tests) != 2 {
			t.Errorf("run %s has %d tests after the kill, want 2", id, len(tests))
		}
	}
	// Whatever the child was writing is either wholly there or wholly absent.
	runs, err := s.ListRuns(ctx, Filter{Limit: MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if _, tests, err := s.GetRun(ctx, r.ID); err != nil || len(tests) != 2 {
			t.Errorf("run %s after the kill: %d tests, err %v; want 2", r.ID, len(tests), err)
		}
	}
	if n, _ := s.ListRuns(ctx, Filter{Text: "samsung evo", Limit: MaxLimit}); len(n) != len(runs) {
		t.Errorf("search finds %d of the %d runs after the kill", len(n), len(runs))
	}
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	s := openT(t, path)
	// What a future migration 99 would leave behind.
	if _, err := s.db.ExecContext(context.Background(),
		`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, 1)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := Open(context.Background(), path)
	if err == nil {
		s2.Close()
		t.Fatal("Open accepted a database with a newer schema")
	}
	if !strings.Contains(err.Error(), "schema version 99") || !strings.Contains(err.Error(), "upgrade iomark") {
		t.Fatalf("Open: %v; want it to name the version and the fix", err)
	}
}
