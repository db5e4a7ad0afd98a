//go:build !linux

package flash

import "errors"

// BlockDevice is a whole disk opened for a verify (Linux only).
type BlockDevice struct {
	Path string
	Disk
}

// OpenBlock fails off Linux: the probe needs O_DIRECT on a Linux block device.
func OpenBlock(path string, write bool, root string) (*BlockDevice, error) {
	return nil, errors.New("verifying a block device needs Linux")
}

// ReadAt always fails off Linux.
func (b *BlockDevice) ReadAt(p []byte, off int64) (int, error) { return 0, errors.ErrUnsupported }

// WriteAt always fails off Linux.
func (b *BlockDevice) WriteAt(p []byte, off int64) (int, error) { return 0, errors.ErrUnsupported }

// Close does nothing off Linux.
func (b *BlockDevice) Close() error { return nil }

// CheckJournalPlace fails off Linux, where no disk is verified.
func CheckJournalPlace(path, diskMajMin, root string, needBytes int64) error {
	return errors.New("verifying a block device needs Linux")
}
