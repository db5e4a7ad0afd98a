package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// TargetInfo is what a target path is, as iomark decides what it may do with it: read
// without any I/O on the drive (stat, xattrs, the size ioctl, mountinfo). `iomark run` and
// `iomark job` both decide through InspectTarget and WriteRefusal, so the two commands treat
// every path alike.
type TargetInfo struct {
	Path string
	Kind string // "dir", "file" or "block"
	// SizeBytes is a file's or block device's size (0 for a directory).
	SizeBytes int64
	// Marked: a file iomark created (user.iomark xattr), writable without --destructive.
	Marked bool
	// InUse says why a block device must not be written (mounted, swap, held); "" when free.
	InUse string
	rdev  uint64
}

// Target kinds, as TargetInfo.Kind and Result.TargetKind name them.
const (
	KindDir   = kindDir
	KindFile  = kindFile
	KindBlock = kindBlock
)

// InspectTarget says what path is as a benchmark target, and refuses what iomark must never
// use: a path that does not exist (iomark never creates a path the user did not name as a
// directory to test in; the error names the nearest existing directory), anything under
// /dev that is not a block device (a missing /dev/sdX would otherwise be a file in RAM), and
// character devices, pipes and sockets.
func InspectTarget(path string) (TargetInfo, error) {
	if path == "" {
		return TargetInfo{}, errors.New("no target: give a directory, a file or a block device")
	}
	info := TargetInfo{Path: path}
	var st unix.Stat_t
	err := unix.Stat(path, &st)
	switch {
	case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR):
		return info, missingTarget(path)
	case err != nil:
		return info, fmt.Errorf("target %s: %w", path, err)
	}
	mode := st.Mode & unix.S_IFMT
	if underDev(path) && mode != unix.S_IFBLK {
		return info, fmt.Errorf("%s is not a block device: under /dev only block devices are targets (`iomark list` shows the drives here); to test a filesystem, name a directory on it", path)
	}
	switch mode {
	case unix.S_IFDIR:
		info.Kind = kindDir
	case unix.S_IFREG:
		info.Kind, info.SizeBytes, info.Marked = kindFile, st.Size, hasMark(path)
	case unix.S_IFBLK:
		info.Kind, info.rdev = kindBlock, st.Rdev
		size, err := blockDeviceSize(path)
		if err != nil {
			return info, err
		}
		info.SizeBytes, info.InUse = size, deviceInUse(st.Rdev)
	default:
		return info, fmt.Errorf("%s is neither a directory, a regular file nor a block device: name a directory to test the filesystem it is on, or a block device (`iomark list`)", path)
	}
	return info, nil
}

// WriteRefusal says why jobs must not write to the target, or nil when they may: a block
// device needs --destructive and --confirm naming it again, and must not be mounted or held;
// a file iomark did not create needs --destructive. A directory is always writable here
// (its filesystem may still be read-only or full: the test file's creation says so).
func (i TargetInfo) WriteRefusal(destructive bool, confirm string) error {
	switch i.Kind {
	case kindBlock:
		if !destructive {
			return fmt.Errorf("%s is a block device: writing to it destroys its data — to allow it, pass --destructive --confirm %s; to benchmark without losing data, name a directory on a filesystem of that drive", i.Path, i.Path)
		}
		if !sameDevice(confirm, i.rdev) {
			return fmt.Errorf("--confirm %q does not name %s: give --confirm %s to allow destroying its data", confirm, i.Path, i.Path)
		}
		if i.InUse != "" {
			return fmt.Errorf("%s is in use (%s): iomark never writes to a mounted or used device — unmount it first", i.Path, i.InUse)
		}
	case kindFile:
		if !destructive && !i.Marked {
			return fmt.Errorf("%s exists and iomark did not create it: writing would overwrite its contents — pass --destructive to allow that, or name a directory (iomark then uses a temporary file)", i.Path)
		}
	}
	return nil
}

// MissingTarget is the error for a target that does not exist. The caller may add what the
// user likely meant (probe.NearPaths); the nearest existing directory is only named, never
// offered as a target: it is often another filesystem than the one named (/media, not the
// card that is not mounted at /media/pi/SDCRAD).
type MissingTarget struct {
	Path    string
	Nearest string // the closest existing directory above Path; "" under /dev
}

func (e *MissingTarget) Error() string {
	if e.Nearest == "" {
		return fmt.Sprintf("%s does not exist: there is no such block device here — `iomark list` shows the drives this machine has", e.Path)
	}
	return fmt.Sprintf("%s does not exist: iomark tests inside a directory you name and creates nothing else — the nearest existing directory is %s, which may be another filesystem than the one you meant; `iomark list` shows the drives and where they are mounted", e.Path, e.Nearest)
}

// missingTarget is the error for a path that does not exist.
func missingTarget(path string) error {
	if underDev(path) {
		return &MissingTarget{Path: path}
	}
	return &MissingTarget{Path: path, Nearest: nearestDir(path)}
}

// nearestDir is the closest existing directory above path ("/" at worst).
func nearestDir(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		if dir == filepath.Dir(dir) {
			return dir
		}
	}
}

// underDev reports whether path, as given or with its symlinks resolved, lies in /dev.
func underDev(path string) bool {
	in := func(p string) bool {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		p = filepath.Clean(p)
		return p == "/dev" || strings.HasPrefix(p, "/dev/")
	}
	if in(path) {
		return true
	}
	resolved, err := filepath.EvalSymlinks(path)
	return err == nil && in(resolved)
}

// blockDeviceSize opens the device read-only (no I/O) for its size.
func blockDeviceSize(path string) (int64, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, openError(path, false, err)
	}
	defer unix.Close(fd)
	n, err := blkSize(fd)
	if err != nil {
		return 0, fmt.Errorf("%s: cannot read the device size: %w", path, err)
	}
	return int64(n), nil
}

// HasHoles reports whether the first sizeBytes of a regular file hold a hole (never-written
// ranges whose reads would not touch the drive). Filesystems without SEEK_HOLE report none.
func HasHoles(path string, sizeBytes int64) (bool, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, openError(path, false, err)
	}
	defer unix.Close(fd)
	return hasHole(fd, sizeBytes), nil
}
