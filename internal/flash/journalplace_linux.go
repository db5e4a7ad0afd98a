package flash

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// CheckJournalPlace refuses a journal that would live on the disk under test (the block
// device diskMajMin or one of its partitions: a verify cut short would lose the copies with
// the blocks they save) and one whose filesystem has less than needBytes free. root is where
// sysfs is read ("" for the live system). Nothing is created.
func CheckJournalPlace(path, diskMajMin, root string, needBytes int64) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("the journal %s: %w", path, err)
	}
	dir := filepath.Dir(abs)
	if _, err := os.Lstat(abs); err == nil {
		return fmt.Errorf("the journal %s exists already: choose a new file (iomark verify --journal FILE; a journal left by a verify that was cut short goes back with iomark verify --restore %s DISK --confirm DISK)", abs, abs)
	}
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return fmt.Errorf("the journal's directory %s: %w — create it, or choose a file in another directory", dir, err)
	}
	fsMajMin := fmt.Sprintf("%d:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)))
	disk, err1 := filepath.EvalSymlinks(filepath.Join(root, "/sys/dev/block", diskMajMin))
	fs, err2 := filepath.EvalSymlinks(filepath.Join(root, "/sys/dev/block", fsMajMin))
	if err1 == nil && err2 == nil && (fs == disk || filepath.Dir(fs) == disk) {
		return fmt.Errorf("the journal %s would be on /dev/%s, the disk under test: if the verify is cut short, the copies of what it overwrote would be lost with it — put the journal on another drive (e.g. iomark verify DISK --confirm DISK --journal /root/verify-journal.bin)", abs, filepath.Base(fs))
	}
	var sf unix.Statfs_t
	if err := unix.Statfs(dir, &sf); err != nil {
		return fmt.Errorf("the journal's filesystem (%s): %w", dir, err)
	}
	if free := int64(sf.Bavail) * int64(sf.Bsize); free < needBytes {
		return fmt.Errorf("the journal may need %s and %s has %s free: put it on a drive with room (iomark verify --journal FILE) or flush less (iomark verify --max-flush 32M); nothing was written", sizeText(needBytes), dir, sizeText(free))
	}
	return nil
}
