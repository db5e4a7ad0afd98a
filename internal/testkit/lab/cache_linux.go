package lab

import (
	"fmt"
	"os"
	"syscall"
)

// blkflsbuf is BLKFLSBUF, _IO(0x12, 97) in linux/fs.h: flush a block device's buffer cache.
const blkflsbuf = 0x1261

// DropCaches writes back dirty data and drops what the kernel caches of this drive: the
// block device's buffer cache, then the page cache, dentries and inodes (the last step is
// machine-wide, as drop_caches always is). The image itself is in tmpfs, which no drop frees.
func (d *Drive) DropCaches() error {
	if !d.attached {
		return fmt.Errorf("lab: drive %s is down: no cache to drop", d.Spec.Name)
	}
	syscall.Sync()
	f, err := os.Open(d.Dev)
	if err != nil {
		return fmt.Errorf("lab: open %s to flush its buffers: %w", d.Dev, err)
	}
	defer f.Close()
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), blkflsbuf, 0); errno != 0 {
		return fmt.Errorf("lab: BLKFLSBUF on %s: %w", d.Dev, errno)
	}
	if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3"), 0); err != nil {
		return fmt.Errorf("lab: drop page cache: %w", err)
	}
	return nil
}
