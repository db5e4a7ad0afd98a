package power

import (
	"encoding/binary"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestHwmonFixtures(t *testing.T) {
	for _, tc := range []struct {
		tree   string
		watts  float64 // 0: no source
		sensor string
	}{
		{"ina219", 3.128, "ina219 hwmon0 channel 1"},
		{"ina3221-jetson", 5.080 * 1.392, "ina3221 hwmon1 channel 1 (VDD_IN)"},
		{"ina3221-channels", 5.0*0.4 + 3.3*1.0, "ina3221 hwmon0 channel 1, channel 3"},
		{"gpu-only", 0, ""},
		{"mixed", 1.0, "ina219 hwmon2 channel 1"},
		{"typec-tcpm", 0, ""},
		{"typec-ucsi-ina226", 6.4, "ina226 hwmon1 channel 1"},
	} {
		t.Run(tc.tree, func(t *testing.T) {
			s := Find(probe.Options{Root: "testdata/hwmon/" + tc.tree})
			if tc.watts == 0 {
				if s != nil {
					t.Fatalf("found %+v, want no source", s.Info())
				}
				return
			}
			if s == nil {
				t.Fatal("no source found")
			}
			w, ok := s.Watts()
			if !ok || !near(w, tc.watts) {
				t.Errorf("watts = %v, %v; want %v", w, ok, tc.watts)
			}
			info := s.Info()
			if info.Source != "hwmon" || info.Sensor != tc.sensor || info.Scope == "" {
				t.Errorf("info = %+v", info)
			}
		})
	}
}

// TestPDNote: a USB-C PD port's hwmon (its negotiated contract) is never read as power, and
// the note says why and what to do; a machine with a real monitor beside it, or with neither,
// gets no note from it.
func TestPDNote(t *testing.T) {
	note := PDNote(probe.Options{Root: "testdata/hwmon/typec-tcpm"})
	for _, want := range []string{"tcpm_source_psy_4_0022", "negotiated", "(9.0 V, 3.00 A)", "--power-watts"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if note := PDNote(probe.Options{Root: "testdata/hwmon/typec-ucsi-ina226"}); !strings.Contains(note, "ucsi_source_psy_USBC000:001") || !strings.Contains(note, "(20.0 V, 3.25 A)") {
		t.Errorf("ucsi note %q", note)
	}
	for _, tree := range []string{"ina219", "gpu-only"} {
		if note := PDNote(probe.Options{Root: "testdata/hwmon/" + tree}); note != "" {
			t.Errorf("%s: note %q", tree, note)
		}
	}
}

// firmwareReply lays text into a mailbox buffer as the firmware answers a gencmd.
func firmwareReply(text string) []byte {
	b := gencmdRequest("pmic_read_adc")
	binary.LittleEndian.PutUint32(b[4:], mboxRespSuccess)
	binary.LittleEndian.PutUint32(b[16:], 0x80000000|uint32(len(text)+5))
	binary.LittleEndian.PutUint32(b[20:], 0)
	clear(b[gencmdTextOffset : len(b)-4])
	copy(b[gencmdTextOffset:], text)
	return b
}

func TestPMICCapturedReply(t *testing.T) {
	capture, err := os.ReadFile("testdata/pmic/pi5-model-b-load.txt")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"newlines": string(capture),
		// Some firmware separates lines with NUL (ml-energy/zeus handles both).
		"nul-separated": strings.ReplaceAll(string(capture), "\n", "\x00"),
	} {
		got, err := decodeGencmdReply(firmwareReply(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rails, err := parsePMICADC(got)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// 12 rails carry both channels; EXT5V and BATT have only a voltage. The sum of V×I
		// was computed from the capture independently (testdata/SOURCES.md).
		if len(rails) != 12 || !near(railWatts(rails), 7.239818798015811) {
			t.Errorf("%s: %d rails, %.6f W", name, len(rails), railWatts(rails))
		}
		for _, r := range rails {
			if r.name == "EXT5V" || r.name == "BATT" {
				t.Errorf("%s: voltage-only channel %s counted", name, r.name)
			}
			if r.name == "VDD_CORE" && (r.amps != 6.22421 || r.volts != 0.861733) {
				t.Errorf("%s: VDD_CORE paired wrong: %+v", name, r)
			}
		}
	}
}

func TestPMICRefusals(t *testing.T) {
	nr, err := os.ReadFile("testdata/pmic/not-registered.txt")
	if err != nil {
		t.Fatal(err)
	}
	text, err := decodeGencmdReply(firmwareReply(string(nr)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parsePMICADC(text); err == nil || !strings.Contains(err.Error(), "Command not registered") {
		t.Errorf("an older Pi's answer: %v", err)
	}
	b := firmwareReply("x")
	binary.LittleEndian.PutUint32(b[4:], 0x80000001)
	if _, err := decodeGencmdReply(b); err == nil {
		t.Error("a parse-error response decoded")
	}
	b = gencmdRequest("pmic_read_adc") // no answer: response bit clear
	binary.LittleEndian.PutUint32(b[4:], mboxRespSuccess)
	if _, err := decodeGencmdReply(b); err == nil {
		t.Error("an unanswered tag decoded")
	}
	if _, err := decodeGencmdReply(make([]byte, 8)); err == nil {
		t.Error("a short buffer decoded")
	}
	if _, err := parsePMICADC("VDD_CORE_A current(7)=1.0A\n"); err == nil {
		t.Error("a current without its voltage made a rail")
	}
}

func TestRequestLayout(t *testing.T) {
	b := gencmdRequest("pmic_read_adc")
	// As vcgencmd.c: 6 header words, 4096 bytes of text, the end tag.
	if len(b) != 4124 || binary.LittleEndian.Uint32(b[0:]) != 4124 || binary.LittleEndian.Uint32(b[8:]) != 0x00030080 ||
		binary.LittleEndian.Uint32(b[12:]) != 4096 || string(b[24:37]) != "pmic_read_adc" || b[37] != 0 ||
		binary.LittleEndian.Uint32(b[len(b)-4:]) != 0 {
		t.Errorf("request layout wrong: % x", b[:40])
	}
}

func TestMeter(t *testing.T) {
	m := Meter(6.4)
	if w, ok := m.Watts(); !ok || w != 6.4 || m.Info().Source != "meter" {
		t.Errorf("meter = %v %v %+v", w, ok, m.Info())
	}
}

// FuzzPMIC: any mailbox buffer decodes or fails without a panic, and rails are never negative.
func FuzzPMIC(f *testing.F) {
	capture, _ := os.ReadFile("testdata/pmic/pi5-model-b-load.txt")
	f.Add(firmwareReply(string(capture)))
	f.Add(firmwareReply("error=2 error_msg=\"Command not registered\""))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		text, err := decodeGencmdReply(b)
		if err != nil {
			return
		}
		rails, err := parsePMICADC(text)
		if err != nil {
			return
		}
		if w := railWatts(rails); w < 0 || math.IsNaN(w) {
			t.Fatalf("watts %v", w)
		}
	})
}
