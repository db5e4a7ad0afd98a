package lab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/iomark/iomark/internal/probe"
)

// Images and mount points made by this package are named iomark-labgo-PID-NAME-…, with the
// PID of the process that made them, so that a later process can tell a drive whose owner
// died (a test killed by a timeout or Ctrl-C never runs its cleanup) from one in use.
// scripts/lab/drive.sh names its long-lived drives iomark-lab-NAME-…, which the sweep
// never matches.
const ownedTag = "iomark-labgo-"

func ownedPrefix() string { return ownedTag + strconv.Itoa(os.Getpid()) + "-" }

// ownerPID returns the PID in a name made with ownedPrefix, or 0.
func ownerPID(name string) int {
	rest, ok := strings.CutPrefix(name, ownedTag)
	if !ok {
		return 0
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// alive reports whether a process with this PID exists. A PID reused by an unrelated process
// reads as alive, which only delays a sweep: it never sweeps a live owner's drive.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// SweepOrphans takes down drives left by processes of this package that exited without
// Down: for each image in /dev/shm whose owner is dead, it unmounts the loop devices backed
// by it, clears their throttle rules, detaches them and removes the image and mount point.
// It then does the same for emulated cards (sweepCards). Up and UpCard call it; it touches
// only loop devices backed by such an image or card.
func SweepOrphans() error {
	errs := []error{sweepCards()}
	entries, err := os.ReadDir(imageDir)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("lab: sweep %s: %w", imageDir, err))...)
	}
	for _, e := range entries {
		pid := ownerPID(e.Name())
		if pid == 0 || !strings.HasSuffix(e.Name(), ".img") || alive(pid) {
			continue
		}
		if err := sweepImage(filepath.Join(imageDir, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func sweepImage(img string) error {
	devs, err := loopsBackedBy(img)
	if err != nil {
		return err
	}
	for _, dev := range devs {
		if err := sweepDevice(dev, img); err != nil {
			return err // keep the image: a device still uses it
		}
	}
	if err := os.Remove(img); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lab: remove orphan image: %w", err)
	}
	return nil
}

// sweepDevice undoes Up for one orphan device, in Down's order.
func sweepDevice(dev, img string) error {
	mounts, err := mountPointsOf(dev)
	if err != nil {
		return err
	}
	for _, mnt := range mounts {
		if _, err := run("umount", mnt); err != nil {
			return fmt.Errorf("lab: unmount orphan %s: %w", mnt, err)
		}
		if strings.HasPrefix(filepath.Base(mnt), ownedTag) {
			os.Remove(mnt)
		}
	}
	d := &Drive{Dev: dev, Img: img, attached: true}
	mm, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(dev), "dev"))
	if err != nil {
		return fmt.Errorf("lab: device number of orphan %s: %w", dev, err)
	}
	d.MajMin = strings.TrimSpace(string(mm))
	return d.detach()
}

// loopsBackedBy lists the loop devices whose backing file is img.
func loopsBackedBy(img string) ([]string, error) {
	matches, err := filepath.Glob("/sys/block/loop*/loop/backing_file")
	if err != nil {
		return nil, err
	}
	var devs []string
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			continue // detached in between
		}
		if strings.TrimSuffix(strings.TrimSpace(string(b)), " (deleted)") == img {
			devs = append(devs, "/dev/"+filepath.Base(filepath.Dir(filepath.Dir(m))))
		}
	}
	return devs, nil
}

// mountPointsOf lists where dev is mounted, from /proc/self/mountinfo (field 5 is the mount
// point, the field after " - " and the type is the source).
func mountPointsOf(dev string) ([]string, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("lab: read mounts: %w", err)
	}
	return parseMountPoints(string(b), dev), nil
}

// parseMountPoints lists where dev is mounted in a mountinfo text.
func parseMountPoints(mountinfo, dev string) []string {
	return mountPointsWhere(mountinfo, func(m probe.MountEntry) bool { return m.Source == dev })
}

// mountPointsWhere lists the mount points of the mountinfo entries keep accepts, parsed (and
// unescaped: \040 is a space) by probe, the one mountinfo reader of iomark.
func mountPointsWhere(mountinfo string, keep func(probe.MountEntry) bool) []string {
	entries, _ := probe.ParseMountinfo(strings.NewReader(mountinfo))
	var out []string
	for _, m := range entries {
		if keep(m) {
			out = append(out, m.MountPoint)
		}
	}
	return out
}
