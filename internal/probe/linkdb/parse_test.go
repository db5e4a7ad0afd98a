package linkdb

import "testing"

// parseCase is one input of a sysfs parser and what it must give.
type parseCase[T comparable] struct {
	in   string
	want T
	ok   bool
}

// checkParse runs parse, named name in failures, on each case.
func checkParse[T comparable](t *testing.T, name string, parse func(string) (T, bool), cases []parseCase[T]) {
	t.Helper()
	for _, tc := range cases {
		if got, ok := parse(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("%s(%q) = %v, %v", name, tc.in, got, ok)
		}
	}
}

func TestParseUSBSpeed(t *testing.T) {
	checkParse(t, "ParseUSBSpeed", ParseUSBSpeed, []parseCase[int]{
		{"480\n", 480, true}, {"5000", 5000, true}, {"10000", 10000, true}, {"20000", 20000, true},
		{"12", 12, true}, {"1.5", 1, true}, {"unknown", 0, false}, {"", 0, false}, {"0", 0, false},
		{"-480", 0, false}, {"NaN", 0, false}, {"Inf", 0, false},
	})
	// The parsed value feeds USB directly.
	if s, _ := ParseUSBSpeed("5000\n"); USB(s, "uas").IsZero() {
		t.Error("USB(ParseUSBSpeed(5000)) is zero")
	}
}

func TestParsePCIe(t *testing.T) {
	checkParse(t, "ParsePCIeGen", ParsePCIeGen, []parseCase[int]{
		{"8.0 GT/s PCIe\n", 3, true}, {"5.0 GT/s PCIe", 2, true}, {"2.5 GT/s PCIe", 1, true},
		{"16.0 GT/s PCIe", 4, true}, {"32.0 GT/s PCIe", 5, true}, {"64.0 GT/s PCIe", 6, true},
		{"5 GT/s", 2, true}, {"8 GT/s", 3, true},
		{"Unknown", 0, false}, {"", 0, false}, {"8.0", 0, false}, {"3.0 GT/s PCIe", 0, false},
	})
	checkParse(t, "ParsePCIeWidth", ParsePCIeWidth, []parseCase[int]{
		{"1\n", 1, true}, {"4", 4, true}, {"x16", 16, true}, {"0", 0, false}, {"", 0, false}, {"wide", 0, false},
	})
}

func TestParseSATASpeed(t *testing.T) {
	checkParse(t, "ParseSATASpeed", ParseSATASpeed, []parseCase[float64]{
		{"6.0 Gbps\n", 6, true}, {"3.0 Gbps", 3, true}, {"1.5 Gbps", 1.5, true},
		{"<unknown>", 0, false}, {"", 0, false}, {"6.0", 0, false}, {"0 Gbps", 0, false},
	})
	if g, _ := ParseSATASpeed("6.0 Gbps"); SATA(g).MBPerS != 552 {
		t.Error("SATA(ParseSATASpeed(6.0 Gbps)) != 552")
	}
}

func FuzzParsers(f *testing.F) {
	for _, s := range []string{"480", "1.5", "8.0 GT/s PCIe", "6.0 Gbps", "x4", "", "<unknown>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := ParseUSBSpeed(s); ok && v < 1 {
			t.Errorf("ParseUSBSpeed(%q) = %d", s, v)
		}
		if g, ok := ParsePCIeGen(s); ok && (g < 1 || g > 6) {
			t.Errorf("ParsePCIeGen(%q) = %d", s, g)
		}
		ParsePCIeWidth(s)
		if g, ok := ParseSATASpeed(s); ok && g <= 0 {
			t.Errorf("ParseSATASpeed(%q) = %v", s, g)
		}
	})
}
