package probe

import (
	"errors"
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
	ataPassThru12  = 0xa1
	sgInfoOKMask   = 0x1
	sgInfoOK       = 0x0
)

// ataIdentify sends ATA IDENTIFY DEVICE wrapped in SCSI ATA PASS-THROUGH (SAT-3) through
// SG_IO. It reads 512 bytes and writes nothing. A bridge that hangs on unknown commands
// cannot hang iomark: the ioctl runs in its own goroutine and is abandoned after the timeout.
func ataIdentify(o Options, devPath string) (*ATAIdentity, error) {
	var id *ATAIdentity
	err := ATASession(o, devPath, func(send func(ATACommand) ([]byte, error)) error {
		b, err := send(ATAIdentifyDevice)
		if err != nil {
			return err
		}
		id, err = parseIdentify(b)
		return err
	})
	return id, err
}

// ATASession opens devPath read-only and calls fn with a sender of the read-only ATA commands
// this package defines (ATAIdentifyDevice, the SMART reads), wrapped in SCSI ATA PASS-THROUGH
// (16), or (12) for bridges that refuse the 16-byte form (SAT-3; smartmontools' "-d sat,12").
// Each command is bounded by the probe timeout inside the kernel (sg_io_hdr.timeout) and the
// whole session, open included (a device in error recovery can block open(2)), by the timeout
// and a half second more: a bridge that never answers cannot hang iomark; its goroutine is
// abandoned and ends whenever the kernel returns.
func ATASession(o Options, devPath string, fn func(send func(ATACommand) ([]byte, error)) error) error {
	if !o.live() {
		return errNotLive
	}
	timeout := o.timeout()
	_, err := withTimeout(timeout+500*time.Millisecond, func() (struct{}, error) {
		fd, err := unix.Open(devPath, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return struct{}{}, fmt.Errorf("open %s: %w (run as root to ask the drive behind the bridge)", devPath, err)
		}
		defer unix.Close(fd)
		s := &sgSession{fd: fd, timeout: timeout}
		return struct{}{}, fn(s.send)
	})
	return err
}

// sgSession remembers which pass-through form the device took, so a bridge that refused
// the 16-byte form is asked in the 12-byte form from then on.
type sgSession struct {
	fd      int
	timeout time.Duration
	use12   bool
}

func (s *sgSession) send(c ATACommand) ([]byte, error) {
	if c.command == 0 {
		return nil, fmt.Errorf("no such ATA command")
	}
	if !s.use12 {
		b, err := sgATA(s.fd, c, false, s.timeout)
		if err == nil || !errors.Is(err, errRejected) {
			return b, err
		}
		s.use12 = true
	}
	return sgATA(s.fd, c, true, s.timeout)
}

var errRejected = errors.New("the device rejected ATA PASS-THROUGH")

// sgATA sends one PIO data-in command of c.count sectors. Only the commands of ata.go can be
// built: none of them writes to the drive.
func sgATA(fd int, c ATACommand, twelve bool, timeout time.Duration) ([]byte, error) {
	buf := make([]byte, 512*int(c.count))
	sense := make([]byte, 32)
	var cdb []byte
	if twelve {
		cdb = make([]byte, 12)
		cdb[0] = ataPassThru12
		cdb[1] = 4 << 1 // protocol: PIO data-in
		cdb[2] = 0x0e   // T_DIR from device, BYT_BLOK blocks, T_LENGTH in the sector count field
		cdb[3] = c.feature
		cdb[4] = c.count
		cdb[5], cdb[6], cdb[7] = c.lbaLow, c.lbaMid, c.lbaHigh
		cdb[9] = c.command
	} else {
		cdb = make([]byte, 16)
		cdb[0] = ataPassThru16
		cdb[1] = 4 << 1
		cdb[2] = 0x0e
		cdb[4] = c.feature
		cdb[6] = c.count
		cdb[8], cdb[10], cdb[12] = c.lbaLow, c.lbaMid, c.lbaHigh
		cdb[14] = c.command
	}
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
		return nil, fmt.Errorf("%s: SG_IO: %w", c.name, errno)
	}
	if hdr.status != 0 || hdr.hostStatus != 0 || hdr.driverStatus != 0 {
		return nil, fmt.Errorf("%s: %w (SCSI status %#x, host %#x, driver %#x)",
			c.name, errRejected, hdr.status, hdr.hostStatus, hdr.driverStatus)
	}
	return buf, nil
}
