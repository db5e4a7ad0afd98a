//go:build linux && (amd64 || arm64 || riscv64)

package engine

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawPio passes the 64-bit offset in one register, as 64-bit kernels take it.
func rawPio(nr uintptr, fd int, buf []byte, off int64) (uintptr, uintptr, unix.Errno) {
	return unix.RawSyscall6(nr, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(off), 0, 0)
}
