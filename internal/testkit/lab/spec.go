package lab

import (
	"fmt"
	"regexp"
)

// Spec describes an emulated drive. Zero limits mean unlimited.
type Spec struct {
	Name   string // short label used in file names: letters, digits, '-', '_' (required)
	SizeMB int    // image size in MiB (2^20 bytes, as dd bs=1M); 0 means 256
	// Throttle limits applied to the whole device for every process, buffered writeback too.
	ReadIOPS, WriteIOPS int
	ReadMBps, WriteMBps int    // 10^6 bytes/s, as fio and dd print MB/s
	FS                  string // "" for a bare block device, "ext4" for ext4 mounted on a temp dir
}

// Drive is an emulated drive brought up by Up. Fields are for reading only.
type Drive struct {
	Dev    string // block device, e.g. /dev/loop3
	Mnt    string // mount point when Spec.FS is "ext4", else ""
	Img    string // backing image in /dev/shm
	MajMin string // "7:3", the key of the blkio throttle rules
	Spec   Spec

	// What Up created and Down has not yet undone; Down clears each as it undoes it, which
	// makes Down idempotent and keeps it away from anything it did not create.
	attached, mounted, madeMnt, madeImg bool
}

const defaultSizeMB = 256

// maxSizeMB bounds an image so a typo cannot fill memory (the images live in RAM).
const maxSizeMB = 16 << 10

var namePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

// withDefaults checks s and fills its defaults, so Up never starts on a spec it cannot finish.
func (s Spec) withDefaults() (Spec, error) {
	if !namePattern.MatchString(s.Name) {
		return s, fmt.Errorf("lab: drive name %q: use 1-40 letters, digits, '-' or '_'", s.Name)
	}
	if s.SizeMB == 0 {
		s.SizeMB = defaultSizeMB
	}
	if s.SizeMB < 0 || s.SizeMB > maxSizeMB {
		return s, fmt.Errorf("lab: drive %s: size %d MiB out of range 1..%d", s.Name, s.SizeMB, maxSizeMB)
	}
	if s.FS == "ext4" && s.SizeMB < 16 {
		return s, fmt.Errorf("lab: drive %s: ext4 needs at least 16 MiB, got %d", s.Name, s.SizeMB)
	}
	if s.FS != "" && s.FS != "ext4" {
		return s, fmt.Errorf("lab: drive %s: filesystem %q not supported: use \"\" or \"ext4\"", s.Name, s.FS)
	}
	if err := checkLimits(s.ReadIOPS, s.WriteIOPS, s.ReadMBps, s.WriteMBps); err != nil {
		return s, fmt.Errorf("lab: drive %s: %w", s.Name, err)
	}
	return s, nil
}

func checkLimits(readIOPS, writeIOPS, readMBps, writeMBps int) error {
	for _, l := range []struct {
		name  string
		value int
	}{{"read IOPS", readIOPS}, {"write IOPS", writeIOPS}, {"read MB/s", readMBps}, {"write MB/s", writeMBps}} {
		if l.value < 0 {
			return fmt.Errorf("%s limit %d is negative: use 0 for unlimited", l.name, l.value)
		}
	}
	return nil
}

// A good microSD card's limits in a Raspberry Pi 4: the drive whose right answers the engine
// and runner tests know. profile's iomark score calls the same card 100.
const (
	MicroSDReadIOPS  = 2600
	MicroSDWriteIOPS = 700
	MicroSDReadMBps  = 40
	MicroSDWriteMBps = 20
)

// MicroSD is the spec of a 512 MiB drive with a microSD card's limits; fs as Spec.FS.
func MicroSD(name, fs string) Spec {
	return Spec{Name: name, SizeMB: 512, FS: fs, ReadIOPS: MicroSDReadIOPS, WriteIOPS: MicroSDWriteIOPS,
		ReadMBps: MicroSDReadMBps, WriteMBps: MicroSDWriteMBps}
}
