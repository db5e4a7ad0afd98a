package pirev

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Revision is a decoded board revision code.
type Revision struct {
	Code          uint32
	NewStyle      bool   // bit 23; codes without it are the sequential old-style codes
	Type          string // "4B", "5", "3B+", "CM4", "Zero 2 W", ...
	Model         string // "Raspberry Pi 4 Model B"
	BoardRevision string // "1.4"
	MemoryMB      int    // 0 when the code says "other" (the firmware knows the size)
	Manufacturer  string // "Sony UK", "Embest", ...
	Processor     string // "BCM2711"
	WarrantyVoid  bool   // new style bit 25; old style bit 24 (the "1000" prefix)
	// OvervoltageDisallowed, OTPProgramDisallowed and OTPReadDisallowed are bits 31, 30 and
	// 29 of a new-style code (the N, O and Q flags).
	OvervoltageDisallowed bool
	OTPProgramDisallowed  bool
	OTPReadDisallowed     bool
	TypeCode              int // the raw type field (bits 4-11), -1 for old-style codes
}

// Bits of the new-style code: NOQuuuWuFMMMCCCCPPPPTTTTTTTTRRRR.
const (
	bitOvervoltage  = 31
	bitOTPProgram   = 30
	bitOTPRead      = 29
	bitWarranty     = 25
	bitOldWarranty  = 24
	bitNewStyle     = 23
	newStyleMask    = 1 << bitNewStyle
	oldStyleCodeMax = 0xffff
)

// Decode decodes a revision code. An unknown old-style code, or a new-style code whose type
// or processor field is undocumented, returns the fields it could decode and an error.
func Decode(code uint32) (Revision, error) {
	r := Revision{Code: code, TypeCode: -1}
	if code&newStyleMask == 0 {
		return decodeOld(r)
	}
	r.NewStyle = true
	r.OvervoltageDisallowed = code>>bitOvervoltage&1 == 1
	r.OTPProgramDisallowed = code>>bitOTPProgram&1 == 1
	r.OTPReadDisallowed = code>>bitOTPRead&1 == 1
	r.WarrantyVoid = code>>bitWarranty&1 == 1
	r.BoardRevision = fmt.Sprintf("1.%d", code&0xf)
	r.MemoryMB = memoryMB[code>>20&0x7]
	r.Manufacturer = manufacturers[code>>16&0xf]

	typeCode := code >> 4 & 0xff
	r.TypeCode = int(typeCode)
	var errs []string
	if p, ok := processors[code>>12&0xf]; ok {
		r.Processor = p
	} else {
		errs = append(errs, fmt.Sprintf("processor field %d", code>>12&0xf))
	}
	if t, ok := newTypes[typeCode]; ok {
		r.Type, r.Model = t.Short, t.Model
		if typeCode == 0x19 && plus500[code&0xffffff] {
			r.Type, r.Model = "500+", "Raspberry Pi 500+"
		}
	} else {
		errs = append(errs, fmt.Sprintf("board type 0x%02x", typeCode))
	}
	if r.Manufacturer == "" {
		errs = append(errs, fmt.Sprintf("manufacturer field %d", code>>16&0xf))
	}
	if len(errs) > 0 {
		return r, fmt.Errorf("revision code %x: undocumented %s; the board may be newer than this iomark",
			code, strings.Join(errs, ", "))
	}
	return r, nil
}

func decodeOld(r Revision) (Revision, error) {
	code := r.Code
	// Over-volted boards of the old style read with bit 24 set ("1000002"); bit 25 is the
	// later position of the same flag.
	r.WarrantyVoid = code>>bitOldWarranty&1 == 1 || code>>bitWarranty&1 == 1
	b, ok := oldCodes[code&oldStyleCodeMax]
	if !ok || code&^(oldStyleCodeMax|1<<bitOldWarranty|1<<bitWarranty) != 0 {
		return r, fmt.Errorf("revision code %x: not a documented old-style code (0002-0015) nor a new-style code (bit 23 clear)", code)
	}
	r.Type = b.Type
	r.Model = oldModels[b.Type]
	r.BoardRevision = b.BoardRevision
	r.MemoryMB = b.MemoryMB
	r.Manufacturer = b.Manufacturer
	r.Processor = "BCM2835"
	return r, nil
}

// Parse decodes the hex text of a cpuinfo "Revision" line value ("c03111", "0010",
// "1000002"); surrounding space and a 0x prefix are accepted.
func Parse(s string) (Revision, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "0x"), "0X")
	if t == "" {
		return Revision{}, fmt.Errorf("revision code: empty; expected hex text such as c03111 from the Revision line of /proc/cpuinfo")
	}
	code, err := strconv.ParseUint(t, 16, 32)
	if err != nil {
		return Revision{}, fmt.Errorf("revision code %q: not 32-bit hex text such as c03111: %w", shortText(s), err)
	}
	return Decode(uint32(code))
}

// ParseDeviceTree decodes the contents of /proc/device-tree/system/linux,revision: one
// 32-bit big-endian cell.
func ParseDeviceTree(b []byte) (Revision, error) {
	if len(b) != 4 {
		return Revision{}, fmt.Errorf("device-tree linux,revision: want 4 bytes, got %d", len(b))
	}
	return Decode(binary.BigEndian.Uint32(b))
}

func shortText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
