package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPollBeforeHalt raises a stand-in for the driver's limit to the kernel's default and puts
// it back, leaves a higher limit alone, needs nothing without the driver, and refuses a file
// that does not hold a number.
func TestPollBeforeHalt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string { return writeSetting(t, dir, name, s) }
	zero := write("zero", "0\n")
	restore, state, err := pollBeforeHalt(zero)
	if err != nil || !strings.Contains(state, "200 µs") || !strings.Contains(state, "was 0 ns") {
		t.Fatalf("state %q, err %v", state, err)
	}
	checkSetForTheRun(t, zero, "200000\n", "0\n", restore)

	high := write("high", "400000\n")
	if _, state, err := pollBeforeHalt(high); err != nil || !strings.Contains(state, "400 µs before they halt (as set)") {
		t.Errorf("a higher limit: state %q, err %v", state, err)
	}
	if b, _ := os.ReadFile(high); string(b) != "400000\n" {
		t.Errorf("a higher limit was changed to %q", b)
	}
	if _, state, err := pollBeforeHalt(filepath.Join(dir, "missing")); err != nil || !strings.Contains(state, "no guest halt-polling driver") {
		t.Errorf("no driver: state %q, err %v", state, err)
	}
	if _, _, err := pollBeforeHalt(write("junk", "fast\n")); err == nil || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("a limit that is not a number: err %v", err)
	}

	// Left alone, the report still says what the machine had.
	if s := haltPollState(zero); s != "idle vCPUs poll up to 0 µs before they halt, as the machine has it" {
		t.Errorf("left alone: %q", s)
	}
	if s := haltPollState(filepath.Join(dir, "missing")); s != "no guest halt-polling driver here" {
		t.Errorf("left alone without the driver: %q", s)
	}
}
