package linkdb

import "testing"

func TestSDMode(t *testing.T) {
	for _, c := range []struct {
		bus, mode    string
		clockHz, bit int
		want         float64
	}{
		{"sd", "DDR50", 50_000_000, 4, 45},    // Pi 4: DDR50 at 50 MHz, as SD("sd uhs DDR50")
		{"sd", "SDR104", 200_000_000, 4, 90},  // Pi 5
		{"mmc", "HS400", 200_000_000, 8, 360}, // eMMC HS400
		{"mmc", "HS", 52_000_000, 8, 46.8},    // eMMC high speed
		{"sd", "HS", 50_000_000, 4, 22.5},     // SD high speed
		{"sd", "HS400", 200_000_000, 8, 0},    // an eMMC mode on an SD bus
		{"mmc", "SDR104", 200_000_000, 4, 0},  // an SD mode on an eMMC bus
		{"sd", "SDR104", 900_000_000, 4, 0},   // a clock no card runs
		{"usb", "SDR104", 200_000_000, 4, 0},  // not an SD bus
		{"sd", "UHS-II", 0, 4, 0},             // not a mode Linux prints
	} {
		if got := SDMode(c.bus, c.mode, c.clockHz, c.bit).MBPerS; got != c.want {
			t.Errorf("SDMode(%q, %q, %d, %d) = %g MB/s, want %g", c.bus, c.mode, c.clockHz, c.bit, got, c.want)
		}
	}
}
