package flash

import (
	"errors"
	"fmt"
	"io"
	"syscall"
	"unsafe"
)

// Device is what a probe reads and writes: a block device opened for direct I/O
// (OpenBlock), or a model of one in tests. Offsets and lengths are multiples of the
// probe's block size, and buffers are aligned for O_DIRECT.
type Device interface {
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
}

// blockIO wraps a Device: aligned buffers, byte counters, and errors sorted into the three
// cases the probe treats differently.
type blockIO struct {
	dev                     Device
	bytesRead, bytesWritten int64
}

// alignment is the buffer alignment direct I/O needs on every device we meet (a page).
const alignment = 4096

// alignedBuf returns n zeroed bytes whose first byte is page-aligned.
func alignedBuf(n int) []byte {
	b := make([]byte, n+alignment)
	skip := 0
	if r := int(uintptr(unsafe.Pointer(&b[0])) % alignment); r != 0 {
		skip = alignment - r
	}
	return b[skip : skip+n : skip+n]
}

// ioErr is a failed read or write at an offset.
type ioErr struct {
	op  string
	off int64
	err error
}

func (e *ioErr) Error() string { return fmt.Sprintf("%s at byte %d: %v", e.op, e.off, e.err) }
func (e *ioErr) Unwrap() error { return e.err }

// isMediaError reports an error the drive gave about its media (EIO, EILSEQ, ENODATA): the
// block is bad, the device is still there.
func isMediaError(err error) bool {
	return errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EILSEQ) || errors.Is(err, syscall.ENODATA) ||
		errors.Is(err, errShort)
}

// isGone reports an error that means the device itself is gone or reset.
func isGone(err error) bool {
	return errors.Is(err, syscall.ENODEV) || errors.Is(err, syscall.ENXIO) || errors.Is(err, errNoMedium) ||
		errors.Is(err, syscall.ESHUTDOWN) || errors.Is(err, syscall.ENOTCONN) || errors.Is(err, errGone)
}

// errNoMedium is ENOMEDIUM (123 on Linux: a card reader with its card pulled out).
var errNoMedium = syscall.Errno(123)

var errShort = errors.New("short transfer")

// read reads n bytes at off into a new aligned buffer.
func (b *blockIO) read(off int64, n int) ([]byte, error) {
	p := alignedBuf(n)
	return p, b.readInto(p, off)
}

// readInto reads len(p) bytes at off into p, which must be aligned (alignedBuf): a scan
// reuses one buffer rather than clearing a new one for every request.
func (b *blockIO) readInto(p []byte, off int64) error {
	got, err := b.dev.ReadAt(p, off)
	b.bytesRead += int64(got)
	if err == nil && got < len(p) {
		err = errShort
	}
	if errors.Is(err, io.EOF) {
		err = errShort
	}
	if err != nil {
		return &ioErr{op: "read", off: off, err: err}
	}
	return nil
}

func (b *blockIO) write(p []byte, off int64) error {
	if uintptr(unsafe.Pointer(&p[0]))%alignment != 0 {
		q := alignedBuf(len(p))
		copy(q, p)
		p = q
	}
	got, err := b.dev.WriteAt(p, off)
	b.bytesWritten += int64(got)
	if err == nil && got < len(p) {
		err = errShort
	}
	if err != nil {
		return &ioErr{op: "write", off: off, err: err}
	}
	return nil
}
