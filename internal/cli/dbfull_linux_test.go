package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// tinyDisk mounts a tmpfs of size bytes for the test and returns its directory. Mounting needs
// root; CI runs the tests as root.
func tinyDisk(t *testing.T, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		testkit.Require(t, "mounting a small tmpfs to fill needs root: run the tests as root (sudo)")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		t.Fatalf("mounting a %d-byte tmpfs on %s: %v", size, dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
	return dir
}

// fillUp writes zeros to a file in dir until its filesystem is full.
func fillUp(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for len(buf) > 0 {
		if _, err := f.Write(buf); err != nil {
			buf = buf[:len(buf)/2]
		}
	}
}

// TestRunChecksItsDatabaseFirst: `iomark run --db` on a full filesystem refuses before any
// I/O (no test file laid out, nothing measured) and exits non-zero.
func TestRunChecksItsDatabaseFirst(t *testing.T) {
	disk := tinyDisk(t, 8<<20)
	db := filepath.Join(disk, "results.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	fillUp(t, disk)
	target := t.TempDir()
	code, out, errOut := runCLI(t, "run", target, "--db", db)
	t.Logf("iomark run --db on a full filesystem: exit %d\n%s%s", code, out, errOut)
	if code != exitFailure || !strings.Contains(errOut, "bytes free") || !strings.Contains(errOut, "--no-save") {
		t.Errorf("exit %d; want %d naming the free space and --no-save", code, exitFailure)
	}
	if strings.Contains(errOut, "laying out") || strings.Contains(errOut, "[1/") || out != "" {
		t.Errorf("the run started before its database was checked")
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("the refused run left %v", ents)
	}
}

// TestUnsavedRunIsKept: a run whose save fails (its database's filesystem filled up while it
// ran) exits non-zero, keeps the record as JSON in $XDG_STATE_HOME/iomark/unsaved/ and names
// the command that saves it later; that command saves it and removes the kept file.
func TestUnsavedRunIsKept(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "cli-unsaved", SizeMB: 1024, ReadIOPS: 2600, WriteIOPS: 700, ReadMBps: 40, WriteMBps: 20, FS: "ext4"})
	disk := tinyDisk(t, 8<<20)
	db := filepath.Join(disk, "results.db")
	state := t.TempDir()

	cmd := cliCommand("run", d.Mnt, "--db", db)
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state)
	// An interrupted run is saved too, and sooner.
	errOut := interruptAfterFirstTest(t, cmd, func() { fillUp(t, disk) })
	t.Logf("iomark run, its database's filesystem filled during the run:\n%s", errOut)
	if code := cmd.ProcessState.ExitCode(); code == 0 {
		t.Errorf("exit 0 after a failed save")
	}
	kept, _ := filepath.Glob(filepath.Join(state, "iomark", "unsaved", "*.json"))
	if len(kept) != 1 {
		t.Fatalf("kept records: %v", kept)
	}
	want := "save it with `iomark save " + kept[0] + " --db '" + db + "'`"
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr does not say %q", want)
	}
	other := filepath.Join(t.TempDir(), "other.db")
	t.Setenv("XDG_STATE_HOME", state)
	code, out, errOut := runCLI(t, "save", kept[0], "--db", other)
	t.Logf("iomark save: exit %d\n%s%s", code, out, errOut)
	if code != 0 || !strings.Contains(out, "saved in "+other) {
		t.Errorf("iomark save: exit %d", code)
	}
	if _, err := os.Stat(kept[0]); !os.IsNotExist(err) {
		t.Errorf("the kept record is still there after it was saved: %v", err)
	}
	if code, out, _ := runCLI(t, "history", "--db", other); code != 0 || !strings.Contains(out, "(interrupted)") {
		t.Errorf("the saved record is not in history:\n%s", out)
	}
}
