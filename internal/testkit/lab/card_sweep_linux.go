package lab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/iomark/iomark/internal/probe"
)

// sweepCards takes down cards whose process died before Down: a card's FUSE server lives
// in the process that brought it up, so when that process is killed its mount answers
// ENOTCONN and its loop device fails every I/O. For each mount of type fuse.iomarkcard whose
// mount point names a dead owner, it detaches the loop devices backed by the card file,
// unmounts (lazily if needed) and removes the mount point; it also removes empty card mount
// points of dead owners. It touches nothing else.
func sweepCards() error {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return fmt.Errorf("lab: read mounts: %w", err)
	}
	var errs []error
	for _, mnt := range parseCardMounts(string(b)) {
		pid := ownerPID(filepath.Base(mnt))
		if pid == 0 || alive(pid) {
			continue
		}
		if err := sweepCard(mnt); err != nil {
			errs = append(errs, err)
		}
	}
	// Mount points left without a mount (the owner died between mkdir and mount, or
	// between unmount and remove).
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), ownedTag+"*-card-*"))
	for _, dir := range dirs {
		if pid := ownerPID(filepath.Base(dir)); pid != 0 && !alive(pid) {
			os.Remove(dir) // only succeeds when empty, i.e. not mounted
		}
	}
	return errors.Join(errs...)
}

func sweepCard(mnt string) error {
	file := filepath.Join(mnt, cardFile)
	devs, err := loopsBackedBy(file)
	if err != nil {
		return err
	}
	for _, dev := range devs {
		if err := detachLoopBackedBy(dev, file); err != nil {
			return fmt.Errorf("lab: orphan card %s: %w", mnt, err)
		}
	}
	if err := unmountCard(nil, mnt); err != nil {
		return err
	}
	if err := os.Remove(mnt); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lab: remove orphan card mount point: %w", err)
	}
	return nil
}

// parseCardMounts lists the mount points of card file systems (type fuse.iomarkcard) in a
// mountinfo text.
func parseCardMounts(mountinfo string) []string {
	return mountPointsWhere(mountinfo, func(m probe.MountEntry) bool { return m.FSType == "fuse."+cardFSType })
}
