package units

import "fmt"

// Binary units, as budgets and file sizes are set.
const (
	KiB int64 = 1 << 10
	MiB int64 = 1 << 20
	GiB int64 = 1 << 30
)

// SI prints a byte count in SI units (10^3, 10^6, 10^9, 10^12): kB, MB, GB with one decimal,
// TB with two, and whole bytes below a kilobyte.
func SI[N int64 | uint64](n N) string {
	b := float64(n)
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.2f TB", b/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", b/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// Binary prints a byte count in binary units, whole where it divides evenly (512 MiB, 6 GiB)
// and with one decimal otherwise (1.5 GiB); below a MiB, in bytes.
func Binary(n int64) string {
	switch {
	case n >= GiB && n%GiB == 0:
		return fmt.Sprintf("%d GiB", n/GiB)
	case n >= GiB:
		return fmt.Sprintf("%.1f GiB", float64(n)/float64(GiB))
	case n < MiB:
		return fmt.Sprintf("%d bytes", n)
	case n%MiB == 0:
		return fmt.Sprintf("%d MiB", n/MiB)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/float64(MiB))
	}
}
