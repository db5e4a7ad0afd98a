package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestPrepareTestFileGrowRemove(t *testing.T) {
	dir := t.TempDir()
	f, err := PrepareTestFile(context.Background(), dir, 4<<20+123, nil, nil)
	if errors.Is(err, unix.EINVAL) {
		t.Skipf("no direct I/O on %s: %v", dir, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(f.Path)
	if err != nil || fi.Size() != 4<<20 || f.SizeBytes != 4<<20 || f.LayoutBytes != 4<<20 || f.LayoutMBPerS <= 0 {
		t.Fatalf("file %+v, stat %v %v: want 4 MiB laid out (size rounded down to whole MiB)", f, fi, err)
	}
	if f.Dir != dir || !hasMark(f.Path) && xattrsWork(dir) {
		t.Errorf("file %s: want it in %s and marked as iomark's", f.Path, dir)
	}
	// ext4 (this test's directory) has O_TMPFILE: the file has no name to leave behind.
	if ents, _ := os.ReadDir(dir); !f.Unnamed || len(ents) != 0 {
		t.Errorf("unnamed %v, directory holds %d entries: want an unnamed file and an empty directory", f.Unnamed, len(ents))
	}
	n, err := f.Grow(context.Background(), 6<<20, nil, nil)
	if err != nil || n != 2<<20 || f.SizeBytes != 6<<20 || f.LayoutBytes != 6<<20 {
		t.Fatalf("grow: %d, %v, %+v: want only the 2 MiB added written", n, err, f)
	}
	fd, err := unix.Open(f.Path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if hasHole(fd, 6<<20) {
		t.Error("the laid-out file has a hole")
	}
	unix.Close(fd)
	if n, err := f.Grow(context.Background(), 5<<20, nil, nil); n != 0 || err != nil {
		t.Errorf("shrinking grow wrote %d (%v)", n, err)
	}
	if err := DropCache(f.Path); err != nil {
		t.Error(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(f.Path, &st); err != nil {
		t.Fatal(err)
	}
	if err := f.Remove(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(f.Path); err == nil && fi.Sys().(*syscall.Stat_t).Ino == st.Ino {
		t.Errorf("file still there after Remove")
	}
	if err := f.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

func TestPrepareTestFileCancelledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := PrepareTestFile(ctx, dir, 8<<20, nil, nil)
	if errors.Is(err, unix.EINVAL) {
		t.Skipf("no direct I/O on %s", dir)
	}
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("err = %v, want ErrInterrupted", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".iomark-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if _, err := PrepareTestFile(context.Background(), dir, 1000, nil, nil); err == nil {
		t.Error("a test file below 1 MiB was accepted")
	}
}

func xattrsWork(dir string) bool {
	p := filepath.Join(dir, "x")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		return false
	}
	defer os.Remove(p)
	return unix.Setxattr(p, "user.iomark-probe", []byte("1"), 0) == nil
}
