package probe

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout bounds each probe that could block (ioctls, SMART through a USB bridge).
const DefaultTimeout = 2 * time.Second

// Options says where to read from and how long a blocking probe may take.
type Options struct {
	// Root is prepended to /sys, /proc, /etc, /dev paths; "" or "/" means the live system.
	Root string
	// Timeout bounds each ioctl-based probe; zero means DefaultTimeout.
	Timeout time.Duration
	// NoIoctl limits identification to files: no command is sent to any drive (no ATA
	// IDENTIFY through a USB bridge). List always works this way.
	NoIoctl bool
}

// live reports whether Options reads the running system (so stat and ioctls make sense).
func (o Options) live() bool { return o.Root == "" || o.Root == "/" }

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// Live reports whether o reads the running system (so ioctls to drives make sense).
func (o Options) Live() bool { return o.live() }

// ProbeTimeout is the bound of each probe that could block: Timeout, or DefaultTimeout.
func (o Options) ProbeTimeout() time.Duration { return o.timeout() }

// Path maps an absolute system path such as /sys/block into o.Root.
func (o Options) Path(abs string) string { return o.path(abs) }

// path maps an absolute system path such as /sys/block into the root.
func (o Options) path(abs string) string {
	if o.live() {
		return abs
	}
	return filepath.Join(o.Root, abs)
}

// unroot turns a path under the root back into the system path it stands for.
func (o Options) unroot(p string) string {
	if o.live() {
		return p
	}
	rel, err := filepath.Rel(o.Root, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return "/" + rel
}

// readString returns a sysfs/procfs attribute with surrounding white space removed, or "" when
// it cannot be read (absent hardware is not an error).
func readString(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(bytes.TrimRight(b, "\x00")))
}

// readInt parses a decimal attribute; ok is false when absent or malformed.
func readInt(p string) (int64, bool) {
	s := readString(p)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// readHex16 parses an attribute such as idVendor ("174c") or a PCI id ("0x1af4").
func readHex16(p string) (uint16, bool) {
	s := strings.TrimPrefix(readString(p), "0x")
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, 16)
	if err != nil {
		return 0, false
	}
	return uint16(v), true
}

// exists reports whether p exists (following symlinks).
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// linkBase returns the last element of a symlink's target, e.g. the driver name behind
// .../driver -> ../../bus/usb/drivers/uas.
func linkBase(p string) string {
	t, err := os.Readlink(p)
	if err != nil {
		return ""
	}
	return filepath.Base(t)
}
