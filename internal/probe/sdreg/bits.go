package sdreg

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"strconv"
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

// decode parses text as register name of hexDigits digits and fills the fields of a T that
// name their bits in a `reg` tag (see decodeFields); the decoder works out the rest from r.
func decode[T any](name, text string, hexDigits int) (T, register, error) {
	var v T
	r, err := parseRegister(name, text, hexDigits)
	if err != nil {
		return v, nil, err
	}
	r.decodeFields(reflect.ValueOf(&v).Elem())
	return v, r, nil
}

// decodeFields sets each field of struct v tagged `reg:"msb:lsb"` (or `reg:"bit"` for one
// bit), the range in the specification's own notation, to that field of r: an integer
// takes its value, a bool whether it is 1. Untagged struct fields are filled in turn. The
// tags are fixed at compile time and every decoder's tests read them, so a malformed one is
// a programming error and panics.
func (r register) decodeFields(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := v.Field(i)
		tag, ok := t.Field(i).Tag.Lookup("reg")
		if !ok {
			if f.Kind() == reflect.Struct {
				r.decodeFields(f)
			}
			continue
		}
		msb, lsb := bitRange(tag)
		x := r.bits(lsb, msb-lsb+1)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(x == 1)
		case reflect.Int:
			f.SetInt(int64(x))
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f.SetUint(x)
		default:
			panic("sdreg: reg tag on a field of kind " + f.Kind().String())
		}
	}
}

// bitRange reads a reg tag: "msb:lsb", or "n" for the single bit n.
func bitRange(tag string) (msb, lsb int) {
	hi, lo, found := strings.Cut(tag, ":")
	if !found {
		lo = hi
	}
	msb, err1 := strconv.Atoi(hi)
	lsb, err2 := strconv.Atoi(lo)
	if err1 != nil || err2 != nil || msb < lsb {
		panic(fmt.Sprintf("sdreg: malformed reg tag %q", tag))
	}
	return msb, lsb
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
