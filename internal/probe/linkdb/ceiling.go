package linkdb

// Ceiling is the practical throughput limit of one hop of the link chain.
type Ceiling struct {
	MBPerS float64 // 10^6 bytes per second; 0 means unknown
	Basis  string  // one line saying where the figure comes from
	Source string  // anchor in docs/ceilings.md, e.g. "docs/ceilings.md#usb-2-0-high-speed"
}

// IsZero reports whether the ceiling is unknown.
func (c Ceiling) IsZero() bool { return c.MBPerS == 0 }

// Slowest returns the lowest known ceiling of a chain, ignoring unknown (zero) hops; it is
// zero when every hop is unknown.
func Slowest(hops ...Ceiling) Ceiling {
	var min Ceiling
	for _, h := range hops {
		if h.MBPerS > 0 && (min.MBPerS == 0 || h.MBPerS < min.MBPerS) {
			min = h
		}
	}
	return min
}

const doc = "docs/ceilings.md#"
