package probe

import (
	"errors"
	"strings"
)

var errNotLive = errors.New("not probing the live system")

// ErrNotLive is returned by the probes that ask a drive (ioctls) when Options reads a fixture
// root instead of the running system: there is no drive to ask.
var ErrNotLive = errNotLive

// ATACommand is one of the read-only ATA commands ATASession may send; the values below are
// the only ones there are (the fields are unexported so no other command can be built). Each
// reads count 512-byte sectors by PIO and changes nothing on the drive.
type ATACommand struct {
	name                    string
	command, feature, count uint8
	lbaLow, lbaMid, lbaHigh uint8
}

// The read-only commands (ACS-3: IDENTIFY DEVICE 7.12; SMART 7.44, whose subcommands carry
// the signature 4Fh/C2h in LBA mid/high; SCT status is log address E0h read by SMART READ
// LOG, ACS-3 8.1 and 8.2.1).
var (
	ATAIdentifyDevice        = ATACommand{name: "IDENTIFY DEVICE", command: 0xec, count: 1}
	ATASMARTReadData         = ATACommand{name: "SMART READ DATA", command: 0xb0, feature: 0xd0, count: 1, lbaMid: 0x4f, lbaHigh: 0xc2}
	ATASMARTReadThresholds   = ATACommand{name: "SMART READ ATTRIBUTE THRESHOLDS", command: 0xb0, feature: 0xd1, count: 1, lbaMid: 0x4f, lbaHigh: 0xc2}
	ATASMARTReadLogSCTStatus = ATACommand{name: "SMART READ LOG (SCT status)", command: 0xb0, feature: 0xd5, count: 1, lbaLow: 0xe0, lbaMid: 0x4f, lbaHigh: 0xc2}
)

// String names the command as ACS names it.
func (c ATACommand) String() string { return c.name }

// parseIdentify decodes the 512-byte ATA IDENTIFY DEVICE answer (ATA8-ACS section 7.16):
// strings are big-endian within each 16-bit word.
func parseIdentify(b []byte) (*ATAIdentity, error) {
	if len(b) < 512 {
		return nil, errors.New("short IDENTIFY answer")
	}
	word := func(n int) uint16 { return uint16(b[2*n]) | uint16(b[2*n+1])<<8 }
	str := func(from, to int) string {
		var s []byte
		for w := from; w <= to; w++ {
			v := word(w)
			s = append(s, byte(v>>8), byte(v))
		}
		return strings.TrimSpace(strings.Map(func(r rune) rune {
			if r < 0x20 || r > 0x7e {
				return -1
			}
			return r
		}, string(s)))
	}
	id := &ATAIdentity{
		Model:      str(27, 46),
		Firmware:   str(23, 26),
		SerialHash: hashSerial(str(10, 19)),
	}
	if id.Model == "" {
		return nil, errors.New("IDENTIFY answer has no model: the bridge did not pass the command through")
	}
	// Word 217: nominal media rotation rate; 1 = non-rotating, 0x0401-0xfffe = rpm.
	if rr := word(217); rr == 1 || rr >= 0x0401 && rr != 0xffff {
		id.RotationRateRPM = int(rr)
	}
	// Word 76: SATA capabilities; bits 1-3 Gen1-Gen3 (0xffff and 0 mean not reported).
	if c := word(76); c != 0 && c != 0xffff {
		switch {
		case c&(1<<3) != 0:
			id.SATAGbps = 6
		case c&(1<<2) != 0:
			id.SATAGbps = 3
		case c&(1<<1) != 0:
			id.SATAGbps = 1.5
		}
	}
	return id, nil
}
