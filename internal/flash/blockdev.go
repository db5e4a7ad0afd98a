package flash

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe"
)

// Disk is what sysfs and procfs say about a whole disk a probe is asked to write.
type Disk struct {
	Name              string // kernel name: sdb, mmcblk0, loop3
	MajMin            string // "8:16"
	SizeBytes         int64  // sysfs size × 512
	LogicalBlockBytes int
	ReadOnly          bool
	Removable         bool
	// InUse says why the disk must not be written ("" when free): mounted, swap, held.
	InUse string
	// PreferredEraseBytes is sysfs's preferred_erase_size of an MMC/SD card (0 if absent).
	PreferredEraseBytes int64
}

// ErrPartition is wrapped by CheckDisk's error for a partition.
type ErrPartition struct {
	Partition, Disk string
}

func (e *ErrPartition) Error() string {
	return fmt.Sprintf("/dev/%s is a partition of /dev/%s: a fake card lies about the size of the whole disk, so verify /dev/%s (the probe saves and restores what it overwrites)", e.Partition, e.Disk, e.Disk)
}

// CheckDisk reads what sysfs (root/sys) and procfs (root/proc) say about the block device
// majMin and refuses what a probe must not write: a partition (it names the disk to give
// instead). A read-only or busy disk is reported in the Disk (ReadOnly, InUse) for the
// caller to refuse with its own words. root "" is the live system.
func CheckDisk(root, majMin string) (*Disk, error) {
	sysDir, err := filepath.EvalSymlinks(filepath.Join(root, "/sys/dev/block", majMin))
	if err != nil {
		return nil, fmt.Errorf("block device %s is not in sysfs (%v): did it go away?", majMin, err)
	}
	name := filepath.Base(sysDir)
	if exists(filepath.Join(sysDir, "partition")) {
		return nil, &ErrPartition{Partition: name, Disk: filepath.Base(filepath.Dir(sysDir))}
	}
	d := &Disk{Name: name, MajMin: majMin}
	sectors, err := readInt(filepath.Join(sysDir, "size"))
	if err != nil {
		return nil, fmt.Errorf("reading the size of %s: %w", name, err)
	}
	d.SizeBytes = sectors * 512
	if lbs, err := readInt(filepath.Join(sysDir, "queue", "logical_block_size")); err == nil && lbs > 0 {
		d.LogicalBlockBytes = int(lbs)
	} else {
		d.LogicalBlockBytes = 512
	}
	ro, _ := readInt(filepath.Join(sysDir, "ro"))
	d.ReadOnly = ro == 1
	rm, _ := readInt(filepath.Join(sysDir, "removable"))
	d.Removable = rm == 1
	if pe, err := readInt(filepath.Join(sysDir, "device", "preferred_erase_size")); err == nil {
		d.PreferredEraseBytes = pe
	}

	// The disk and its partitions: any of them mounted, used as swap or held by another
	// driver (device mapper, md) makes the disk busy.
	members := map[string]string{majMin: name} // maj:min -> name
	entries, _ := os.ReadDir(sysDir)
	for _, e := range entries {
		pdir := filepath.Join(sysDir, e.Name())
		if !exists(filepath.Join(pdir, "partition")) {
			continue
		}
		if mm, err := readString(filepath.Join(pdir, "dev")); err == nil {
			members[mm] = e.Name()
		}
	}
	d.InUse = inUse(root, sysDir, members)
	return d, nil
}

func inUse(root, sysDir string, members map[string]string) string {
	if f, err := os.Open(filepath.Join(root, "/proc/self/mountinfo")); err == nil {
		mounts, _ := probe.ParseMountinfo(f)
		f.Close()
		for _, m := range mounts {
			if name, ok := members[fmt.Sprintf("%d:%d", m.Major, m.Minor)]; ok {
				return fmt.Sprintf("/dev/%s is mounted on %s: unmount it first (sudo umount %s), or verify that directory instead (fill mode)", name, m.MountPoint, m.MountPoint)
			}
		}
	}
	names := map[string]bool{}
	for _, n := range members {
		names["/dev/"+n] = true
	}
	if b, err := os.ReadFile(filepath.Join(root, "/proc/swaps")); err == nil {
		for _, line := range strings.Split(string(b), "\n")[1:] {
			if f := strings.Fields(line); len(f) > 0 && names[f[0]] {
				return fmt.Sprintf("%s is in use as swap: swapoff %s first", f[0], f[0])
			}
		}
	}
	for mm, n := range members {
		dir := sysDir
		if n != filepath.Base(sysDir) {
			dir = filepath.Join(sysDir, n)
		}
		if holders, _ := os.ReadDir(filepath.Join(dir, "holders")); len(holders) > 0 {
			return fmt.Sprintf("/dev/%s (%s) is held by %s (device mapper, RAID or LVM): release it first", n, mm, holders[0].Name())
		}
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func readString(p string) (string, error) {
	b, err := os.ReadFile(p)
	return strings.TrimSpace(string(b)), err
}

func readInt(p string) (int64, error) {
	s, err := readString(p)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(s, 10, 64)
}
