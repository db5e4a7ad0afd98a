package probe

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sgIOHdr mirrors struct sg_io_hdr of <scsi/sg.h>; Go lays it out as C does on every Linux
// architecture we build for (pointers are uintptr-sized).
type sgIOHdr struct {
	interfaceID    int32
	dxferDirection int32
	cmdLen         uint8
	mxSbLen        uint8
	iovecCount     uint16
	dxferLen       uint32
	dxferp         uintptr
	cmdp           uintptr
	sbp            uintptr
	timeout        uint32
	flags          uint32
	packID         int32
	usrPtr         uintptr
	status         uint8
	maskedStatus   uint8
	msgStatus      uint8
	sbLenWr        uint8
	hostStatus     uint16
	driverStatus   uint16
	resid          int32
	duration       uint32
	info           uint32
}

const (
	sgIO           = 0x2285
	sgDxferFromDev = -3
	ataPassThru16  = 0x85
	ataIdentifyCmd = 0xec
	sgInfoOKMask   = 0x1
	sgInfoOK       = 0x0
)

// ataIdentify sends ATA IDENTIFY DEVICE wrapped in SCSI ATA PASS-THROUGH (16) (SAT-3) through
// SG_IO. It reads 512 bytes and writes nothing. A bridge that hangs on unknown commands
// cannot hang iomark: the ioctl runs in its own goroutine and is abandoned after the timeout.
func ataIdentify(o Options, devPath string) (*ATAIdentity, error) {
	if !o.live() {
		return nil, errNotLive
	}
	timeout := o.timeout()
	// Opening is inside the guard too: a device stuck in error recovery can block open(2).
	return withTimeout(timeout+500*time.Millisecond, func() (*ATAIdentity, error) {
		fd, err := unix.Open(devPath, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w (run as root to ask the drive behind the bridge)", devPath, err)
		}
		defer unix.Close(fd)
		return sgIdentify(fd, timeout)
	})
}

func sgIdentify(fd int, timeout time.Duration) (*ATAIdentity, error) {
	buf := make([]byte, 512)
	sense := make([]byte, 32)
	cdb := make([]byte, 16)
	cdb[0] = ataPassThru16
	cdb[1] = 4 << 1 // protocol: PIO data-in
	cdb[2] = 0x0e   // T_DIR from device, BYT_BLOK blocks, T_LENGTH in the sector count field
	cdb[6] = 1      // one sector
	cdb[14] = ataIdentifyCmd
	hdr := &sgIOHdr{
		interfaceID:    'S',
		dxferDirection: sgDxferFromDev,
		cmdLen:         uint8(len(cdb)),
		mxSbLen:        uint8(len(sense)),
		dxferLen:       uint32(len(buf)),
		dxferp:         uintptr(unsafe.Pointer(&buf[0])),
		cmdp:           uintptr(unsafe.Pointer(&cdb[0])),
		sbp:            uintptr(unsafe.Pointer(&sense[0])),
		timeout:        uint32(timeout / time.Millisecond),
	}
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), sgIO, uintptr(unsafe.Pointer(hdr)))
	runtime.KeepAlive(buf)
	runtime.KeepAlive(sense)
	runtime.KeepAlive(cdb)
	if errno != 0 {
		return nil, fmt.Errorf("SG_IO: %w", errno)
	}
	if hdr.status != 0 || hdr.hostStatus != 0 || hdr.driverStatus != 0 {
		return nil, fmt.Errorf("the bridge rejected ATA PASS-THROUGH (SCSI status %#x, host %#x, driver %#x)",
			hdr.status, hdr.hostStatus, hdr.driverStatus)
	}
	return parseIdentify(buf)
}
