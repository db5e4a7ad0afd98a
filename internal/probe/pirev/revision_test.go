package pirev

import (
	"strings"
	"testing"
)

// Expected values are the rows of the "codes in use" tables of the official page
// (raspberrypi/documentation, computers/raspberry-pi/revision-codes.adoc).
func TestDecodeDocumentedCodes(t *testing.T) {
	tests := []struct {
		code         string
		typ          string
		model        string
		rev          string
		memMB        int
		manufacturer string
		processor    string
	}{
		{"900021", "A+", "Raspberry Pi Model A+", "1.1", 512, "Sony UK", "BCM2835"},
		{"900032", "B+", "Raspberry Pi Model B+", "1.2", 512, "Sony UK", "BCM2835"},
		{"a01041", "2B", "Raspberry Pi 2 Model B", "1.1", 1024, "Sony UK", "BCM2836"},
		{"a22042", "2B", "Raspberry Pi 2 Model B", "1.2", 1024, "Embest", "BCM2837"},
		{"900061", "CM1", "Raspberry Pi Compute Module 1", "1.1", 512, "Sony UK", "BCM2835"},
		{"a02082", "3B", "Raspberry Pi 3 Model B", "1.2", 1024, "Sony UK", "BCM2837"},
		{"a32082", "3B", "Raspberry Pi 3 Model B", "1.2", 1024, "Sony Japan", "BCM2837"},
		{"a52082", "3B", "Raspberry Pi 3 Model B", "1.2", 1024, "Stadium", "BCM2837"},
		{"920093", "Zero", "Raspberry Pi Zero", "1.3", 512, "Embest", "BCM2835"},
		{"a220a0", "CM3", "Raspberry Pi Compute Module 3", "1.0", 1024, "Embest", "BCM2837"},
		{"9000c1", "Zero W", "Raspberry Pi Zero W", "1.1", 512, "Sony UK", "BCM2835"},
		{"a020d4", "3B+", "Raspberry Pi 3 Model B+", "1.4", 1024, "Sony UK", "BCM2837"},
		{"9020e1", "3A+", "Raspberry Pi 3 Model A+", "1.1", 512, "Sony UK", "BCM2837"},
		{"a02100", "CM3+", "Raspberry Pi Compute Module 3+", "1.0", 1024, "Sony UK", "BCM2837"},
		{"c03111", "4B", "Raspberry Pi 4 Model B", "1.1", 4096, "Sony UK", "BCM2711"},
		{"d03115", "4B", "Raspberry Pi 4 Model B", "1.5", 8192, "Sony UK", "BCM2711"},
		{"902120", "Zero 2 W", "Raspberry Pi Zero 2 W", "1.0", 512, "Sony UK", "BCM2837"},
		{"c03130", "400", "Raspberry Pi 400", "1.0", 4096, "Sony UK", "BCM2711"},
		{"a03140", "CM4", "Raspberry Pi Compute Module 4", "1.0", 1024, "Sony UK", "BCM2711"},
		{"b04170", "5", "Raspberry Pi 5", "1.0", 2048, "Sony UK", "BCM2712"},
		{"e04171", "5", "Raspberry Pi 5", "1.1", 16384, "Sony UK", "BCM2712"},
		{"a04171", "5", "Raspberry Pi 5", "1.1", 1024, "Sony UK", "BCM2712"},
		{"e04180", "CM5", "Raspberry Pi Compute Module 5", "1.0", 16384, "Sony UK", "BCM2712"},
		{"d04190", "500", "Raspberry Pi 500", "1.0", 8192, "Sony UK", "BCM2712"},
		{"e04190", "500+", "Raspberry Pi 500+", "1.0", 16384, "Sony UK", "BCM2712"},
		{"b041a0", "CM5 Lite", "Raspberry Pi Compute Module 5 Lite", "1.0", 2048, "Sony UK", "BCM2712"},
		// Old style.
		{"0002", "B", "Raspberry Pi Model B", "1.0", 256, "Egoman", "BCM2835"},
		{"0005", "B", "Raspberry Pi Model B", "2.0", 256, "Qisda", "BCM2835"},
		{"000e", "B", "Raspberry Pi Model B", "2.0", 512, "Sony UK", "BCM2835"},
		{"0010", "B+", "Raspberry Pi Model B+", "1.2", 512, "Sony UK", "BCM2835"},
		{"0014", "CM1", "Raspberry Pi Compute Module 1", "1.0", 512, "Embest", "BCM2835"},
		{"0015", "A+", "Raspberry Pi Model A+", "1.1", 256, "Embest", "BCM2835"},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			r, err := Parse(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if r.Type != tc.typ || r.Model != tc.model || r.BoardRevision != tc.rev ||
				r.MemoryMB != tc.memMB || r.Manufacturer != tc.manufacturer || r.Processor != tc.processor {
				t.Errorf("Parse(%s) = %+v", tc.code, r)
			}
			if r.NewStyle != (len(tc.code) == 6) || r.WarrantyVoid {
				t.Errorf("Parse(%s): new style %v, warranty void %v", tc.code, r.NewStyle, r.WarrantyVoid)
			}
		})
	}
}

func TestFlags(t *testing.T) {
	// c03111 with N, O, Q and W set (the page's bit table).
	r, err := Decode(0xc03111 | 1<<31 | 1<<30 | 1<<29 | 1<<25)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OvervoltageDisallowed || !r.OTPProgramDisallowed || !r.OTPReadDisallowed || !r.WarrantyVoid || r.Type != "4B" {
		t.Errorf("flags: %+v", r)
	}
	// Old-style over-volted boards read "1000002" (bit 24).
	r, err = Parse("1000002")
	if err != nil {
		t.Fatal(err)
	}
	if !r.WarrantyVoid || r.NewStyle || r.Type != "B" || r.BoardRevision != "1.0" {
		t.Errorf("1000002: %+v", r)
	}
}

func TestParseForms(t *testing.T) {
	for _, s := range []string{"c03111", "C03111", " c03111\n", "0xc03111", "00c03111"} {
		r, err := Parse(s)
		if err != nil || r.Code != 0xc03111 || r.Type != "4B" {
			t.Errorf("Parse(%q) = %+v, %v", s, r, err)
		}
	}
	r, err := ParseDeviceTree([]byte{0x00, 0xc0, 0x31, 0x11})
	if err != nil || r.Type != "4B" || r.MemoryMB != 4096 {
		t.Errorf("ParseDeviceTree = %+v, %v", r, err)
	}
}

func TestErrors(t *testing.T) {
	for _, s := range []string{"", "   ", "xyz", "123456789", "0x", "-1"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q): want an error", s)
		}
	}
	for _, b := range [][]byte{nil, {1, 2, 3}, {1, 2, 3, 4, 5}} {
		if _, err := ParseDeviceTree(b); err == nil {
			t.Errorf("ParseDeviceTree(%v): want an error", b)
		}
	}
	// Undocumented old-style codes, and old-style codes with stray bits.
	for _, c := range []uint32{0x0000, 0x0001, 0x000a, 0x0016, 0x10002, 0x4000002} {
		if _, err := Decode(c); err == nil {
			t.Errorf("Decode(%#x): want an error", c)
		}
	}
	// A new-style code with an unknown type still decodes its other fields.
	r, err := Decode(0xd04ff0)
	if err == nil || !strings.Contains(err.Error(), "board type 0xff") {
		t.Errorf("Decode(0xd04ff0) error = %v", err)
	}
	if r.Processor != "BCM2712" || r.MemoryMB != 8192 || r.Type != "" || r.TypeCode != 0xff {
		t.Errorf("partial decode: %+v", r)
	}
	// Memory "other" (7) decodes as 0, without an error: the firmware holds the size.
	r, err = Decode(0xf04170)
	if err != nil || r.MemoryMB != 0 || r.Type != "5" {
		t.Errorf("Decode(0xf04170) = %+v, %v", r, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a02082", "c03111", "d04170", "e04190", "0002", "0015", "1000002",
		"902120", "", "0x", "ffffffff", "zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err == nil && (r.Type == "" || r.Model == "" || r.Processor == "") {
			t.Errorf("Parse(%q) succeeded with empty fields: %+v", s, r)
		}
	})
}

func FuzzDecode(f *testing.F) {
	for _, c := range []uint32{0xa02082, 0xc03111, 0xd04171, 0x0010, 0x1000002, 0, 0xffffffff} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, c uint32) {
		r, err := Decode(c)
		if r.Code != c {
			t.Errorf("code %#x decoded as %#x", c, r.Code)
		}
		if err == nil && r.NewStyle != (c&(1<<23) != 0) {
			t.Errorf("new-style flag wrong for %#x", c)
		}
	})
}
