package main

import (
	"path/filepath"
	"testing"
)

// TestLevelScheduling turns a stand-in for the sysctl off and back on, leaves one already off
// alone, and needs nothing where the kernel has no autogroup.
func TestLevelScheduling(t *testing.T) {
	dir := t.TempDir()
	on := writeSetting(t, dir, "on", "1\n")
	restore, state, err := levelScheduling(on)
	if err != nil || state != "off for the run (was 1)" {
		t.Fatalf("state %q, err %v", state, err)
	}
	checkSetForTheRun(t, on, "0\n", "1\n", restore)

	if _, state, err := levelScheduling(writeSetting(t, dir, "off", "0\n")); err != nil || state != "off" {
		t.Errorf("already off: state %q, err %v", state, err)
	}
	if _, state, err := levelScheduling(filepath.Join(dir, "missing")); err != nil || state != "not in this kernel" {
		t.Errorf("no autogroup: state %q, err %v", state, err)
	}
}
