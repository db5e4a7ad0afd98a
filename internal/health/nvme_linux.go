package health

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/probe"
)

// nvmePassthruCmd mirrors struct nvme_passthru_cmd of <linux/nvme_ioctl.h> (72 bytes; the
// same layout on every architecture: the pointers are carried in __u64 fields).
type nvmePassthruCmd struct {
	opcode      uint8
	flags       uint8
	rsvd1       uint16
	nsid        uint32
	cdw2, cdw3  uint32
	metadata    uint64
	addr        uint64
	metadataLen uint32
	dataLen     uint32
	cdw10       uint32
	cdw11       uint32
	cdw12       uint32
	cdw13       uint32
	cdw14       uint32
	cdw15       uint32
	timeoutMS   uint32
	result      uint32
}

const (
	// nvmeIoctlAdminCmd is _IOWR('N', 0x41, struct nvme_admin_cmd) with a 72-byte struct.
	nvmeIoctlAdminCmd = 0xc0484e41
	nvmeAdminGetLog   = 0x02 // Get Log Page (NVMe 2.0, section 5.16)
	nvmeLogSMART      = 0x02 // SMART / Health Information
	nvmeNSIDAll       = 0xffffffff
)

// readNVMe reads the SMART / Health Information log of the controller behind devPath (a
// namespace such as /dev/nvme0n1: the kernel passes admin commands from a namespace to its
// controller) with Get Log Page, a read-only admin command, bounded by the probe timeout.
func readNVMe(o probe.Options, devPath string) (*Health, error) {
	timeout := o.ProbeTimeout()
	b, err := probe.WithTimeout(timeout+500*time.Millisecond, func() ([]byte, error) {
		fd, err := unix.Open(devPath, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w (run as root to read the drive's health log)", devPath, err)
		}
		defer unix.Close(fd)
		buf := make([]byte, nvmeLogBytes)
		cmd := &nvmePassthruCmd{
			opcode:    nvmeAdminGetLog,
			nsid:      nvmeNSIDAll,
			addr:      uint64(uintptr(unsafe.Pointer(&buf[0]))),
			dataLen:   uint32(len(buf)),
			cdw10:     uint32(len(buf)/4-1)<<16 | nvmeLogSMART, // NUMDL (dwords, 0-based) and LID
			timeoutMS: uint32(timeout / time.Millisecond),
		}
		status, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), nvmeIoctlAdminCmd, uintptr(unsafe.Pointer(cmd)))
		runtime.KeepAlive(buf)
		if errno != 0 {
			return nil, fmt.Errorf("Get Log Page: %w", errno)
		}
		if status != 0 {
			// The kernel returns a command's NVMe status as a positive return value.
			return nil, fmt.Errorf("the drive refused Get Log Page (NVMe status %#x)", status)
		}
		return buf, nil
	})
	if err != nil {
		return nil, err
	}
	return decodeNVMeLog(b)
}
