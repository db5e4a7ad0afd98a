package flash

import (
	"encoding/binary"
	"unsafe"

	"golang.org/x/sys/unix"
)

// extent maps a file range to where it lies on the filesystem's block device.
type extent struct {
	logical, physical, length int64
}

// Layout of struct fiemap and struct fiemap_extent (include/uapi/linux/fiemap.h).
const (
	fsIocFiemap      = 0xC020660B // _IOWR('f', 11, struct fiemap)
	fiemapHeader     = 32
	fiemapExtentSize = 56
	fiemapFlagSync   = 0x1
	fiemapExtentLast = 0x1
	fiemapBatch      = 256
)

// fileExtents asks the filesystem where a file's data lies (FS_IOC_FIEMAP). It fails on
// filesystems that cannot say (ENOTTY, EOPNOTSUPP).
func fileExtents(fd int) ([]extent, error) {
	buf := make([]byte, fiemapHeader+fiemapBatch*fiemapExtentSize)
	var out []extent
	var start uint64
	for {
		clear(buf)
		binary.LittleEndian.PutUint64(buf[0:], start)
		binary.LittleEndian.PutUint64(buf[8:], ^uint64(0)-start)
		binary.LittleEndian.PutUint32(buf[16:], fiemapFlagSync)
		binary.LittleEndian.PutUint32(buf[24:], fiemapBatch)
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), fsIocFiemap, uintptr(unsafe.Pointer(&buf[0]))); errno != 0 {
			return nil, errno
		}
		n := int(binary.LittleEndian.Uint32(buf[20:]))
		if n == 0 {
			return out, nil
		}
		last := false
		for i := 0; i < n && i < fiemapBatch; i++ {
			e := buf[fiemapHeader+i*fiemapExtentSize:]
			ex := extent{
				logical:  int64(binary.LittleEndian.Uint64(e[0:])),
				physical: int64(binary.LittleEndian.Uint64(e[8:])),
				length:   int64(binary.LittleEndian.Uint64(e[16:])),
			}
			out = append(out, ex)
			start = uint64(ex.logical + ex.length)
			if binary.LittleEndian.Uint32(e[40:])&fiemapExtentLast != 0 {
				last = true
			}
		}
		if last {
			return out, nil
		}
	}
}

// physAt returns the device offset of file offset off, using exts (sorted by logical) and a
// cursor that only moves forward for sequential lookups; -1 when off is in no extent.
func physAt(exts []extent, cur *int, off int64) int64 {
	for *cur < len(exts) && exts[*cur].logical+exts[*cur].length <= off {
		*cur++
	}
	if *cur >= len(exts) || exts[*cur].logical > off {
		return -1
	}
	e := exts[*cur]
	return e.physical + off - e.logical
}
