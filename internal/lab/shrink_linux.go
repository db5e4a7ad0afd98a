package lab

import (
	"fmt"
	"os"
)

// Shrink cuts the drive's image to sizeMB and makes the loop device take the new size
// (losetup --set-capacity) while it may be in use: from then on every I/O past the new end
// fails (a write with ENOSPC, a read with a short count), as on a drive that stops answering
// past some point. Only for a drive without a filesystem (a test's raw device).
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
	if err := os.Truncate(d.Img, int64(sizeMB)<<20); err != nil {
		return fmt.Errorf("lab: shrink image %s: %w", d.Img, err)
	}
	if _, err := run("losetup", "--set-capacity", d.Dev); err != nil {
		return fmt.Errorf("lab: shrink %s: %w", d.Dev, err)
	}
	d.Spec.SizeMB = sizeMB
	return nil
}
