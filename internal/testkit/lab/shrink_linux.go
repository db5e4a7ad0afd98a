package lab

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Shrink makes the drive end at sizeMB while it may be in use: from then on every I/O past the
// new end fails (a write with ENOSPC, a read with a short count), as on a drive that stops
// answering past some point. Only for a drive without a filesystem (a test's raw device).
//
// The loop device takes the new size as its size limit (LOOP_SET_STATUS64, which drains the
// I/O in flight), and only then is the image cut. Cutting the image first and asking the
// device to re-read it (losetup --set-capacity) raced with a writer: writes in flight past the
// new end grew the file back before the device looked, the device kept its size, and a test
// expecting failures saw a minute of successful writes. The image is cut afterwards only to
// give its space back: a write that passed the kernel's end-of-device check just before the
// size changed may still land past the cut, but nothing submitted afterwards can.
func (d *Drive) Shrink(sizeMB int) error {
	if d.Spec.FS != "" || !d.attached {
		return fmt.Errorf("lab: shrink %s: only an attached drive without a filesystem can shrink", d.Spec.Name)
	}
	if sizeMB <= 0 || sizeMB >= d.Spec.SizeMB {
		return fmt.Errorf("lab: shrink %s to %d MiB: give a size between 1 and %d MiB", d.Spec.Name, sizeMB, d.Spec.SizeMB-1)
	}
	if ours, err := d.stillOurs(); err != nil || !ours {
		return fmt.Errorf("lab: shrink %s: %s is no longer backed by %s (%v)", d.Spec.Name, d.Dev, d.Img, err)
	}
	size := int64(sizeMB) << 20
	if err := setSizeLimit(d.Dev, size); err != nil {
		return fmt.Errorf("lab: shrink %s: %w", d.Spec.Name, err)
	}
	if err := os.Truncate(d.Img, size); err != nil {
		return fmt.Errorf("lab: shrink image %s: %w", d.Img, err)
	}
	d.Spec.SizeMB = sizeMB
	return nil
}

// setSizeLimit gives the loop device dev a size limit of size bytes and checks that the
// device now reports that size.
func setSizeLimit(dev string, size int64) error {
	f, err := os.OpenFile(dev, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fd := int(f.Fd())
	info, err := unix.IoctlLoopGetStatus64(fd)
	if err != nil {
		return fmt.Errorf("read the status of %s: %w", dev, err)
	}
	info.Sizelimit = uint64(size)
	// Older kernels refuse with EAGAIN while the device still has cached pages after their
	// invalidation; they are gone after a moment.
	for try := 0; ; try++ {
		err = unix.IoctlLoopSetStatus64(fd, info)
		if !errors.Is(err, unix.EAGAIN) || try == 50 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("set the size limit of %s to %d bytes: %w", dev, size, err)
	}
	got, err := f.Seek(0, io.SeekEnd) // a block device's end is its size
	if err != nil {
		return fmt.Errorf("read the size of %s: %w", dev, err)
	}
	if got != size {
		return fmt.Errorf("%s reports %d bytes after its size limit was set to %d", dev, got, size)
	}
	return nil
}
