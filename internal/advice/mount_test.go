package advice

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestMountSync(t *testing.T) {
	m := func(sync bool) *probe.Report {
		return &probe.Report{Mount: &probe.Mount{MountPoint: "/media/usb0", FSType: "vfat", Sync: sync}}
	}
	check(t, "sync", mountSync, m(true), "mount-sync:bad")
	check(t, "async", mountSync, m(false))
	check(t, "no mount", mountSync, &probe.Report{})
}

func TestFSFAT(t *testing.T) {
	for _, fs := range []string{"vfat", "msdos", "exfat", "ntfs", "ntfs3", "fuseblk"} {
		check(t, fs, fsFAT, &probe.Report{Mount: &probe.Mount{MountPoint: "/m", FSType: fs}}, "fs-fat:warn")
	}
	for _, fs := range []string{"ext4", "xfs", "btrfs", "f2fs", "tmpfs"} {
		check(t, fs, fsFAT, &probe.Report{Mount: &probe.Mount{MountPoint: "/m", FSType: fs}})
	}
	check(t, "no mount", fsFAT, &probe.Report{})
}
