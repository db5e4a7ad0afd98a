package probe

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Near is an existing path close to one that does not exist: what a user who mistyped a
// path most likely meant.
type Near struct {
	Path string `json:"path"`
	// MountPoint is set when Path is where a block device is mounted, and What then says
	// which drive that is ("the microSD card mmcblk0p1").
	MountPoint bool   `json:"mount_point,omitempty"`
	What       string `json:"what,omitempty"`
	distance   int
}

// NearPaths returns existing paths within a few typing mistakes of path, which does not
// exist, best first: mount points of block devices (the drives a benchmark is meant for),
// then by how few edits away they are. It never offers a path on another filesystem merely
// because it is a parent of path: every suggestion is a whole path that exists.
func NearPaths(path string, o Options) []Near {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	abs = filepath.Clean(abs)
	seen := map[string]bool{}
	var out []Near
	add := func(p string, d int) {
		if seen[p] || p == abs {
			return
		}
		if _, err := os.Stat(p); err != nil {
			return
		}
		seen[p] = true
		out = append(out, Near{Path: p, distance: d})
	}
	// A mistyped component: the nearest existing directory's entries close to the first
	// missing name, with the rest of the path after it.
	parent, missing, rest := splitAtMissing(abs)
	if missing != "" {
		if ents, err := os.ReadDir(parent); err == nil {
			for _, e := range ents {
				if d := editDistance(missing, e.Name()); d <= maxEdits(missing) {
					add(filepath.Join(parent, e.Name(), rest), d)
				}
			}
		}
	}
	// A mount point close to the path, or to the start of it (a typo deeper than one name).
	mounts, _ := readMounts(o)
	blockMounts := map[string]MountEntry{}
	for _, m := range mounts {
		if !strings.HasPrefix(m.Source, "/dev/") {
			continue
		}
		mp := filepath.Clean(m.MountPoint)
		blockMounts[mp] = m
		if d := editDistance(abs, mp); d <= maxEdits(filepath.Base(abs)) {
			add(mp, d)
		}
		if len(abs) > len(mp) {
			head, tail := abs[:len(mp)], abs[len(mp):]
			if strings.HasPrefix(tail, "/") && head != mp {
				if d := editDistance(head, mp); d <= maxEdits(filepath.Base(head)) {
					add(mp+tail, d)
				}
			}
		}
	}
	for i := range out {
		if m, ok := blockMounts[out[i].Path]; ok {
			out[i].MountPoint = true
			out[i].What = describeMount(out[i].Path, m, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].MountPoint != out[j].MountPoint {
			return out[i].MountPoint
		}
		return out[i].distance < out[j].distance
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// splitAtMissing splits abs at its first component that does not exist: the existing
// directory above it, that component's name, and what follows it.
func splitAtMissing(abs string) (parent, missing, rest string) {
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	dir := "/"
	for i, p := range parts {
		next := filepath.Join(dir, p)
		if _, err := os.Stat(next); err != nil {
			return dir, p, filepath.Join(parts[i+1:]...)
		}
		dir = next
	}
	return dir, "", ""
}

// maxEdits is how many typing mistakes a name of this length may carry and still be
// recognised: one in a short name, up to three in a long one.
func maxEdits(name string) int {
	switch n := len([]rune(name)); {
	case n <= 4:
		return 1
	case n <= 10:
		return 2
	default:
		return 3
	}
}

// editDistance is the optimal-string-alignment distance: insertions, deletions,
// substitutions and swaps of two neighbours (SDCRAD for SDCARD) count one each.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// describeMount names the drive mounted at mp for a suggestion: "the microSD card
// (mmcblk0p1)".
func describeMount(mp string, m MountEntry, o Options) string {
	src := strings.TrimPrefix(m.Source, "/dev/")
	o.NoIoctl = true // a suggestion sends no command to any drive
	r, err := Probe(mp, o)
	if err != nil || r.Device == nil {
		return src
	}
	noun := map[string]string{
		ClassMicroSD: "the microSD card", ClassEMMC: "the eMMC", ClassUSBFlash: "the USB flash drive",
		ClassUSBSSD: "the USB SSD", ClassUSBHDD: "the USB hard disk", ClassNVMe: "the NVMe drive",
		ClassSATA: "the SATA drive", ClassSATASSD: "the SATA SSD", ClassSATAHDD: "the SATA hard disk",
		ClassVirtio: "the virtual disk", ClassLoop: "the loop device",
	}[r.Device.Class]
	if noun == "" {
		return src
	}
	return noun + " (" + src + ")"
}
