package probe

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/iomark/iomark/internal/probe/linkdb"
)

// readSATA describes an ATA disk on port ataN (libata: ataN/linkN/ata_link/linkN/sata_spd).
func readSATA(o Options, portDir, diskDir string) (*SATA, Hop) {
	port := filepath.Base(portDir)
	num := strings.TrimPrefix(port, "ata")
	s := &SATA{Port: port}
	linkDir := filepath.Join(portDir, "link"+num, "ata_link", "link"+num)
	if v, ok := parseGbps(readString(filepath.Join(linkDir, "sata_spd"))); ok {
		s.LinkGbps = v
	}
	if v, ok := parseGbps(readString(filepath.Join(linkDir, "hw_sata_spd_limit"))); ok {
		s.MaxLinkGbps = v
	}
	s.Model = readString(filepath.Join(diskDir, "device", "model"))
	s.Firmware = readString(filepath.Join(diskDir, "device", "rev"))
	s.Driver = linkBase(filepath.Join(filepath.Dir(portDir), "driver"))
	s.TempC = hwmonTemp(o, filepath.Join(diskDir, "device")) // drivetemp, when loaded

	h := Hop{Bus: "sata", Name: "link" + num, Driver: s.Driver}
	if s.LinkGbps > 0 {
		h.SpeedMbps = int(s.LinkGbps * 1000)
		h.Detail = fmt.Sprintf("SATA %.1f Gb/s", s.LinkGbps)
		c := linkdb.SATA(s.LinkGbps)
		h.CeilingMBPerS, h.CeilingBasis, h.CeilingSource = c.MBPerS, c.Basis, c.Source
	}
	if s.MaxLinkGbps > 0 {
		h.MaxSpeedMbps = int(s.MaxLinkGbps * 1000)
	}
	return s, h
}
