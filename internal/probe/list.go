package probe

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ListEntry is one whole disk in `iomark list`.
type ListEntry struct {
	Name          string   `json:"name"`
	Class         string   `json:"class"`
	Vendor        string   `json:"vendor,omitempty"`
	Model         string   `json:"model,omitempty"`
	CapacityBytes uint64   `json:"capacity_bytes,omitempty"`
	Link          string   `json:"link,omitempty"` // one-line summary of the first hop
	Hops          []Hop    `json:"hops,omitempty"`
	CeilingMBPerS float64  `json:"ceiling_mb_per_s,omitempty"`
	Partitions    []string `json:"partitions,omitempty"`
	MountPoints   []string `json:"mount_points,omitempty"`
}

// List describes every whole disk in /sys/block that has a size (empty loop devices, RAM
// disks and hidden NVMe path devices are left out). It issues no ioctls: listing must be instant and safe.
func List(o Options) ([]ListEntry, error) {
	dir := o.path("/sys/block")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list block devices in %s: %w (is /sys mounted?)", dir, err)
	}
	mounts, _ := readMounts(o)
	noIoctl := o
	noIoctl.NoIoctl = true
	var out []ListEntry
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, "ram") {
			continue
		}
		d, err := blockDir(o, name)
		if err != nil {
			continue
		}
		if size, ok := readInt(filepath.Join(d, "size")); !ok || size == 0 {
			continue
		}
		// NVMe multipath path devices (nvme0c0n1) are hidden: the head nvme0n1 stands for them.
		if h, _ := readInt(filepath.Join(d, "hidden")); h == 1 {
			continue
		}
		r := &Report{Target: "/dev/" + name}
		describeDisk(noIoctl, r, d)
		le := ListEntry{Name: name, Class: r.Device.Class, Vendor: r.Device.Vendor, Model: r.Device.Model,
			CapacityBytes: r.Device.CapacityBytes, Hops: r.Link, CeilingMBPerS: r.CeilingMBPerS}
		if len(r.Link) > 0 {
			le.Link = r.Link[0].Summary()
		}
		le.MountPoints = append(le.MountPoints, mountPointsOf(mounts, d)...)
		parts, _ := os.ReadDir(d)
		for _, p := range parts {
			pd := filepath.Join(d, p.Name())
			if !strings.HasPrefix(p.Name(), name) || !isPartition(pd) {
				continue
			}
			le.Partitions = append(le.Partitions, p.Name())
			le.MountPoints = append(le.MountPoints, mountPointsOf(mounts, pd)...)
		}
		out = append(out, le)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func mountPointsOf(mounts []MountEntry, blockDir string) []string {
	dev, ok := devnum(blockDir)
	if !ok {
		return nil
	}
	var out []string
	for _, m := range mounts {
		if m.Major == dev[0] && m.Minor == dev[1] {
			out = append(out, m.MountPoint)
		}
	}
	return out
}
