package dm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

const control = "/dev/mapper/control"

// Create makes device NAME with the table and resumes it; it returns the node /dev/dm-N
// (devtmpfs makes it; there is no udev in a lab guest to add /dev/mapper/NAME).
func Create(name string, table []Target) (string, error) {
	if _, err := call(unix.DM_DEV_CREATE, name, 0, nil); err != nil {
		return "", fmt.Errorf("dm create %s: %w (is dm-mod loaded?)", name, err)
	}
	if err := Reload(name, table); err != nil {
		Remove(name)
		return "", err
	}
	return Node(name)
}

// Reload swaps the table of a live device: load, suspend, resume (in-flight I/O completes
// first, later I/O meets the new table).
func Reload(name string, table []Target) error {
	if _, err := call(unix.DM_TABLE_LOAD, name, 0, table); err != nil {
		return fmt.Errorf("dm load %s (%s): %w", name, Format(table), err)
	}
	if _, err := call(unix.DM_DEV_SUSPEND, name, unix.DM_SUSPEND_FLAG, nil); err != nil {
		return fmt.Errorf("dm suspend %s: %w", name, err)
	}
	if _, err := call(unix.DM_DEV_SUSPEND, name, 0, nil); err != nil {
		return fmt.Errorf("dm resume %s: %w", name, err)
	}
	return nil
}

// Remove deletes the device.
func Remove(name string) error {
	if _, err := call(unix.DM_DEV_REMOVE, name, 0, nil); err != nil {
		return fmt.Errorf("dm remove %s: %w", name, err)
	}
	return nil
}

// Node finds /dev/dm-N of a device from its number.
func Node(name string) (string, error) {
	hdr, err := call(unix.DM_DEV_STATUS, name, 0, nil)
	if err != nil {
		return "", fmt.Errorf("dm status %s: %w", name, err)
	}
	maj, min := unix.Major(hdr.Dev), unix.Minor(hdr.Dev)
	p, err := filepath.EvalSymlinks(fmt.Sprintf("/sys/dev/block/%d:%d", maj, min))
	if err != nil {
		return "", fmt.Errorf("dm %s is %d:%d but sysfs has no such block device: %w", name, maj, min, err)
	}
	return "/dev/" + filepath.Base(p), nil
}

// call issues one DM ioctl with the header, then the targets (each spec followed by its
// NUL-terminated parameters, padded to 8 bytes), as dm-ioctl.h lays them out.
func call(req uint, name string, flags uint32, table []Target) (unix.DmIoctl, error) {
	var hdr unix.DmIoctl
	if len(name) >= len(hdr.Name) {
		return hdr, fmt.Errorf("name %q too long", name)
	}
	var body []byte
	for i, t := range table {
		params := append([]byte(t.Params), 0)
		for (unix.SizeofDmTargetSpec+len(params))%8 != 0 {
			params = append(params, 0)
		}
		spec := unix.DmTargetSpec{Sector_start: t.Start, Length: t.Sectors}
		copy(spec.Target_type[:], t.Type)
		if i < len(table)-1 {
			spec.Next = uint32(unix.SizeofDmTargetSpec + len(params))
		}
		body = append(body, unsafe.Slice((*byte)(unsafe.Pointer(&spec)), unix.SizeofDmTargetSpec)...)
		body = append(body, params...)
	}
	buf := make([]byte, unix.SizeofDmIoctl+len(body)+16<<10)
	hdr.Version = [3]uint32{unix.DM_VERSION_MAJOR, 0, 0}
	hdr.Data_size = uint32(len(buf))
	hdr.Data_start = unix.SizeofDmIoctl
	hdr.Target_count = uint32(len(table))
	hdr.Flags = flags
	copy(hdr.Name[:], name)
	copy(buf, unsafe.Slice((*byte)(unsafe.Pointer(&hdr)), unix.SizeofDmIoctl))
	copy(buf[unix.SizeofDmIoctl:], body)

	f, err := os.OpenFile(control, os.O_RDWR, 0)
	if err != nil {
		return hdr, fmt.Errorf("open %s: %w", control, err)
	}
	defer f.Close()
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, f.Fd(), uintptr(req), uintptr(unsafe.Pointer(&buf[0]))); e != 0 {
		return hdr, e
	}
	out := *(*unix.DmIoctl)(unsafe.Pointer(&buf[0]))
	return out, nil
}

// Names lists dm devices by their sysfs dm/name (for a guest's log).
func Names() []string {
	ms, _ := filepath.Glob("/sys/block/dm-*/dm/name")
	var out []string
	for _, m := range ms {
		b, _ := os.ReadFile(m)
		out = append(out, strings.TrimSpace(string(b)))
	}
	return out
}
