package linkdb

import "fmt"

// pcieLaneMBPerS is the data rate of one lane after line coding, in MB/s: gen 1-2 use
// 8b/10b, gen 3-5 128b/130b (PCI Express Base Specification; docs/ceilings.md#pcie).
var pcieLaneMBPerS = map[int]float64{
	1: 250,                    // 2.5 GT/s × 8/10 / 8
	2: 500,                    // 5 GT/s × 8/10 / 8
	3: 8000.0 / 8 * 128 / 130, // 8 GT/s: 984.6
	4: 16000.0 / 8 * 128 / 130,
	5: 32000.0 / 8 * 128 / 130,
}

// pcieEfficiency is the share of the coded rate left for payload: each TLP adds ~24 bytes of
// framing, sequence number, header and LCRC (128-byte payloads give 128/152 = 0.84, 256-byte
// 0.91), and ACK and flow-control DLLPs take a little more.
const pcieEfficiency = 0.85

// PCIe returns the practical ceiling of a PCIe link of the given generation (1-5, as sysfs
// current_link_speed maps 2.5/5/8/16/32 GT/s) and lane count (1, 2, 4, 8, 16). Others: zero.
func PCIe(gen int, width int) Ceiling {
	lane, ok := pcieLaneMBPerS[gen]
	switch width {
	case 1, 2, 4, 8, 16:
	default:
		ok = false
	}
	if !ok {
		return Ceiling{}
	}
	raw := lane * float64(width)
	practical := raw * pcieEfficiency
	return Ceiling{
		MBPerS: round1(practical),
		Basis: fmt.Sprintf("PCIe gen%d x%d: %.0f MB/s after line coding, ~%.0f MB/s after packet overhead",
			gen, width, raw, practical),
		Source: doc + "pcie",
	}
}
