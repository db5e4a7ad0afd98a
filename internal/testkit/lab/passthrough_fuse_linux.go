package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/testkit"
)

// PassthroughFS mounts a FUSE filesystem that passes every call through to dir (go-fuse's
// loopback), served by this process, and returns its mount point; the test's cleanup
// unmounts it. It stands for the filesystems without O_TMPFILE a user's drive may carry
// (vfat, exfat and most FUSE filesystems): this kernel builds neither vfat nor exfat. It
// ends the test where /dev/fuse is missing (testkit.Require).
func PassthroughFS(t testing.TB, dir string) string {
	t.Helper()
	if _, err := os.Stat("/dev/fuse"); err != nil {
		testkit.Require(t, fmt.Sprintf("no /dev/fuse (modprobe fuse): %v", err))
	}
	sweepPassthroughs()
	root, err := fs.NewLoopbackRoot(dir)
	if err != nil {
		t.Fatalf("lab: passthrough of %s: %v", dir, err)
	}
	mnt, err := os.MkdirTemp("", ownedPrefix()+"fuse-")
	if err != nil {
		t.Fatal(err)
	}
	server, err := fs.Mount(mnt, root, &fs.Options{MountOptions: fuse.MountOptions{FsName: "iomark-passthrough", Name: "iomarkpass", DirectMount: true}})
	if err != nil {
		os.Remove(mnt)
		t.Fatalf("lab: mount a passthrough of %s on %s: %v", dir, mnt, err)
	}
	t.Cleanup(func() {
		if err := server.Unmount(); err != nil {
			t.Errorf("lab: unmount %s: %v", mnt, err)
		}
		if err := os.Remove(mnt); err != nil {
			t.Errorf("lab: %v", fmt.Errorf("remove %s: %w", mnt, err))
		}
	})
	return mnt
}

// passthroughType is how passthrough mounts appear in /proc/self/mountinfo.
const passthroughType = "fuse.iomarkpass"

// sweepPassthroughs unmounts passthrough mounts left by test processes that died before
// their cleanup (their server died with them: every access would fail), and removes their
// mount points. Mounts of live processes are left alone.
func sweepPassthroughs() {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return
	}
	for _, mnt := range mountPointsWhere(string(b), func(m probe.MountEntry) bool { return m.FSType == passthroughType }) {
		if pid := ownerPID(filepath.Base(mnt)); pid != 0 && !alive(pid) {
			if _, err := run("umount", "-l", mnt); err == nil {
				os.Remove(mnt)
			}
		}
	}
}
