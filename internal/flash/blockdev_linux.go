package flash

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BlockDevice is a whole disk opened with O_DIRECT, and exclusively (O_EXCL) when opened
// for writing: the kernel then refuses anyone who mounts it while the verify runs.
type BlockDevice struct {
	Path string
	Disk
	fd    int
	write bool
}

// OpenBlock opens path, which must be a whole disk, for a verify: for writing (write true)
// only if it is writable and not in use. root is where sysfs and procfs are read ("" for the
// live system). Every refusal says what to do instead; nothing is written.
func OpenBlock(path string, write bool, root string) (*BlockDevice, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("%s does not exist: give a disk such as /dev/sdb or /dev/mmcblk0 (see iomark list), or a directory", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return nil, fmt.Errorf("%s is not a block device: give a whole disk such as /dev/sdb, or a directory on a mounted card to fill and read back", path)
	}
	majMin := fmt.Sprintf("%d:%d", unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev)))
	d, err := CheckDisk(root, majMin)
	if err != nil {
		return nil, err
	}
	if write {
		if d.ReadOnly {
			return nil, fmt.Errorf("/dev/%s is read-only (is the card's lock switch on, or the device write-protected?): the probe needs to write; nothing was written", d.Name)
		}
		if d.InUse != "" {
			return nil, fmt.Errorf("refusing to write: %s; nothing was written", d.InUse)
		}
	}
	flags := unix.O_RDONLY | unix.O_DIRECT | unix.O_CLOEXEC
	if write {
		flags = unix.O_RDWR | unix.O_DIRECT | unix.O_CLOEXEC | unix.O_EXCL
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		switch {
		case errors.Is(err, unix.EBUSY):
			return nil, fmt.Errorf("/dev/%s is busy (mounted, or held by LVM, RAID or swap): unmount or release it first; nothing was written", d.Name)
		case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
			return nil, fmt.Errorf("opening %s: %w — run as root (sudo)", path, err)
		case errors.Is(err, unix.EROFS):
			return nil, fmt.Errorf("/dev/%s is read-only: nothing was written", d.Name)
		}
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	b := &BlockDevice{Path: path, Disk: *d, fd: fd, write: write}
	var size uint64
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.BLKGETSIZE64), uintptr(unsafe.Pointer(&size))); errno == 0 {
		b.SizeBytes = int64(size)
	}
	var lbs int32
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.BLKSSZGET), uintptr(unsafe.Pointer(&lbs))); errno == 0 && lbs > 0 {
		b.LogicalBlockBytes = int(lbs)
	}
	return b, nil
}

// ReadAt reads with pread(2); p must be aligned for O_DIRECT.
func (b *BlockDevice) ReadAt(p []byte, off int64) (int, error) {
	n, err := unix.Pread(b.fd, p, off)
	if n < 0 {
		n = 0
	}
	return n, err
}

// WriteAt writes with pwrite(2); p must be aligned for O_DIRECT.
func (b *BlockDevice) WriteAt(p []byte, off int64) (int, error) {
	if !b.write {
		return 0, unix.EBADF
	}
	n, err := unix.Pwrite(b.fd, p, off)
	if n < 0 {
		n = 0
	}
	return n, err
}

// Sync asks the device to commit what it cached (a FLUSH); the probe does not rely on it.
func (b *BlockDevice) Sync() error { return unix.Fsync(b.fd) }

// Close closes the device.
func (b *BlockDevice) Close() error { return unix.Close(b.fd) }
