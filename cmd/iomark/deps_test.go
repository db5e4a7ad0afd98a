package main

import (
	"os/exec"
	"strings"
	"testing"
)

// measuring are the packages a run flows through below the database (probe to report),
// and the upload client: none of them may link a database driver or migration library, so a
// build of them (and the tests of anything that imports them) stays free of SQLite,
// PostgreSQL and goose.
var measuring = []string{"record", "engine", "profile", "report", "runner", "advice", "stats", "probe", "upload", "health", "power", "netcopy"}

// databaseCode are import paths, or prefixes of them, that only database code needs.
var databaseCode = []string{
	"database/sql", // the package drivers plug into (database/sql/driver, its interfaces, is no driver)
	"modernc.org/sqlite", "modernc.org/libc",
	"github.com/jackc/pgx", "github.com/jackc/pgconn", "github.com/lib/pq", "github.com/mattn/go-sqlite3",
	"github.com/pressly/goose",
	"github.com/iomark/iomark/internal/store", "github.com/iomark/iomark/internal/runstore",
	"github.com/iomark/iomark/internal/testkit/pg",
}

// TestMeasuringPackagesLinkNoDatabase runs `go list -deps` on each measuring package and fails
// naming the offending import path and how it got in.
func TestMeasuringPackagesLinkNoDatabase(t *testing.T) {
	for _, name := range measuring {
		pkg := "github.com/iomark/iomark/internal/" + name
		deps, importers := listDeps(t, pkg)
		for _, dep := range deps {
			if isDatabaseCode(dep) {
				t.Errorf("%s depends on database code: %s (imported by %s)", pkg, dep, importers[dep])
			}
		}
	}
}

// testKit is the test support tree (emulated drives, QEMU guests, a throwaway PostgreSQL):
// it execs test-time tools and imports package testing, so the binary must never link it.
const testKit = "github.com/iomark/iomark/internal/testkit"

// TestBinaryLinksNoTestKit runs `go list -deps` on the iomark command and fails naming each
// package of the test kit it links and how it got in.
func TestBinaryLinksNoTestKit(t *testing.T) {
	deps, importers := listDeps(t, ".")
	if len(deps) < 10 {
		t.Fatalf("go list -deps . listed only %v: the check is broken", deps)
	}
	for _, dep := range deps {
		if isTestKit(dep) {
			t.Errorf("the iomark binary links the test kit: %s (imported by %s)", dep, importers[dep])
		}
	}
}

func isTestKit(path string) bool { return path == testKit || strings.HasPrefix(path, testKit+"/") }

// listDeps is `go list -deps pkg`: every package pkg links, and for each one package that
// imports it.
func listDeps(t *testing.T, pkg string) (deps []string, importers map[string]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	importers = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		deps = append(deps, fields[0])
		for _, imp := range fields[1:] {
			if _, ok := importers[imp]; !ok {
				importers[imp] = fields[0]
			}
		}
	}
	return deps, importers
}

func isDatabaseCode(path string) bool {
	for _, p := range databaseCode {
		if path == p || strings.HasPrefix(path, p+"/") && path != "database/sql/driver" {
			return true
		}
	}
	return false
}

// TestIsDatabaseCode pins what the dependency test flags, so a typo there cannot make it pass
// vacuously.
func TestIsDatabaseCode(t *testing.T) {
	for path, want := range map[string]bool{
		"database/sql": true, "database/sql/driver": false, "modernc.org/sqlite": true,
		"modernc.org/sqlite/lib": true, "github.com/jackc/pgx/v5/stdlib": true, "github.com/pressly/goose/v3": true,
		"github.com/iomark/iomark/internal/store": true, "github.com/iomark/iomark/internal/stats": false,
		"github.com/google/uuid": false,
	} {
		if got := isDatabaseCode(path); got != want {
			t.Errorf("isDatabaseCode(%q) = %v, want %v", path, got, want)
		}
	}
	for path, want := range map[string]bool{
		testKit: true, testKit + "/lab": true, testKit + "/qemu/dm": true,
		"github.com/iomark/iomark/internal/testkitten": false, "github.com/iomark/iomark/internal/store": false,
	} {
		if got := isTestKit(path); got != want {
			t.Errorf("isTestKit(%q) = %v, want %v", path, got, want)
		}
	}
}
