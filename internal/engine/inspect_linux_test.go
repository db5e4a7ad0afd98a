package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestInspectTarget(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "data")
	if err := os.WriteFile(file, make([]byte, 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, kind, err string
	}{
		{dir, KindDir, ""},
		{file, KindFile, ""},
		{filepath.Join(dir, "a", "b"), "", "the nearest existing directory is " + dir},
		{filepath.Join(file, "under-a-file"), "", "the nearest existing directory is " + dir},
		{"/dev/iomark-missing", "", "no such block device"},
		{"/dev/zero", "", "not a block device"},
		{"", "", "no target"},
	} {
		info, err := InspectTarget(c.path)
		switch {
		case c.err == "" && (err != nil || info.Kind != c.kind):
			t.Errorf("%q: kind %q, err %v; want %q", c.path, info.Kind, err, c.kind)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: err %v; want one saying %q", c.path, err, c.err)
		}
	}
	// A symlink into /dev is judged by where it points.
	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	if _, err := InspectTarget(link); err == nil || !strings.Contains(err.Error(), "not a block device") {
		t.Errorf("symlink to /dev/null: %v", err)
	}
	info, _ := InspectTarget(file)
	if err := info.WriteRefusal(false, ""); err == nil || !strings.Contains(err.Error(), "--destructive") {
		t.Errorf("an unmarked file may be written without --destructive: %v", err)
	}
	if err := info.WriteRefusal(true, ""); err != nil {
		t.Errorf("--destructive refused for a file: %v", err)
	}
}

func TestLeftoverNames(t *testing.T) {
	for _, c := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{".iomark-run-1234-abc123.tmp", 1234, true},
		{".iomark-job-77-0.tmp", 77, true},
		{".iomark-export-123.tmp", 0, false},
		{".iomark-run-1234.tmp", 0, false},
		{".iomark-run-x-abc.tmp", 0, false},
		{".iomark-run-12-xyz.tmp", 0, false},
		{"iomark-run-12-ab.tmp", 0, false},
	} {
		pid, ok := leftoverPID(c.name)
		if pid != c.pid || ok != c.ok {
			t.Errorf("%s: pid %d ok %v, want %d %v", c.name, pid, ok, c.pid, c.ok)
		}
	}
	// Only files of processes that are gone are leftovers.
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, ".iomark-run-"+strconv.Itoa(os.Getpid())+"-a.tmp")
	dead := filepath.Join(dir, ".iomark-job-"+strconv.Itoa(gone.Process.Pid)+"-b.tmp")
	for _, p := range []string{mine, dead} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var said []string
	if freed := SweepLeftovers(dir, func(f string, a ...any) { said = append(said, f) }); freed != 1 || len(said) != 1 {
		t.Errorf("freed %d bytes, said %v: want the dead process's file only", freed, said)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a live process's file was removed: %v", err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead process's file is still there: %v", err)
	}
}
