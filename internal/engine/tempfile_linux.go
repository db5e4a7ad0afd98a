package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Test files in a directory target. Where the filesystem supports O_TMPFILE (ext4, xfs,
// btrfs, f2fs, tmpfs) the file is linked nowhere: the kernel frees it when iomark's last
// descriptor closes, so a crash, kill -9 or power loss leaves nothing. Elsewhere (vfat,
// exfat, NTFS and many FUSE filesystems) it is a hidden file named after the process,
// .iomark-run-PID-RAND.tmp or .iomark-job-PID-RAND.tmp; SweepLeftovers removes those whose
// process is gone, and says so.

// tempFile is a new test file: its descriptor, its name for messages and for reopening
// (/proc/self/fd/N when unnamed), and whether it has a name in dir to unlink at the end.
type tempFile struct {
	fd    int
	name  string
	named bool
}

const leftoverPrefix = ".iomark-"

// newTempFile creates a test file in dir opened with flags (which include O_RDWR), unnamed
// where the filesystem allows it. kind ("run" or "job") goes into a fallback file's name.
func newTempFile(dir, kind string, flags int) (tempFile, error) {
	fd, err := unix.Open(dir, flags|unix.O_TMPFILE, 0o600)
	if err == nil {
		_ = unix.Fsetxattr(fd, xattrMark, []byte("test-file"), 0) // best effort
		return tempFile{fd: fd, name: dir}, nil
	}
	if !tmpfileUnsupported(err) {
		return tempFile{}, err
	}
	return newNamedTempFile(dir, kind, flags)
}

// newNamedTempFile creates the hidden, named test file of a filesystem without O_TMPFILE.
func newNamedTempFile(dir, kind string, flags int) (tempFile, error) {
	name := filepath.Join(dir, fmt.Sprintf("%s%s-%d-%x.tmp", leftoverPrefix, kind, os.Getpid(), newSeed()&0xffffff))
	fd, err := unix.Open(name, flags|unix.O_CREAT|unix.O_EXCL, 0o600)
	if err != nil {
		return tempFile{}, err
	}
	_ = unix.Fsetxattr(fd, xattrMark, []byte("test-file"), 0)
	return tempFile{fd: fd, name: name, named: true}, nil
}

// tmpfileUnsupported: the errors open(2) gives when a filesystem (or an old kernel) has no
// O_TMPFILE.
func tmpfileUnsupported(err error) bool {
	return errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL)
}

// Leftover is a test file an earlier iomark left in a directory (a crash or kill -9 on a
// filesystem without O_TMPFILE) whose process is gone.
type Leftover struct {
	Path      string
	PID       int
	SizeBytes int64
}

// FindLeftovers lists the named test files in dir whose process no longer runs. A file of a
// process that still runs (another iomark at work) is never listed.
func FindLeftovers(dir string) []Leftover {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Leftover
	for _, e := range ents {
		pid, ok := leftoverPID(e.Name())
		if !ok || !e.Type().IsRegular() || processRuns(pid) {
			continue
		}
		l := Leftover{Path: filepath.Join(dir, e.Name()), PID: pid}
		if fi, err := e.Info(); err == nil {
			l.SizeBytes = fi.Size()
		}
		out = append(out, l)
	}
	return out
}

// SweepLeftovers removes FindLeftovers(dir) and says so through log (may be nil); it
// returns the bytes freed.
func SweepLeftovers(dir string, log func(string, ...any)) int64 {
	var freed int64
	for _, l := range FindLeftovers(dir) {
		if err := os.Remove(l.Path); err != nil {
			if log != nil {
				log("could not remove %s, a test file left by an earlier run (process %d is gone): %v — remove it by hand", l.Path, l.PID, err)
			}
			continue
		}
		freed += l.SizeBytes
		if log != nil {
			log("removed %s (%s), a test file left by an earlier run whose process %d is gone", l.Path, human(l.SizeBytes), l.PID)
		}
	}
	return freed
}

// leftoverPID reads the PID out of .iomark-run-PID-RAND.tmp or .iomark-job-PID-RAND.tmp.
func leftoverPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, leftoverPrefix)
	if !ok || !strings.HasSuffix(rest, ".tmp") {
		return 0, false
	}
	kind, rest, ok := strings.Cut(strings.TrimSuffix(rest, ".tmp"), "-")
	if !ok || (kind != "run" && kind != "job") {
		return 0, false
	}
	pidStr, rnd, ok := strings.Cut(rest, "-")
	if !ok || rnd == "" {
		return 0, false
	}
	if _, err := strconv.ParseUint(rnd, 16, 64); err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(pidStr)
	return pid, err == nil && pid > 0
}

// processRuns reports whether a process with this PID exists (in this PID namespace). EPERM
// means it exists but belongs to someone else.
func processRuns(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// displayName is how messages name a target: the unnamed test file behind /proc/self/fd/N
// by its directory, anything else as given.
func displayName(path string) string {
	if !strings.HasPrefix(path, "/proc/self/fd/") {
		return path
	}
	link, err := os.Readlink(path)
	if err != nil {
		return path
	}
	return "the unnamed test file in " + filepath.Dir(strings.TrimSuffix(link, " (deleted)"))
}
