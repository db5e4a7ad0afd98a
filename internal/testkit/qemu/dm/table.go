package dm

import (
	"fmt"
	"strconv"
	"strings"
)

// Target is one line of a device-mapper table: Sectors 512-byte sectors from Start, handled
// by Type ("linear", "error", "flakey", "zero") with Params as dmsetup takes them.
type Target struct {
	Start, Sectors uint64
	Type           string
	Params         string
}

// String is the target as a dmsetup table line.
func (t Target) String() string {
	return strings.TrimSpace(fmt.Sprintf("%d %d %s %s", t.Start, t.Sectors, t.Type, t.Params))
}

// ParseTable reads dmsetup table lines, separated by newlines or ';'.
func ParseTable(s string) ([]Target, error) {
	var out []Target
	for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ';' }) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			return nil, fmt.Errorf("table line %q: want START SECTORS TYPE [PARAMS]", line)
		}
		start, err1 := strconv.ParseUint(f[0], 10, 64)
		n, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil || n == 0 {
			return nil, fmt.Errorf("table line %q: start and length must be sector counts", line)
		}
		if len(f[2]) >= 16 {
			return nil, fmt.Errorf("table line %q: target type too long", line)
		}
		out = append(out, Target{Start: start, Sectors: n, Type: f[2], Params: strings.Join(f[3:], " ")})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty table")
	}
	var next uint64
	for _, t := range out {
		if t.Start != next {
			return nil, fmt.Errorf("table has a gap or overlap at sector %d (next expected %d)", t.Start, next)
		}
		next += t.Sectors
	}
	return out, nil
}

// WrapAround is the table of a fake card: a device that claims fakeSectors but holds only
// realSectors of dev, every later sector landing again at the start (the classic fake
// capacity flash: writes past the real size overwrite the first data).
func WrapAround(dev string, realSectors, fakeSectors uint64) []Target {
	var out []Target
	for start := uint64(0); start < fakeSectors && realSectors > 0; start += realSectors {
		n := min(realSectors, fakeSectors-start)
		out = append(out, Target{Start: start, Sectors: n, Type: "linear", Params: dev + " 0"})
	}
	return out
}

// Linear maps all of dev unchanged.
func Linear(dev string, sectors uint64) []Target {
	return []Target{{Sectors: sectors, Type: "linear", Params: dev + " 0"}}
}

// Error fails every I/O with EIO.
func Error(sectors uint64) []Target { return []Target{{Sectors: sectors, Type: "error"}} }

// Flakey passes I/O to dev for upSeconds, then fails it for downSeconds, over and over.
func Flakey(dev string, sectors uint64, upSeconds, downSeconds int) []Target {
	return []Target{{Sectors: sectors, Type: "flakey", Params: fmt.Sprintf("%s 0 %d %d", dev, upSeconds, downSeconds)}}
}

// Format joins targets as one table (lines separated by ';', as ParseTable reads them).
func Format(ts []Target) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.String())
	}
	return strings.Join(s, ";")
}
