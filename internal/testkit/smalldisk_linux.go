package testkit

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size bytes for the test, a disk a test can fill, and returns its
// directory, owned by owner (a database server's user) when owner is not empty. The test's
// cleanup unmounts and removes it. It needs root (Require otherwise).
func SmallDisk(t testing.TB, size int64, owner string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		Require(t, "mounting a small tmpfs to fill needs root: run the tests as root (sudo) to check full disks")
	}
	dir, err := os.MkdirTemp("", "iomark-full-")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		os.Remove(dir)
		t.Fatalf("mounting a %d-byte tmpfs on %s: %v", size, dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
		os.Remove(dir)
	})
	if owner != "" {
		u, err := user.Lookup(owner)
		if err != nil {
			t.Fatal(err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
