package cli

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// dbCommandArgs are the arguments each command that takes --db needs to reach its database
// (a target, a server, a file); a command missing here fails the test, so a new one is checked.
func dbCommandArgs(t *testing.T) map[string][]string {
	dir := t.TempDir()
	rec := filepath.Join("..", "report", "testdata", "quick.json.golden")
	return map[string][]string{
		"run":              {dir},
		"verify":           {dir},
		"sink":             {"--listen", "127.0.0.1:0", dir},
		"info":             {dir},
		"submit":           {"--server", "http://127.0.0.1:1"},
		"serve":            {"--addr", "127.0.0.1:0"},
		"history":          nil,
		"show":             nil,
		"compare":          nil,
		"export":           nil,
		"save":             {rec},
		"moderate flagged": nil,
		"moderate approve": {"0198a7c2-0000-7000-8000-00000000a001"},
		"moderate hide":    {"0198a7c2-0000-7000-8000-00000000a001"},
		"moderate unhide":  {"0198a7c2-0000-7000-8000-00000000a001"},
	}
}

// commandsWithDB lists every runnable command that takes --db, by its path below iomark.
func commandsWithDB(c *cobra.Command, prefix string, out *[]string) {
	for _, sub := range c.Commands() {
		name := strings.TrimSpace(prefix + " " + sub.Name())
		if sub.Runnable() && (sub.Flags().Lookup("db") != nil || sub.InheritedFlags().Lookup("db") != nil) {
			*out = append(*out, name)
		}
		commandsWithDB(sub, name, out)
	}
}

// TestNoCommandPrintsADatabasePassword: every command that takes --db, given each form a
// PostgreSQL password can take (in --db or in IOMARK_DB) and a server that is not there,
// exits non-zero, prints the password nowhere, and names the server so the user can fix it.
func TestNoCommandPrintsADatabasePassword(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	const marker = "Mk7secretPW"
	forms := []string{
		"postgres://iomark:" + marker + "@127.0.0.1:1/iomark?sslmode=disable",
		"postgresql://iomark:" + marker + "%21@127.0.0.1:1/iomark",
		"postgres://iomark@127.0.0.1:1/iomark?sslmode=disable&password=" + marker,
		"postgres://iomark:" + marker + "%zz@127.0.0.1:1/iomark", // not a valid URL
		"host=127.0.0.1 port=1 user=iomark password=" + marker + " dbname=iomark sslmode=disable",
		"host=127.0.0.1 port=1 user=iomark password='" + marker + " x' dbname=iomark",
	}
	var cmds []string
	commandsWithDB(newRoot(nil, nil), "", &cmds)
	sort.Strings(cmds)
	args := dbCommandArgs(t)
	for _, name := range cmds {
		extra, ok := args[name]
		if !ok {
			t.Errorf("iomark %s takes --db: add its arguments to dbCommandArgs", name)
			continue
		}
		for _, dsn := range forms {
			for _, viaEnv := range []bool{false, true} {
				argv := append(strings.Fields(name), extra...)
				if viaEnv {
					t.Setenv(envDB, dsn)
				} else {
					t.Setenv(envDB, "")
					argv = append(argv, "--db", dsn)
				}
				code, out, errOut := runCLI(t, argv...)
				if code == 0 || strings.Contains(out+errOut, marker) {
					t.Errorf("iomark %s (db %q, from IOMARK_DB: %v): exit %d\nstdout: %s\nstderr: %s", name, dsn, viaEnv, code, out, errOut)
				}
				if !strings.Contains(errOut, "127.0.0.1") && !strings.Contains(dsn, "%zz") {
					t.Errorf("iomark %s (db %q): the error does not name the server: %s", name, dsn, errOut)
				}
			}
		}
	}
	if len(cmds) < 10 {
		t.Errorf("found only %d commands with --db: %v", len(cmds), cmds)
	}
}
