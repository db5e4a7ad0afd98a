package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// mountSync: the sync mount option makes every write wait for the device, which costs an
// order of magnitude on flash.
func mountSync(r *probe.Report) []record.Finding {
	m := r.Mount
	if m == nil || !m.Sync {
		return nil
	}
	return one(record.Finding{
		ID:       "mount-sync",
		Severity: record.SeverityBad,
		Message:  fmt.Sprintf("%s is mounted with sync: every write waits for the device, which is many times slower on flash and wears it faster", m.MountPoint),
		Fix:      fmt.Sprintf("remove sync from the options of %s in /etc/fstab (or the automounter's settings) and remount", m.MountPoint),
		Evidence: fmt.Sprintf("mount options %q, superblock options %q", m.Options, m.SuperOptions),
	})
}

// fatTypes are filesystems whose Linux drivers are slower than ext4 for small and random I/O
// (FAT's allocation table, exFAT, NTFS through FUSE or ntfs3).
var fatTypes = map[string]string{
	"vfat":    "FAT32",
	"msdos":   "FAT",
	"exfat":   "exFAT",
	"ntfs":    "NTFS",
	"ntfs3":   "NTFS",
	"fuseblk": "a FUSE filesystem (exFAT or NTFS via ntfs-3g)",
}

// fsFAT: FAT, exFAT and NTFS are slower on Linux than ext4; results will not compare.
func fsFAT(r *probe.Report) []record.Finding {
	m := r.Mount
	if m == nil {
		return nil
	}
	name, ok := fatTypes[m.FSType]
	if !ok {
		return nil
	}
	return one(record.Finding{
		ID:       "fs-fat",
		Severity: record.SeverityWarn,
		Message:  fmt.Sprintf("%s is %s: slower on Linux than ext4, especially for small and random writes", m.MountPoint, name),
		Fix:      "for speed on Linux (and results comparable with others) use ext4; keep FAT/exFAT only where another OS must read the drive",
		Evidence: "filesystem type " + m.FSType,
	})
}
