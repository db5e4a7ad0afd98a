package sdreg

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// register is a big-endian bit string as the kernel prints it: the first hex digit holds the
// register's most significant bits. Bit n counts from the least significant bit, as the SD
// specification numbers them (CID bit 127 is the first bit of the first byte).
type register []byte

// parseRegister turns sysfs text into a register of exactly hexDigits digits. Whitespace
// anywhere (the kernel ends each attribute with a newline) and an optional 0x prefix are
// tolerated; anything else is an error naming the register.
func parseRegister(name, text string, hexDigits int) (register, error) {
	clean := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			return -1
		}
		return r
	}, text)
	if len(clean) >= 2 && clean[0] == '0' && (clean[1] == 'x' || clean[1] == 'X') {
		clean = clean[2:]
	}
	if len(clean) != hexDigits {
		return nil, fmt.Errorf("%s register: want %d hex digits, got %d (%q); read it from /sys/block/mmcblkN/device/%s",
			name, hexDigits, len(clean), shorten(text), strings.ToLower(name))
	}
	raw, err := hex.DecodeString(clean)
	if err != nil {
		return nil, fmt.Errorf("%s register: not hex text (%q): %w", name, shorten(text), err)
	}
	return register(raw), nil
}

// bits returns the field of width bits whose least significant bit is lsb. Fields wider than
// 64 bits or outside the register read as zero rather than panicking.
func (r register) bits(lsb, width int) uint64 {
	total := len(r) * 8
	if width <= 0 || width > 64 || lsb < 0 || lsb+width > total {
		return 0
	}
	var v uint64
	for i := lsb + width - 1; i >= lsb; i-- {
		byteIdx := len(r) - 1 - i/8
		bit := (r[byteIdx] >> uint(i%8)) & 1
		v = v<<1 | uint64(bit)
	}
	return v
}

// bytesAt returns n whole bytes starting at the byte holding bit msb (msb must be the top bit
// of a byte, as for the CID's ASCII fields).
func (r register) bytesAt(msb, n int) []byte {
	start := len(r) - 1 - msb/8
	if start < 0 || n < 0 || start+n > len(r) {
		return nil
	}
	out := make([]byte, n)
	copy(out, r[start:start+n])
	return out
}

func shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// printable renders register bytes meant as ASCII: NUL padding and surrounding spaces are
// trimmed, other bytes outside printable ASCII become '?', so the result is safe to print.
func printable(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			sb.WriteByte(c)
		} else if c == 0 {
			sb.WriteByte(' ')
		} else {
			sb.WriteByte('?')
		}
	}
	return strings.TrimSpace(sb.String())
}

// isPrintableASCII reports whether every byte is printable ASCII (space included).
func isPrintableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
