package lab

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// imageDir holds the drive images: tmpfs, so a drive is RAM-backed and adds no disk noise.
const imageDir = "/dev/shm"

// Available reports whether drives can be brought up here: nil if root, the loop driver,
// losetup, /dev/shm and a writable root cgroup-v1 blkio controller are all present, else an
// error naming each thing missing and how to get it.
func Available() error {
	var m missing
	m.root()
	m.loop()
	fi, err := os.Stat(imageDir)
	m.need(err == nil && fi.IsDir(), imageDir+" (a tmpfs for RAM-backed images)")
	if err := blkioWritable(); err != nil {
		m = append(m, err.Error())
	}
	return m.err("drives")
}

// missing collects, in the order checked, what an emulated device needs and this machine
// lacks, each saying how to get it.
type missing []string

func (m *missing) need(present bool, what string) {
	if !present {
		*m = append(*m, what)
	}
}

func (m *missing) root() { m.need(os.Geteuid() == 0, "root (run as root, e.g. sudo go test ./...)") }

// loop is the loop driver and losetup.
func (m *missing) loop() {
	_, err := os.Stat("/dev/loop-control")
	m.need(err == nil, "the loop driver (/dev/loop-control: modprobe loop)")
	_, err = exec.LookPath("losetup")
	m.need(err == nil, "losetup (apt-get install util-linux)")
}

// err is nil when nothing is missing, else the error naming each thing.
func (m missing) err(devices string) error {
	if len(m) > 0 {
		return fmt.Errorf("lab: emulated %s unavailable: missing %s", devices, strings.Join(m, "; "))
	}
	return nil
}

// availableFor adds the tools a particular spec needs.
func availableFor(s Spec) error {
	if err := Available(); err != nil {
		return err
	}
	if s.FS == "ext4" {
		for _, tool := range []string{"mkfs.ext4", "mount", "umount"} {
			if _, err := exec.LookPath(tool); err != nil {
				return fmt.Errorf("lab: drive %s needs %s (apt-get install e2fsprogs mount)", s.Name, tool)
			}
		}
	}
	return nil
}

func blkioWritable() error {
	for _, kind := range throttleKinds {
		f, err := os.OpenFile(throttlePath(kind), os.O_WRONLY, 0)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("the cgroup-v1 blkio controller at %s (cgroup-v2-only systems cannot throttle a device for every process this way)", blkioRoot)
			}
			return fmt.Errorf("write access to %s: %v", throttlePath(kind), err)
		}
		f.Close()
	}
	return nil
}
