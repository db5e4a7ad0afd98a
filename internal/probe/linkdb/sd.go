package linkdb

import (
	"fmt"
	"strings"
)

// sdTiming is one bus timing as Linux prints it in debugfs (/sys/kernel/debug/mmc*/ios,
// "timing spec: N (name)"; names from drivers/mmc/core/debugfs.c mmc_ios_show).
type sdTiming struct {
	label     string // how docs/ceilings.md and Basis name the mode
	ddr       bool   // data on both clock edges
	maxHz     int    // the mode's highest clock in its specification
	anchor    string
	widthsMax int // widest bus the mode allows (8 for eMMC modes, 4 for SD)
}

var sdTimings = map[string]sdTiming{
	"legacy":                    {"default speed (legacy)", false, 25_000_000, "sd-and-emmc-bus-modes", 8},
	"sd high-speed":             {"SD high speed", false, 50_000_000, "sd-and-emmc-bus-modes", 4},
	"mmc high-speed":            {"eMMC high speed", false, 52_000_000, "sd-and-emmc-bus-modes", 8},
	"sd uhs sdr12":              {"SD UHS-I SDR12", false, 25_000_000, "sd-and-emmc-bus-modes", 4},
	"sd uhs sdr25":              {"SD UHS-I SDR25", false, 50_000_000, "sd-and-emmc-bus-modes", 4},
	"sd uhs sdr50":              {"SD UHS-I SDR50", false, 100_000_000, "sd-and-emmc-bus-modes", 4},
	"sd uhs sdr104":             {"SD UHS-I SDR104", false, 208_000_000, "sd-and-emmc-bus-modes", 4},
	"sd uhs ddr50":              {"SD UHS-I DDR50", true, 50_000_000, "sd-and-emmc-bus-modes", 4},
	"mmc ddr52":                 {"eMMC DDR52", true, 52_000_000, "sd-and-emmc-bus-modes", 8},
	"mmc hs200":                 {"eMMC HS200", false, 200_000_000, "sd-and-emmc-bus-modes", 8},
	"mmc high-speed sdr200":     {"eMMC HS200", false, 200_000_000, "sd-and-emmc-bus-modes", 8}, // name before Linux 3.x renamed it
	"mmc hs400":                 {"eMMC HS400", true, 200_000_000, "sd-and-emmc-bus-modes", 8},
	"mmc hs400 enhanced strobe": {"eMMC HS400 enhanced strobe", true, 200_000_000, "sd-and-emmc-bus-modes", 8},
}

// sdEfficiency is the share of the raw bus rate that data transfer reaches: each 512-byte
// block carries CRC16 per data line plus start/end bits, and commands and busy time between
// blocks cost more (docs/ceilings.md#sd-and-emmc-bus-modes).
const sdEfficiency = 0.90

// SD returns the ceiling of an SD or eMMC bus from the timing name the kernel prints in
// debugfs ("sd uhs DDR50", or the whole "8 (sd uhs DDR50)" value), the actual clock in Hz and
// the bus width in bits (1, 4 or 8). An unknown timing, a zero clock or a bad width is zero.
func SD(timing string, clockHz int, busWidth int) Ceiling {
	name := strings.ToLower(strings.TrimSpace(timing))
	if i := strings.IndexByte(name, '('); i >= 0 && strings.HasSuffix(name, ")") {
		name = strings.TrimSpace(name[i+1 : len(name)-1])
	}
	t, ok := sdTimings[name]
	if !ok || clockHz <= 0 || clockHz > 2*t.maxHz {
		return Ceiling{}
	}
	if busWidth != 1 && busWidth != 4 && busWidth != 8 || busWidth > t.widthsMax {
		return Ceiling{}
	}
	transfersPerS := float64(clockHz)
	if t.ddr {
		transfersPerS *= 2
	}
	busMBPerS := transfersPerS * float64(busWidth) / 8 / 1e6
	practical := busMBPerS * sdEfficiency
	return Ceiling{
		MBPerS: round1(practical),
		Basis: fmt.Sprintf("%s at %.1f MHz on %d bits: bus %.1f MB/s, ~%.0f MB/s after block CRC and command overhead",
			t.label, float64(clockHz)/1e6, busWidth, busMBPerS, practical),
		Source: doc + t.anchor,
	}
}

func round1(v float64) float64 {
	return float64(int64(v*10+0.5)) / 10
}
