package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLevelScheduling turns a stand-in for the sysctl off and back on, leaves one already off
// alone, and needs nothing where the kernel has no autogroup.
func TestLevelScheduling(t *testing.T) {
	dir := t.TempDir()
	on := filepath.Join(dir, "on")
	if err := os.WriteFile(on, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	restore, state, err := levelScheduling(on)
	if err != nil || state != "off for the run (was 1)" {
		t.Fatalf("state %q, err %v", state, err)
	}
	if b, _ := os.ReadFile(on); string(b) != "0\n" {
		t.Errorf("during the run the switch reads %q, want 0", b)
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(on); string(b) != "1\n" {
		t.Errorf("after the run the switch reads %q, want 1 again", b)
	}

	off := filepath.Join(dir, "off")
	if err := os.WriteFile(off, []byte("0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, state, err := levelScheduling(off); err != nil || state != "off" {
		t.Errorf("already off: state %q, err %v", state, err)
	}
	if _, state, err := levelScheduling(filepath.Join(dir, "missing")); err != nil || state != "not in this kernel" {
		t.Errorf("no autogroup: state %q, err %v", state, err)
	}
}
