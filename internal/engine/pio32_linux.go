//go:build linux && arm

package engine

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawPio splits the 64-bit offset into an aligned register pair, as the 32-bit ARM EABI
// pread64/pwrite64 take it (arg 4 is padding).
func rawPio(nr uintptr, fd int, buf []byte, off int64) (uintptr, uintptr, unix.Errno) {
	return unix.RawSyscall6(nr, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, uintptr(off), uintptr(off>>32))
}
