package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/testkit/pg"
)

// TestDatabasePasswordOffTheCommandLine: a real PostgreSQL's password need not be typed in
// --db: PGPASSWORD, ~/.pgpass and IOMARK_DB each reach it, for a URL and a key=value DSN.
func TestDatabasePasswordOffTheCommandLine(t *testing.T) {
	const pw = "Mk7-pgpw-secret"
	noPWURL := pg.StartWithPassword(t, "iomark_pw", pw)
	u, err := url.Parse(noPWURL)
	if err != nil {
		t.Fatal(err)
	}
	user, host, port, db := u.User.Username(), u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/")
	withPW := *u
	withPW.User = url.UserPassword(user, pw)
	full := withPW.String()
	noPWKV := "host=" + host + " port=" + port + " user=" + user + " dbname=" + db + " sslmode=disable"
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PGPASSFILE", "")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	rec := filepath.Join("..", "report", "testdata", "quick.json.golden")

	// The server asks for the password: without one, nothing gets in.
	t.Setenv("PGPASSWORD", "")
	t.Setenv(envDB, "")
	if code, _, errOut := runCLI(t, "history", "--db", noPWURL); code == 0 || !strings.Contains(errOut, "password") {
		t.Fatalf("the role got in without a password: exit %d %s", code, errOut)
	}
	for _, c := range []struct {
		name   string
		env    map[string]string
		pgpass bool
		args   []string
	}{
		{"URL, PGPASSWORD", map[string]string{"PGPASSWORD": pw}, false, []string{"--db", noPWURL}},
		{"key=value, PGPASSWORD", map[string]string{"PGPASSWORD": pw}, false, []string{"--db", noPWKV}},
		{"URL, ~/.pgpass", map[string]string{"PGPASSWORD": ""}, true, []string{"--db", noPWURL}},
		{"key=value, ~/.pgpass", map[string]string{"PGPASSWORD": ""}, true, []string{"--db", noPWKV}},
		{"IOMARK_DB", map[string]string{"PGPASSWORD": "", envDB: full}, false, nil},
	} {
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		if _, ok := c.env[envDB]; !ok {
			t.Setenv(envDB, "")
		}
		os.Remove(filepath.Join(home, ".pgpass"))
		if c.pgpass {
			line := strings.Join([]string{host, port, db, user, pw}, ":") + "\n"
			if err := os.WriteFile(filepath.Join(home, ".pgpass"), []byte(line), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		code, out, errOut := runCLI(t, append([]string{"save", rec}, c.args...)...)
		if code != 0 || strings.Contains(out+errOut, pw) {
			t.Errorf("%s: save: exit %d\n%s%s", c.name, code, out, errOut)
			continue
		}
		code, out, errOut = runCLI(t, append([]string{"history"}, c.args...)...)
		if code != 0 || !strings.Contains(out, "3f5a2b6c8d01") {
			t.Errorf("%s: history: exit %d\n%s%s", c.name, code, out, errOut)
		}
		t.Logf("%s: saved and listed, password nowhere on the command line", c.name)
	}
}
