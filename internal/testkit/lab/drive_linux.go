package lab

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Up brings up an emulated drive: a random-filled image in /dev/shm, attached to a free loop
// device with direct I/O, optionally with ext4 mounted on a temporary directory, then
// throttled as s says. On error it undoes whatever it did. Call Down when finished.
func Up(s Spec) (*Drive, error) {
	s, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := availableFor(s); err != nil {
		return nil, err
	}
	// Drives of test processes that died before Down still hold RAM, a loop device and
	// perhaps throttle rules: take them down first. Failing that must not stop this drive.
	SweepOrphans()
	d := &Drive{Spec: s}
	if err := d.up(); err != nil {
		return nil, errors.Join(err, d.Down())
	}
	return d, nil
}

func (d *Drive) up() error {
	s := d.Spec
	img, err := makeImage(s.Name, s.SizeMB)
	if err != nil {
		return err
	}
	d.Img, d.madeImg = img, true

	out, err := run("losetup", "--find", "--show", "--direct-io=on", d.Img)
	if err != nil {
		return fmt.Errorf("lab: attach %s to a loop device: %w", d.Img, err)
	}
	d.Dev, d.attached = strings.TrimSpace(out), true
	sysDir, err := d.sysDir()
	if err != nil {
		return err
	}
	mm, err := os.ReadFile(filepath.Join(sysDir, "dev"))
	if err != nil {
		return fmt.Errorf("lab: device number of %s: %w", d.Dev, err)
	}
	d.MajMin = strings.TrimSpace(string(mm))
	// The queue of a loop device, and the rules keyed by its MAJ:MIN, outlive detach: clear
	// whatever an earlier user left before anything measures this device.
	if err := clearThrottle(d.MajMin); err != nil {
		return err
	}
	// Without direct I/O the loop driver goes through the page cache of the image: a second
	// cache a benchmark would measure instead of the throttled device.
	if dio, err := os.ReadFile(filepath.Join(sysDir, "loop", "dio")); err != nil || strings.TrimSpace(string(dio)) != "1" {
		return fmt.Errorf("lab: %s is not using direct I/O on %s (loop/dio=%q, %v): this kernel or %s refuses O_DIRECT",
			d.Dev, d.Img, strings.TrimSpace(string(dio)), err, imageDir)
	}

	if s.FS == "ext4" {
		if _, err := run("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", d.Dev); err != nil {
			return fmt.Errorf("lab: make ext4 on %s: %w", d.Dev, err)
		}
		mnt, err := os.MkdirTemp("", ownedPrefix()+s.Name+"-")
		if err != nil {
			return fmt.Errorf("lab: make mount point: %w", err)
		}
		d.Mnt, d.madeMnt = mnt, true
		if _, err := run("mount", "-t", "ext4", d.Dev, d.Mnt); err != nil {
			return fmt.Errorf("lab: mount %s on %s: %w", d.Dev, d.Mnt, err)
		}
		d.mounted = true
	}
	return d.SetLimits(s.ReadIOPS, s.WriteIOPS, s.ReadMBps, s.WriteMBps)
}

// SetLimits replaces the drive's throttle rules; 0 means unlimited. MB/s are 10^6 bytes/s.
func (d *Drive) SetLimits(readIOPS, writeIOPS, readMBps, writeMBps int) error {
	if err := checkLimits(readIOPS, writeIOPS, readMBps, writeMBps); err != nil {
		return fmt.Errorf("lab: drive %s: %w", d.Spec.Name, err)
	}
	if !d.attached {
		return fmt.Errorf("lab: drive %s is down: no device to throttle", d.Spec.Name)
	}
	if err := writeThrottle(d.MajMin, limitsToValues(readIOPS, writeIOPS, readMBps, writeMBps)); err != nil {
		return err
	}
	d.Spec.ReadIOPS, d.Spec.WriteIOPS, d.Spec.ReadMBps, d.Spec.WriteMBps = readIOPS, writeIOPS, readMBps, writeMBps
	return nil
}

// LazyUnmount detaches the drive's filesystem as `umount -l` does, while files open on it
// keep it alive: what a user does to a drive still in use. Down then skips the unmount.
func (d *Drive) LazyUnmount() error {
	if !d.mounted {
		return fmt.Errorf("lab: drive %s has no mounted filesystem", d.Spec.Name)
	}
	if _, err := run("umount", "-l", d.Mnt); err != nil {
		return fmt.Errorf("lab: lazy unmount of %s: %w", d.Mnt, err)
	}
	d.mounted = false
	return nil
}

// Down unmounts, clears the throttle rules, detaches the loop device and removes the image
// and mount point, each only if Up made it and Down has not yet undone it: calling it again
// is harmless, and it never touches a device that is no longer backed by this drive's image.
func (d *Drive) Down() error {
	var errs []error
	if d.mounted {
		if err := unmount(d.Mnt); err != nil {
			errs = append(errs, fmt.Errorf("lab: unmount %s (is a file under it still open?): %w", d.Mnt, err))
		} else {
			d.mounted = false
		}
	}
	if d.madeMnt && !d.mounted {
		errs = append(errs, removeMade(&d.madeMnt, d.Mnt, "mount point"))
	}
	if d.attached && !d.mounted {
		if err := d.detach(); err != nil {
			errs = append(errs, err)
		}
	}
	if d.madeImg && !d.attached {
		errs = append(errs, removeMade(&d.madeImg, d.Img, "image"))
	}
	return errors.Join(errs...)
}

// removeMade removes path, which Up made, unless it is gone already, and then clears made so
// that a second Down leaves it be; what names it in the error.
func removeMade(made *bool, path, what string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lab: remove %s: %w", what, err)
	}
	*made = false
	return nil
}

// unmount unmounts mnt, waiting up to unmountWait while it is busy: a process that used
// io_uring with registered files (fio --registerfiles) keeps them open after it exits, until
// the kernel tears its ring down a moment later, so an unmount right after it can fail.
func unmount(mnt string) error {
	deadline := time.Now().Add(unmountWait)
	for {
		_, err := run("umount", mnt)
		if err == nil || !strings.Contains(err.Error(), "busy") || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// unmountWait bounds unmount's wait for a busy mount.
const unmountWait = 5 * time.Second

// detach clears the rules and detaches the device, if it is still backed by our image.
func (d *Drive) detach() error {
	ours, err := d.stillOurs()
	if err != nil {
		return err
	}
	if !ours {
		d.attached = false // detached already (by us or someone); its number may be reused
		return nil
	}
	// Clear before detaching: once detached, another user may attach the same device and set
	// rules of its own that are not ours to clear.
	if d.MajMin != "" {
		if err := clearThrottle(d.MajMin); err != nil {
			return err
		}
	}
	if _, err := run("losetup", "--detach", d.Dev); err != nil {
		return fmt.Errorf("lab: detach %s: %w", d.Dev, err)
	}
	d.attached = false
	return nil
}

// stillOurs reports whether d.Dev is attached and backed by d.Img.
func (d *Drive) stillOurs() (bool, error) {
	sysDir, err := d.sysDir()
	if err != nil {
		return false, err
	}
	b, err := os.ReadFile(filepath.Join(sysDir, "loop", "backing_file"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("lab: backing file of %s: %w", d.Dev, err)
	}
	backing := strings.TrimSuffix(strings.TrimSpace(string(b)), " (deleted)")
	return backing == d.Img, nil
}

func (d *Drive) sysDir() (string, error) {
	name := filepath.Base(d.Dev)
	if !strings.HasPrefix(d.Dev, "/dev/loop") || !strings.HasPrefix(name, "loop") {
		return "", fmt.Errorf("lab: %q is not a loop device", d.Dev)
	}
	return filepath.Join("/sys/block", name), nil
}

// run execs a test-time tool and returns its stdout; the error carries its stderr.
func run(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
