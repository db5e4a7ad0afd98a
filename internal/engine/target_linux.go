package engine

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Kinds of target.
const (
	kindFile  = "file"
	kindDir   = "dir"
	kindBlock = "block"
)

// xattrMark marks a file iomark created, so a later run may write to it without --destructive.
const xattrMark = "user.iomark"

// target is an opened file or device ready for I/O.
type target struct {
	kind        string
	path        string // the file or device actually read and written
	fd          int
	direct      bool
	align       int   // offset and length alignment direct I/O needs, in bytes
	sizeBytes   int64 // working set: I/O stays in [0, sizeBytes)
	needsLayout bool  // holes (or missing bytes) must be filled with data before reads
	unlink      bool  // a named temporary file in a directory target, removed at close
}

// openTarget opens spec.Target for the job, enforcing the safety rules (InspectTarget,
// WriteRefusal): a path that does not exist is refused, block devices are read-only unless
// named twice, mounted devices are never written, and files iomark did not create are
// overwritten only with --destructive.
func openTarget(s *Spec) (*target, error) {
	info, err := InspectTarget(s.Target)
	if err != nil {
		return nil, err
	}
	switch info.Kind {
	case kindDir:
		t, err := createTestFile(s, s.Target)
		if t != nil {
			t.kind = kindDir
		}
		return t, err
	case kindBlock:
		return openBlock(s, info)
	default:
		return openExistingFile(s, info)
	}
}

func openFlags(s *Spec, write bool) int {
	f := unix.O_CLOEXEC
	if write {
		f |= unix.O_RDWR
	} else {
		f |= unix.O_RDONLY
	}
	if s.Direct {
		f |= unix.O_DIRECT
	}
	return f
}

// createTestFile makes a new test file in dir, removed at the end of the job: unnamed
// (O_TMPFILE) where the filesystem allows it, so nothing survives a crash or kill -9; else a
// hidden named file, whose leftovers a later run removes (SweepLeftovers).
func createTestFile(s *Spec, dir string) (*target, error) {
	ws := s.WorkingSetBytes
	if ws == 0 {
		ws = DefaultWorkingSetBytes
	}
	ws -= ws % int64(s.BlockSize)
	SweepLeftovers(dir, s.Log)
	if err := checkFreeSpace(dir, ws); err != nil {
		return nil, err
	}
	align, err := dioAlign(dir, s.Direct)
	if err != nil {
		return nil, err
	}
	if err := checkAlign(s, align); err != nil {
		return nil, err
	}
	f, err := newTempFile(dir, "job", openFlags(s, true))
	if err != nil {
		return nil, openError(dir, s.Direct, err)
	}
	return &target{kind: kindFile, path: f.name, fd: f.fd, direct: s.Direct, align: align,
		sizeBytes: ws, needsLayout: true, unlink: f.named}, nil
}

// openExistingFile opens a regular file the user named.
func openExistingFile(s *Spec, info TargetInfo) (*target, error) {
	size := info.SizeBytes
	mayWrite := info.WriteRefusal(s.Destructive, s.Confirm) == nil
	if s.Pattern.Writes() && !mayWrite {
		return nil, info.WriteRefusal(s.Destructive, s.Confirm)
	}
	ws := s.WorkingSetBytes
	if ws == 0 {
		ws = size
	}
	ws -= ws % int64(s.BlockSize)
	if ws < int64(s.BlockSize) {
		if !mayWrite {
			return nil, fmt.Errorf("%s is smaller than one block (%s): give a larger file or a directory (iomark then uses a test file of its own), or let iomark lay one out (`iomark job --size N --destructive`)", s.Target, FormatSize(int64(s.BlockSize)))
		}
		ws = DefaultWorkingSetBytes
	}
	if ws > size && !mayWrite {
		return nil, fmt.Errorf("%s holds %d bytes, less than the %s working set: give a smaller one, or let iomark extend the file (`iomark job --destructive`)", s.Target, size, FormatSize(ws))
	}
	align, err := dioAlign(s.Target, s.Direct)
	if err != nil {
		return nil, err
	}
	if err := checkAlign(s, align); err != nil {
		return nil, err
	}
	fd, err := unix.Open(s.Target, openFlags(s, mayWrite), 0)
	if err != nil {
		return nil, openError(s.Target, s.Direct, err)
	}
	t := &target{kind: kindFile, path: displayName(s.Target), fd: fd, direct: s.Direct, align: align, sizeBytes: ws}
	t.needsLayout = ws > size || hasHole(fd, ws)
	if t.needsLayout && s.Pattern.Reads() && !mayWrite {
		unix.Close(fd)
		return nil, fmt.Errorf("%s has holes (unwritten ranges) in its first %s: reading them would not touch the drive — pass --destructive to lay it out with data, or name a directory", s.Target, FormatSize(ws))
	}
	if t.needsLayout && !s.Pattern.Reads() {
		// A write-only job fills the file itself; only missing length must be added so
		// offsets stay inside the file.
		t.needsLayout = ws > size
	}
	if s.NextFile != nil {
		// A copy split into parts grows each file as it writes it.
		t.needsLayout = false
	}
	return t, nil
}

// openBlock opens a block device: read-only unless --destructive and --confirm name it, and
// never for writing while it or one of its partitions is mounted or in use.
func openBlock(s *Spec, info TargetInfo) (*target, error) {
	write := s.Pattern.Writes()
	if write {
		if err := info.WriteRefusal(s.Destructive, s.Confirm); err != nil {
			return nil, err
		}
	}
	flags := openFlags(s, write)
	if write {
		flags |= unix.O_EXCL // the kernel's own guard: EBUSY while mounted or held
	}
	fd, err := unix.Open(s.Target, flags, 0)
	if err != nil {
		if errors.Is(err, unix.EBUSY) {
			return nil, fmt.Errorf("%s is busy (mounted, or held by LVM/RAID/swap): iomark never writes to a device in use — unmount or release it first", s.Target)
		}
		return nil, openError(s.Target, s.Direct, err)
	}
	devSize, err := blkSize(fd)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("%s: cannot read the device size: %w", s.Target, err)
	}
	lbs, err := blkLogicalBlockSize(fd)
	if err != nil || lbs <= 0 {
		lbs = 512
	}
	t := &target{kind: kindBlock, path: s.Target, fd: fd, direct: s.Direct, align: lbs}
	if err := checkAlign(s, lbs); err != nil {
		unix.Close(fd)
		return nil, err
	}
	ws := s.WorkingSetBytes
	if ws == 0 {
		ws = int64(devSize)
	}
	if ws > int64(devSize) {
		unix.Close(fd)
		return nil, fmt.Errorf("the working set (%s) is larger than %s (%d bytes): give a smaller one", FormatSize(ws), s.Target, devSize)
	}
	t.sizeBytes = ws - ws%int64(s.BlockSize)
	if t.sizeBytes < int64(s.BlockSize) {
		unix.Close(fd)
		return nil, fmt.Errorf("%s (%d bytes) is smaller than one block", s.Target, devSize)
	}
	return t, nil
}

// close releases the target. A test file this job created in a directory is gone once its
// descriptor closes (unnamed), or removed here (named), whether the job finished or not.
func (t *target) close() error {
	err := unix.Close(t.fd)
	if t.unlink {
		if rmErr := os.Remove(t.path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			return fmt.Errorf("removing test file %s: %w — remove it by hand", t.path, rmErr)
		}
	}
	return err
}

func openError(path string, direct bool, err error) error {
	switch {
	case errors.Is(err, unix.EINVAL) && direct:
		return fmt.Errorf("open %s: the filesystem does not support direct I/O (%w) — test a directory on another filesystem (`iomark job --buffered` measures through the page cache, which measures memory, not the drive)", path, err)
	case (errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM)) && os.Geteuid() == 0:
		return fmt.Errorf("open %s: %w — refused even to root: a container or security policy (seccomp, SELinux, AppArmor) blocks it; benchmark a directory instead", path, err)
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
		return fmt.Errorf("open %s: %w — run as root, or benchmark a directory you can write to", path, err)
	case errors.Is(err, unix.EROFS):
		return fmt.Errorf("open %s: read-only filesystem (%w) — pick a writable directory", path, err)
	}
	return fmt.Errorf("open %s: %w", path, err)
}

// dioAlign returns the alignment direct I/O needs on the filesystem of path (statx
// DIOALIGN, Linux 6.1+), 512 when the kernel does not say, and an error when the
// filesystem says it cannot do direct I/O at all.
func dioAlign(path string, direct bool) (int, error) {
	if !direct {
		return 1, nil
	}
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_DIOALIGN, &stx); err != nil || stx.Mask&unix.STATX_DIOALIGN == 0 {
		return MinBlockSize, nil
	}
	if stx.Dio_offset_align == 0 {
		return 0, fmt.Errorf("%s: the filesystem does not support direct I/O — test a directory on another filesystem (`iomark job --buffered` measures through the page cache, which measures memory, not the drive)", path)
	}
	return int(max(stx.Dio_offset_align, stx.Dio_mem_align)), nil
}

func checkAlign(s *Spec, align int) error {
	if s.Direct && align > 0 && s.BlockSize%align != 0 {
		return fmt.Errorf("block size %s is not a multiple of the %d-byte alignment direct I/O needs here: use a block size of at least %s", FormatSize(int64(s.BlockSize)), align, FormatSize(int64(align)))
	}
	return nil
}

// ErrNoSpace marks a test file that does not fit the free space of its filesystem; each
// command adds what its user can do about it (a smaller --size for `iomark job`).
var ErrNoSpace = errors.New("not enough free space")

func checkFreeSpace(dir string, need int64) error {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return fmt.Errorf("directory %s: %w", dir, err)
	}
	if st.Flags&unix.ST_RDONLY != 0 {
		return fmt.Errorf("%s is on a read-only filesystem: pick a writable directory, or remount it read-write", dir)
	}
	avail := int64(st.Bavail) * int64(st.Bsize)
	margin := freeMargin(st)
	if avail < need+margin {
		return fmt.Errorf("%s has %s free; the test file needs %s plus %s to spare (%w) — free some space there, or test a directory on a filesystem with more room", dir, human(avail), human(need), human(margin), ErrNoSpace)
	}
	return nil
}

// freeMargin is the room a test file leaves its filesystem: 64 MiB, or 5% of a small one.
func freeMargin(st unix.Statfs_t) int64 {
	return min(int64(64<<20), int64(st.Blocks)*int64(st.Bsize)/20)
}

// Space is the room a test file has in a directory.
type Space struct {
	// FreeBytes is what a test file may take: the space available less MarginBytes, the
	// room kept for the filesystem itself, with the Leftovers of earlier runs (which a run
	// removes first) counted as free.
	FreeBytes, MarginBytes int64
	ReadOnly               bool
	Leftovers              []Leftover
}

// FreeSpace is the room a test file has in dir.
func FreeSpace(dir string) (Space, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return Space{}, fmt.Errorf("directory %s: %w", dir, err)
	}
	s := Space{MarginBytes: freeMargin(st), ReadOnly: st.Flags&unix.ST_RDONLY != 0, Leftovers: FindLeftovers(dir)}
	s.FreeBytes = int64(st.Bavail)*int64(st.Bsize) - s.MarginBytes
	for _, l := range s.Leftovers {
		s.FreeBytes += l.SizeBytes
	}
	return s, nil
}

func hasMark(path string) bool {
	buf := make([]byte, 32)
	n, err := unix.Getxattr(path, xattrMark, buf)
	return err == nil && string(buf[:n]) == "test-file"
}

// hasHole reports whether [0, size) holds a hole. Filesystems without SEEK_HOLE report the
// whole file as data, which is the safe answer for them.
func hasHole(fd int, size int64) bool {
	off, err := unix.Seek(fd, 0, unix.SEEK_HOLE)
	return err == nil && off < size
}

func sameDevice(path string, rdev uint64) bool {
	if path == "" {
		return false
	}
	var st unix.Stat_t
	return unix.Stat(path, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFBLK && st.Rdev == rdev
}

// deviceInUse says why the block device rdev (or a partition of it) must not be written:
// mounted, used as swap, or held by another driver (LVM, RAID). Empty when free.
func deviceInUse(rdev uint64) string {
	maj, min := unix.Major(rdev), unix.Minor(rdev)
	sysDir, err := filepath.EvalSymlinks(fmt.Sprintf("/sys/dev/block/%d:%d", maj, min))
	if err != nil {
		return ""
	}
	inTree := func(majMin string) bool {
		p, err := filepath.EvalSymlinks("/sys/dev/block/" + majMin)
		return err == nil && (p == sysDir || strings.HasPrefix(p, sysDir+"/"))
	}
	if f, err := os.Open("/proc/self/mountinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) > 4 && inTree(fields[2]) {
				return "mounted at " + fields[4]
			}
		}
	}
	if holders, _ := os.ReadDir(filepath.Join(sysDir, "holders")); len(holders) > 0 {
		return "held by " + holders[0].Name()
	}
	parts, _ := os.ReadDir(sysDir)
	for _, p := range parts {
		if holders, _ := os.ReadDir(filepath.Join(sysDir, p.Name(), "holders")); len(holders) > 0 {
			return p.Name() + " is held by " + holders[0].Name()
		}
	}
	return ""
}

// human prints a byte count for messages: 1.5 GiB, 300 MiB.
func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// blkSize is the device size in bytes. BLKGETSIZE64 writes a u64 on every architecture,
// even where its request number encodes a 4-byte size_t.
func blkSize(fd int) (uint64, error) {
	var n uint64
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.BLKGETSIZE64), uintptr(unsafe.Pointer(&n))); errno != 0 {
		return 0, errno
	}
	return n, nil
}

// blkLogicalBlockSize is the smallest unit the device addresses (BLKSSZGET, an int).
func blkLogicalBlockSize(fd int) (int, error) {
	var n int32
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.BLKSSZGET), uintptr(unsafe.Pointer(&n))); errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
