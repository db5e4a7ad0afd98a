package engine

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// ioError turns a failed read or write into a message that says what happened and what to do.
func ioError(t *target, write bool, offset int64, size int, err error) error {
	op := "read"
	if write {
		op = "write"
	}
	where := fmt.Sprintf("%s of %s at offset %d on %s", op, FormatSize(int64(size)), offset, t.path)
	switch {
	case errors.Is(err, unix.ENOSPC) && t.kind == kindBlock:
		// A plain block device has no free space to run out of: the kernel says ENOSPC for a
		// write at or past the device's end, so the device is now smaller than when the job
		// began. A thin-provisioned device (dm-thin, LVM thin) also says it when its pool is full.
		return fmt.Errorf("%s: no space left (%w) — the write lies past the device's end, so it became smaller during the run (a card or bridge that reset and came back with another size?), or the device is thin-provisioned and its pool is full; see `dmesg` and check its size with `iomark verify`", where, err)
	case errors.Is(err, unix.ENOSPC), errors.Is(err, unix.EDQUOT):
		return fmt.Errorf("%s: no space left (%w) — free some space on that filesystem, or use a smaller working set", where, err)
	case errors.Is(err, unix.EROFS):
		return fmt.Errorf("%s: the filesystem or device is read-only (%w) — is it mounted ro, or is the card's lock switch on?", where, err)
	case errors.Is(err, unix.EFBIG):
		return fmt.Errorf("%s: the file reached the filesystem's largest file size (%w; FAT32 holds at most 4 GiB per file) — use a smaller working set, or a filesystem without that limit (ext4, exFAT)", where, err)
	case errors.Is(err, unix.EIO):
		return fmt.Errorf("%s: the drive reported an I/O error (%w) — see `dmesg`; a drive that fails I/O cannot be benchmarked", where, err)
	case errors.Is(err, unix.ENODEV), errors.Is(err, unix.ENXIO), errors.Is(err, unix.ESHUTDOWN), errors.Is(err, unix.ENOMEDIUM):
		return fmt.Errorf("%s: the device went away (%w) — was it unplugged or reset? see `dmesg`", where, err)
	case errors.Is(err, unix.EINVAL) && t.direct:
		return fmt.Errorf("%s: the kernel refused direct I/O (%w) — the filesystem may not support O_DIRECT (`iomark job --buffered` measures through the page cache instead) or the block size is below the device's %d-byte alignment", where, err, t.align)
	}
	return fmt.Errorf("%s: %w", where, err)
}

// errShortIO reports a read or write that moved fewer bytes than asked.
func errShortIO(t *target, write bool, offset int64, size, done int) error {
	op := "read"
	if write {
		op = "write"
	}
	return fmt.Errorf("%s of %s at offset %d on %s moved only %d bytes — did the file shrink or the device change size?", op, FormatSize(int64(size)), offset, t.path, done)
}
