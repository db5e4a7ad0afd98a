package probe

import (
	"fmt"
	"path/filepath"

	"github.com/iomark/iomark/internal/probe/linkdb"
)

// pcieLink is one PCIe link seen from its downstream device, with the upstream port's limits.
type pcieLink struct {
	addr                     string
	driver                   string
	gen, width               int // negotiated
	maxGen, maxWidth         int // what the device supports (its Link Capabilities)
	portMaxGen, portMaxWidth int
}

// genFromGTs maps a sysfs link speed to the PCIe generation; 0 when it is not a link speed
// ("Unknown" on integrated endpoints).
func genFromGTs(s string) int {
	g, _ := linkdb.ParsePCIeGen(s)
	return g
}

// gtPerLaneMbps is the raw signalling rate per lane in Mb/s by generation (before encoding).
var gtPerLaneMbps = [...]int{0, 2500, 5000, 8000, 16000, 32000, 64000}

// readPCIeLink reads a PCI function's link; ok is false when it has no readable PCIe link.
func readPCIeLink(dir string) (pcieLink, bool) {
	l := pcieLink{addr: filepath.Base(dir), driver: linkBase(filepath.Join(dir, "driver"))}
	l.gen = genFromGTs(readString(filepath.Join(dir, "current_link_speed")))
	l.width, _ = linkdb.ParsePCIeWidth(readString(filepath.Join(dir, "current_link_width")))
	if l.gen == 0 || l.width == 0 {
		return l, false
	}
	l.maxGen = genFromGTs(readString(filepath.Join(dir, "max_link_speed")))
	l.maxWidth, _ = linkdb.ParsePCIeWidth(readString(filepath.Join(dir, "max_link_width")))
	if up := filepath.Dir(dir); rePCI.MatchString(filepath.Base(up)) {
		l.portMaxGen = genFromGTs(readString(filepath.Join(up, "max_link_speed")))
		l.portMaxWidth, _ = linkdb.ParsePCIeWidth(readString(filepath.Join(up, "max_link_width")))
	}
	return l, true
}

// achievable is the best link both ends support: what the link should train to.
func (l pcieLink) achievable() (gen, width int) {
	gen, width = l.maxGen, l.maxWidth
	if l.portMaxGen > 0 && (gen == 0 || l.portMaxGen < gen) {
		gen = l.portMaxGen
	}
	if l.portMaxWidth > 0 && (width == 0 || l.portMaxWidth < width) {
		width = l.portMaxWidth
	}
	return gen, width
}

func (l pcieLink) hop() Hop {
	h := Hop{Bus: "pcie", Name: l.addr, Driver: l.driver}
	if l.gen < len(gtPerLaneMbps) {
		h.SpeedMbps = gtPerLaneMbps[l.gen] * l.width
	}
	h.Detail = fmt.Sprintf("PCIe gen%d x%d", l.gen, l.width)
	if g, w := l.achievable(); g > 0 && w > 0 {
		if g < len(gtPerLaneMbps) {
			h.MaxSpeedMbps = gtPerLaneMbps[g] * w
		}
		if g != l.gen || w != l.width {
			h.Detail += fmt.Sprintf(" (link capable of gen%d x%d)", g, w)
		}
	}
	if l.maxGen > 0 && (l.portMaxGen > 0 && l.portMaxGen < l.maxGen || l.portMaxWidth > 0 && l.portMaxWidth < l.maxWidth) {
		h.Detail += fmt.Sprintf("; device gen%d x%d, port gen%d x%d", l.maxGen, l.maxWidth, l.portMaxGen, l.portMaxWidth)
	}
	c := linkdb.PCIe(l.gen, l.width)
	h.CeilingMBPerS, h.CeilingBasis, h.CeilingSource = c.MBPerS, c.Basis, c.Source
	return h
}

// deepestPCIeLink finds the PCI function nearest the device that has a PCIe link: the NVMe
// drive itself, or the PCIe USB controller (VL805 on the Pi 4).
func deepestPCIeLink(dirs []string) (pcieLink, bool) {
	for _, d := range dirs {
		if !rePCI.MatchString(filepath.Base(d)) {
			continue
		}
		if l, ok := readPCIeLink(d); ok {
			return l, true
		}
	}
	return pcieLink{}, false
}
