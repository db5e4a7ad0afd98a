package probe

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// resolved is where a target lives.
type resolved struct {
	target   string      // absolute path as the user meant it
	mount    *MountEntry // the filesystem holding it; nil for an unmounted block device
	blockDir string      // sysfs directory of the partition or disk; "" when not on a block device
}

// errNoStat is returned by statTarget on systems without device numbers.
var errNoStat = errors.New("device numbers are not available on this system")

// resolveTarget maps a path or device to its mount and block device. On the live system it
// uses the device numbers stat(2) reports (bind mounts and symlinks then resolve to what the
// kernel really uses); under a fixture root it matches names and mount points instead.
func resolveTarget(o Options, target string, mounts []MountEntry) (resolved, error) {
	abs := absTarget(o, target)
	if o.live() {
		return resolveLive(o, target, abs, mounts)
	}
	// Fixture root: /dev/NAME names a block device, anything else is a path in the mount table.
	if res, ok, err := deviceByName(o, abs, mounts); ok {
		return res, err
	}
	res := resolved{target: abs}
	m, ok := mountFor(mounts, abs, nil)
	if !ok {
		return res, fmt.Errorf("%s: no mount in %s holds it", target, o.path("/proc/self/mountinfo"))
	}
	res.mount = &m
	if d, ok := blockDirByDevnum(o, m.Major, m.Minor); ok {
		res.blockDir = d
	} else {
		res.blockDir = blockFromSource(o, &m)
	}
	return res, nil
}

// absTarget is target as an absolute, clean path. A bare kernel name ("sda1", "nvme0n1") that
// is not a file here means that block device.
func absTarget(o Options, target string) string {
	if !strings.Contains(target, "/") && exists(o.path("/sys/class/block/"+target)) && (!o.live() || !exists(target)) {
		target = "/dev/" + target
	}
	abs := target
	if !filepath.IsAbs(abs) {
		if !o.live() {
			abs = "/" + abs
		} else if a, err := filepath.Abs(target); err == nil {
			abs = a
		}
	}
	return filepath.Clean(abs)
}

// resolveLive resolves abs on the live system by the device numbers stat(2) reports.
func resolveLive(o Options, target, abs string, mounts []MountEntry) (resolved, error) {
	res := resolved{target: abs}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		// Containers often lack /dev nodes: a /dev/NAME that sysfs knows is still that device.
		if byName, ok, nameErr := deviceByName(o, abs, mounts); ok && nameErr == nil {
			return byName, nil
		}
		return res, fmt.Errorf("%s: %w — give an existing directory, file or block device", target, err)
	}
	dev, isBlock, err := statTarget(real)
	switch {
	case err == nil && isBlock:
		res.blockDir, _ = blockDirByDevnum(o, dev[0], dev[1])
		if res.blockDir == "" {
			return res, fmt.Errorf("%s is a block device but %s has no entry for %d:%d — is /sys mounted?", target, o.path("/sys/dev/block"), dev[0], dev[1])
		}
		res.mount = mountOfDevice(mounts, dev)
		return res, nil
	case err == nil:
		if m, ok := mountFor(mounts, real, &dev); ok {
			res.mount = &m
		} else if m, ok := mountFor(mounts, real, nil); ok {
			res.mount = &m
		}
		if d, ok := blockDirByDevnum(o, dev[0], dev[1]); ok {
			res.blockDir = d
			return res, nil
		}
	case !errors.Is(err, errNoStat):
		return res, fmt.Errorf("%s: %w", target, err)
	default:
		if m, ok := mountFor(mounts, real, nil); ok {
			res.mount = &m
		}
	}
	res.blockDir = blockFromSource(o, res.mount)
	return res, nil
}

// deviceByName resolves a /dev/NAME by sysfs alone, with the mount of that device if any;
// ok is false when abs is not of that form.
func deviceByName(o Options, abs string, mounts []MountEntry) (res resolved, ok bool, err error) {
	res.target = abs
	name, ok := strings.CutPrefix(abs, "/dev/")
	if !ok || strings.Contains(name, "/") {
		return res, false, nil
	}
	d, err := blockDir(o, name)
	if err != nil {
		return res, true, err
	}
	res.blockDir = d
	if dev, ok := devnum(d); ok {
		res.mount = mountOfDevice(mounts, dev)
	}
	return res, true, nil
}

// blockFromSource handles filesystems whose st_dev is anonymous (btrfs, and 0:N devices in
// general): the mount source /dev/NAME names the block device.
func blockFromSource(o Options, m *MountEntry) string {
	if m == nil || !strings.HasPrefix(m.Source, "/dev/") {
		return ""
	}
	src := m.Source
	if o.live() {
		if r, err := filepath.EvalSymlinks(src); err == nil { // /dev/mapper/x -> /dev/dm-0
			src = r
		}
	}
	d, err := blockDir(o, filepath.Base(src))
	if err != nil {
		return ""
	}
	return d
}

// mountOfDevice finds where a block device is mounted, preferring the shortest mount point
// (the filesystem's main mount over bind mounts of parts of it).
func mountOfDevice(mounts []MountEntry, dev [2]uint32) *MountEntry {
	var best *MountEntry
	for i := range mounts {
		m := &mounts[i]
		if m.Major != dev[0] || m.Minor != dev[1] {
			continue
		}
		if best == nil || m.Root == "/" && best.Root != "/" || len(m.MountPoint) < len(best.MountPoint) && (m.Root == "/") == (best.Root == "/") {
			best = m
		}
	}
	return best
}

// devnum reads a block directory's "dev" attribute (MAJ:MIN).
func devnum(dir string) ([2]uint32, bool) {
	var maj, min uint32
	if _, err := fmt.Sscanf(readString(filepath.Join(dir, "dev")), "%d:%d", &maj, &min); err != nil {
		return [2]uint32{}, false
	}
	return [2]uint32{maj, min}, true
}
