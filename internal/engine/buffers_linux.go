package engine

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// buffers is one anonymous mapping cut into page-aligned I/O buffers, one per queue slot:
// page alignment satisfies every direct-I/O memory alignment, and a single mapping is what
// io_uring registers.
type buffers struct {
	mem  []byte
	bufs [][]byte
}

func newBuffers(n, size int) (*buffers, error) {
	stride := (size + 4095) &^ 4095
	mem, err := unix.Mmap(-1, 0, n*stride, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, fmt.Errorf("allocating %d I/O buffers of %s: %w — lower the queue depth, the number of jobs or the block size", n, FormatSize(int64(size)), err)
	}
	b := &buffers{mem: mem, bufs: make([][]byte, n)}
	for i := range b.bufs {
		b.bufs[i] = mem[i*stride : i*stride+size : i*stride+size]
	}
	return b, nil
}

func (b *buffers) free() {
	if b != nil && b.mem != nil {
		_ = unix.Munmap(b.mem)
		b.mem = nil
	}
}
