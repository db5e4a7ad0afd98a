package main

import (
	"os"
	"path/filepath"
	"testing"
)

// writeSetting writes a stand-in for a kernel setting, s, to the file name under dir.
func writeSetting(t *testing.T, dir, name, s string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSetForTheRun checks that the setting at path reads during while the bench runs, and
// was again once restore has run.
func checkSetForTheRun(t *testing.T, path, during, was string, restore func() error) {
	t.Helper()
	if b, _ := os.ReadFile(path); string(b) != during {
		t.Errorf("during the run %s reads %q, want %q", filepath.Base(path), b, during)
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != was {
		t.Errorf("after the run %s reads %q, want %q again", filepath.Base(path), b, was)
	}
}
