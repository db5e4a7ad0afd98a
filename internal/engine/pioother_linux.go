//go:build linux && !(amd64 || arm64 || riscv64 || arm)

package engine

import "golang.org/x/sys/unix"

// rawPio on architectures whose syscall argument layout is not spelled out here takes the
// ordinary (scheduler-aware) path.
func rawPio(nr uintptr, fd int, buf []byte, off int64) (uintptr, uintptr, unix.Errno) {
	var n int
	var err error
	if nr == unix.SYS_PREAD64 {
		n, err = unix.Pread(fd, buf, off)
	} else {
		n, err = unix.Pwrite(fd, buf, off)
	}
	if errno, ok := err.(unix.Errno); ok {
		return 0, 0, errno
	}
	return uintptr(n), 0, 0
}
