package pg

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"

	"github.com/iomark/iomark/internal/testkit"
)

// superuser is the role initdb creates; connections use trust authentication, which is
// acceptable only because the server listens on 127.0.0.1 and a private socket directory, and
// lives for one test.
const superuser = "postgres"

// Start creates and starts a PostgreSQL cluster, creates a database in it and returns its URL
// (postgres://postgres@127.0.0.1:PORT/iomark_test?sslmode=disable). The cluster is stopped and
// its directory removed when t ends.
func Start(t testing.TB) string {
	t.Helper()
	return NewDatabase(t, StartCluster(t).URL)
}

// Cluster is a started test server that a test can stop and start again (a database outage
// under a running client). URL is its postgres database's URL, as NewDatabase takes it.
type Cluster struct {
	c   *cluster
	URL string
}

// Stop stops the server at once (connections are cut, as in a crash); Start starts it again on
// the same port, with its data.
func (c *Cluster) Stop() error { return c.c.halt() }

func (c *Cluster) Start() error { return c.c.start() }

// StartCluster creates and starts a PostgreSQL cluster, stopped and removed when t ends.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	c := startCluster(t, nil)
	return &Cluster{c: c, URL: c.url("postgres")}
}

// StartWithPassword is Start with one more role that must log in with its password
// (scram-sha-256 over TCP; the superuser keeps trust). It returns the URL of a fresh database
// that role owns, without the password, so a test can check where a client finds it.
func StartWithPassword(t testing.TB, role, password string) string {
	t.Helper()
	c := startCluster(t, func(c *cluster) error {
		hba := filepath.Join(c.dataDir(), "pg_hba.conf")
		old, err := os.ReadFile(hba)
		if err != nil {
			return err
		}
		rule := fmt.Sprintf("host all %s 127.0.0.1/32 scram-sha-256\n", role)
		return os.WriteFile(hba, append([]byte(rule), old...), 0o600)
	})
	db, err := sql.Open("pgx", c.url("postgres"))
	if err != nil {
		t.Fatalf("testkit/pg: %v", err)
	}
	defer db.Close()
	name := fmt.Sprintf("iomark_test_%d", dbSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", role, strings.ReplaceAll(password, "'", "''")),
		fmt.Sprintf("CREATE DATABASE %s OWNER %s ENCODING 'UTF8' TEMPLATE template0", name, role),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("testkit/pg: %v", err)
		}
	}
	u, _ := url.Parse(c.url(name))
	u.User = url.User(role)
	return u.String()
}

// startCluster starts a server for the test, after prepare (when not nil) has edited its
// configuration.
func startCluster(t testing.TB, prepare func(*cluster) error) *cluster {
	t.Helper()
	bin, err := findBinDir()
	if err != nil {
		testkit.Require(t, fmt.Sprintf("testkit/pg: %v; install it with `apt-get install postgresql` to run the PostgreSQL tests (scripts/setup-test-deps.sh installs it)", err))
	}
	c, err := newCluster(bin)
	if err != nil {
		t.Fatalf("testkit/pg: %v", err)
	}
	t.Cleanup(func() {
		if err := c.stop(); err != nil {
			t.Errorf("testkit/pg: %v", err)
		}
	})
	if prepare != nil {
		if err := prepare(c); err != nil {
			t.Fatalf("testkit/pg: %v", err)
		}
	}
	if err := c.start(); err != nil {
		t.Fatalf("testkit/pg: %v", err)
	}
	return c
}

var dbSeq atomic.Int64

// NewDatabase creates another, empty database on the server of serverURL (a URL Start
// returned) and returns its URL; tests use it to isolate subtests without a second cluster.
// The database lives as long as the server.
func NewDatabase(t testing.TB, serverURL string) string {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatalf("testkit/pg: bad server URL %q: %v", serverURL, err)
	}
	name := fmt.Sprintf("iomark_test_%d", dbSeq.Add(1))
	admin := *u
	admin.Path = "/postgres"
	db, err := sql.Open("pgx", admin.String())
	if err != nil {
		t.Fatalf("testkit/pg: %v", err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The name is ours (a counter), not input: CREATE DATABASE takes no parameters.
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name+" ENCODING 'UTF8' TEMPLATE template0"); err != nil {
		t.Fatalf("testkit/pg: creating database %s: %v", name, err)
	}
	u.Path = "/" + name
	return u.String()
}

// binGlob is where Debian's postgresql-NN packages put the server binaries; a variable so the
// tests can point it at nothing.
var binGlob = "/usr/lib/postgresql/*/bin"

// findBinDir returns the newest /usr/lib/postgresql/VERSION/bin holding initdb and pg_ctl.
func findBinDir() (string, error) {
	dirs, _ := filepath.Glob(binGlob)
	type cand struct {
		dir     string
		version int
	}
	var found []cand
	for _, d := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err != nil {
			continue
		}
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "pg_ctl")) {
			found = append(found, cand{d, v})
		}
	}
	if len(found) == 0 {
		return "", fmt.Errorf("PostgreSQL server binaries not found (no initdb and pg_ctl under /usr/lib/postgresql/*/bin)")
	}
	sort.Slice(found, func(i, j int) bool { return found[i].version > found[j].version })
	return found[0].dir, nil
}

func isExec(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

type cluster struct {
	bin     string
	dir     string // owned by the server's user; holds data/, the socket and the log
	port    int
	cred    *syscall.Credential // nil unless we run as root and drop to the postgres user
	started bool
}

func (c *cluster) dataDir() string { return filepath.Join(c.dir, "data") }
func (c *cluster) logFile() string { return filepath.Join(c.dir, "server.log") }

func (c *cluster) url(database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(superuser),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

func newCluster(bin string) (*cluster, error) {
	// Not t.TempDir: its parents are private to root, and initdb refuses to run as root, so the
	// server's user must own the directory and be able to reach it (/tmp is world-searchable).
	dir, err := os.MkdirTemp("", "iomark-testpg-")
	if err != nil {
		return nil, fmt.Errorf("creating the cluster directory: %w", err)
	}
	c := &cluster{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and initdb refuses root, but there is no postgres user to run it as (%v); the postgresql package creates one", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("giving %s to the postgres user: %w", dir, err)
		}
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if err := c.run("initdb", "-D", c.dataDir(), "-U", superuser, "--auth=trust",
		"-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

// start picks a free port and starts the server; a port taken between the pick and the bind is
// retried with another. Started again after halt, it keeps its port.
func (c *cluster) start() error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if c.port == 0 || attempt > 0 {
			port, err := freePort()
			if err != nil {
				return err
			}
			c.port = port
		}
		// fsync and full-page writes off: a test server never survives an OS crash anyway.
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=50", c.port, c.dir)
		err := c.run("pg_ctl", "-D", c.dataDir(), "-l", c.logFile(), "-w", "-t", "60", "-o", opts, "start")
		if err == nil {
			c.started = true
			return nil
		}
		lastErr = err
		if !strings.Contains(readTail(c.logFile()), "could not bind") {
			break
		}
	}
	return fmt.Errorf("%v\nserver log:\n%s", lastErr, readTail(c.logFile()))
}

func (c *cluster) stop() error {
	defer os.RemoveAll(c.dir)
	return c.halt()
}

// halt stops a started server and keeps its directory.
func (c *cluster) halt() error {
	if !c.started {
		return nil
	}
	// immediate: nothing in a test cluster needs a clean shutdown.
	if err := c.run("pg_ctl", "-D", c.dataDir(), "-m", "immediate", "-w", "-t", "60", "stop"); err != nil {
		return fmt.Errorf("stopping the test server: %w", err)
	}
	c.started = false
	return nil
}

func (c *cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir // the test's working directory may be closed to the postgres user
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func readTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(no server log)"
	}
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}
