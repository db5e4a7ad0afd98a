package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/iomark/iomark/internal/probe/linkdb"
)

const sectorBytes = 512 // sysfs size and start are always in 512-byte sectors

// blockDir returns the resolved sysfs directory of block device name (disk or partition).
func blockDir(o Options, name string) (string, error) {
	p := o.path("/sys/class/block/" + name)
	dir, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("block device %s not found in %s: %w", name, o.path("/sys/class/block"), err)
	}
	return dir, nil
}

// blockDirByDevnum resolves /sys/dev/block/MAJ:MIN.
func blockDirByDevnum(o Options, major, minor uint32) (string, bool) {
	dir, err := filepath.EvalSymlinks(o.path(fmt.Sprintf("/sys/dev/block/%d:%d", major, minor)))
	return dir, err == nil
}

// isPartition reports whether a block directory is a partition (it has a "partition" file).
func isPartition(dir string) bool { return exists(filepath.Join(dir, "partition")) }

// readPartition reads a partition's number, start and size; alignment is from the disk's
// start, which is what erase blocks and RAID stripes care about.
func readPartition(dir string) *Partition {
	p := &Partition{Name: filepath.Base(dir)}
	if n, ok := readInt(filepath.Join(dir, "partition")); ok {
		p.Number = int(n)
	}
	start, ok := readInt(filepath.Join(dir, "start"))
	if !ok || start < 0 {
		return nil
	}
	p.StartBytes = uint64(start) * sectorBytes
	if size, ok := readInt(filepath.Join(dir, "size")); ok && size > 0 {
		p.SizeBytes = uint64(size) * sectorBytes
	}
	p.Aligned1MiB = p.StartBytes%(1<<20) == 0
	p.Aligned4MiB = p.StartBytes%(4<<20) == 0
	return p
}

// DiskPartitions lists the partitions of whole disk name (e.g. mmcblk0) from sysfs, in
// the kernel's order; none for a disk without a partition table.
func DiskPartitions(o Options, name string) ([]Partition, error) {
	dir, err := blockDir(o, name)
	if err != nil {
		return nil, err
	}
	if isPartition(dir) {
		return nil, fmt.Errorf("%s is a partition, not a disk", name)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", dir, err)
	}
	var out []Partition
	for _, e := range entries {
		pd := filepath.Join(dir, e.Name())
		if !isPartition(pd) {
			continue
		}
		if p := readPartition(pd); p != nil {
			out = append(out, *p)
		}
	}
	return out, nil
}

// readQueue reads the block layer attributes of a whole disk.
func readQueue(diskDir string) *Queue {
	q := &Queue{}
	qd := filepath.Join(diskDir, "queue")
	if !exists(qd) {
		return nil
	}
	q.Scheduler = activeScheduler(readString(filepath.Join(qd, "scheduler")))
	if v, ok := readInt(filepath.Join(qd, "read_ahead_kb")); ok {
		kb := int(v)
		q.ReadAheadKB = &kb
	}
	if v, ok := readInt(filepath.Join(qd, "rotational")); ok {
		rot := v == 1
		q.Rotational = &rot
	}
	if v, ok := readInt(filepath.Join(qd, "discard_max_bytes")); ok {
		d := v > 0
		q.Discard = &d
	}
	if v, ok := readInt(filepath.Join(qd, "logical_block_size")); ok {
		q.LogicalBlockBytes = int(v)
	}
	if v, ok := readInt(filepath.Join(qd, "physical_block_size")); ok {
		q.PhysicalBlockBytes = int(v)
	}
	if v, ok := readInt(filepath.Join(qd, "nr_requests")); ok {
		q.NrRequests = int(v)
	}
	return q
}

// activeScheduler picks the bracketed entry of "none [mq-deadline] kyber"; a single word
// (as "none" on devices without a choice) stands for itself.
func activeScheduler(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > 0 {
			return s[i+1 : i+j]
		}
		return ""
	}
	if f := strings.Fields(s); len(f) == 1 {
		return f[0]
	}
	return ""
}

// readDevice fills the identity that every disk has: size, flags, SCSI vendor/model.
func readDevice(o Options, diskDir string) *Device {
	name := filepath.Base(diskDir)
	d := &Device{Name: name, Path: "/dev/" + name, Class: ClassOther}
	if size, ok := readInt(filepath.Join(diskDir, "size")); ok && size > 0 {
		d.CapacityBytes = uint64(size) * sectorBytes
	}
	if v, ok := readInt(filepath.Join(diskDir, "removable")); ok {
		d.Removable = v == 1
	}
	if v, ok := readInt(filepath.Join(diskDir, "ro")); ok {
		d.ReadOnly = v == 1
	}
	// SCSI disks (USB, SATA) carry INQUIRY vendor and model on the SCSI device.
	d.Vendor = readString(filepath.Join(diskDir, "device", "vendor"))
	d.Model = readString(filepath.Join(diskDir, "device", "model"))
	if s := readString(filepath.Join(diskDir, "serial")); s != "" { // virtio-blk
		d.SerialHash = hashSerial(s)
	}
	d.Sysfs = o.unroot(diskDir)
	return d
}

// hashSerial keeps serial numbers comparable without publishing them: a record never carries one.
func hashSerial(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// slaves lists the devices a stacked device (dm, md) is built on.
func slaves(diskDir string) []string {
	ents, err := os.ReadDir(filepath.Join(diskDir, "slaves"))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

var (
	rePCI      = regexp.MustCompile(`^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`)
	reUSBDev   = regexp.MustCompile(`^[0-9]+-[0-9]+(\.[0-9]+)*$`)
	reUSBIface = regexp.MustCompile(`^[0-9]+-[0-9]+(\.[0-9]+)*:[0-9]+\.[0-9]+$`)
	reUSBRoot  = regexp.MustCompile(`^usb[0-9]+$`)
	reATAPort  = regexp.MustCompile(`^ata[0-9]+$`)
	reNVMeCtrl = regexp.MustCompile(`^nvme[0-9]+$`)
	reVirtio   = regexp.MustCompile(`^virtio[0-9]+$`)
)

// ancestors returns diskDir and every parent directory up to (excluding) /sys/devices,
// deepest first: the walk from the device up to the CPU.
func ancestors(o Options, diskDir string) []string {
	top := filepath.Clean(o.path("/sys/devices"))
	var out []string
	for d := filepath.Clean(diskDir); d != top && strings.HasPrefix(d, top+"/"); d = filepath.Dir(d) {
		out = append(out, d)
	}
	return out
}

// findUp returns the deepest ancestor whose base name matches re.
func findUp(dirs []string, re *regexp.Regexp) (string, bool) {
	for _, d := range dirs {
		if re.MatchString(filepath.Base(d)) {
			return d, true
		}
	}
	return "", false
}

// parseGbps reads "6.0 Gbps" (libata) as 6.0; "<unknown>" gives false.
func parseGbps(s string) (float64, bool) { return linkdb.ParseSATASpeed(s) }
