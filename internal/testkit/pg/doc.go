// Package pg starts a throwaway PostgreSQL server for tests, from the binaries of Debian's
// postgresql package (/usr/lib/postgresql/*/bin). It owns only that server: a cluster in a
// temporary directory, listening on a free 127.0.0.1 port and a unix socket in that directory,
// stopped and removed when the test ends. It never touches a cluster it did not create.
//
// Without PostgreSQL installed a test skips, unless the CI environment variable is set, in which
// case it fails: CI installs the package (scripts/setup-test-deps.sh) and must not pass silently.
//
// Only tests import this package.
package pg
