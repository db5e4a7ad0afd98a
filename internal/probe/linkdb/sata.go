package linkdb

import "fmt"

// sataEfficiency is the share of the 8b/10b-coded rate a drive can deliver: FIS headers,
// CRC, primitives and command handshakes take the rest. SATA 6 Gb/s SSDs top out at
// 550-560 MB/s of its 600 (docs/ceilings.md#sata).
const sataEfficiency = 0.92

// SATA returns the practical ceiling of a SATA link at 1.5, 3.0 or 6.0 Gb/s (as libata prints
// in /sys/class/ata_link/*/sata_spd). Other rates, zero included, give a zero Ceiling.
func SATA(gbps float64) Ceiling {
	var raw float64
	switch gbps {
	case 1.5:
		raw = 150
	case 3.0:
		raw = 300
	case 6.0:
		raw = 600
	default:
		return Ceiling{}
	}
	practical := raw * sataEfficiency
	return Ceiling{
		MBPerS: round1(practical),
		Basis:  fmt.Sprintf("SATA %.1f Gb/s: %.0f MB/s after 8b/10b coding, ~%.0f MB/s after FIS and command overhead", gbps, raw, practical),
		Source: doc + "sata",
	}
}
