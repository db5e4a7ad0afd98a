package probe

import "testing"

// TestKernelReleaseFromProcVersion: a tree with /proc/version but no /proc/sys (what
// --root is often given) still names the kernel; it printed "kernel -" before.
func TestKernelReleaseFromProcVersion(t *testing.T) {
	root := t.TempDir()
	writeTreeFile(t, root, "proc/version", "Linux version 6.1.0-56-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2 (2026-10-10)\n")
	if k := kernelRelease(Options{Root: root}); k != "6.1.0-56-amd64" {
		t.Errorf("kernel = %q", k)
	}
	writeTreeFile(t, root, "proc/sys/kernel/osrelease", "6.12.95+deb12-amd64\n")
	if k := kernelRelease(Options{Root: root}); k != "6.12.95+deb12-amd64" {
		t.Errorf("osrelease first: %q", k)
	}
	empty := t.TempDir()
	writeTreeFile(t, empty, "proc/version", "garbage\n")
	if k := kernelRelease(Options{Root: empty}); k != "" {
		t.Errorf("garbage: %q", k)
	}
}

// The kernel's machine name comes from the tree's sysctl file; a tree without it says nothing
// (uname would describe this machine, not the tree's); the live system always has one.
func TestKernelArch(t *testing.T) {
	root := t.TempDir()
	if a := kernelArch(Options{Root: root}); a != "" {
		t.Errorf("a tree without proc/sys/kernel/arch: %q", a)
	}
	writeTreeFile(t, root, "proc/sys/kernel/arch", "aarch64\n")
	if a := kernelArch(Options{Root: root}); a != "aarch64" {
		t.Errorf("arch = %q, want aarch64", a)
	}
	if a := kernelArch(Options{}); a == "" {
		t.Error("the live system has no machine name")
	}
}
