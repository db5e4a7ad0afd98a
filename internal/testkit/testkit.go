// Package testkit is support code for tests and bench programs only: the emulated drives and
// cards of lab, the QEMU guests of qemu, the throwaway PostgreSQL of pg, Require, the one
// place that decides what a test does when something it needs is missing here, Contains and
// Buffer for the output a test reads, and SmallDisk, a disk to fill. Nothing the iomark binary links may import it
// (cmd/iomark's dependency test and internal/archtest check).
package testkit

import (
	"os"
	"strings"
	"testing"
)

// Require ends a test whose need is not met here; the caller decides that, and what says what
// is missing and how to get it. On a developer machine the test is skipped, so the suite runs
// with whatever tools are installed. In CI (the CI environment variable set, as CI services
// set it) the test fails instead: there every test must run, and a skip would hide a machine
// that lost a tool.
func Require(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI must run this test: %s", what)
	}
	t.Skip(what)
}

// Contains fails the test for each of wants that out, a command's or a renderer's output
// (named what in the message), lacks.
func Contains(t testing.TB, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, out)
		}
	}
}
