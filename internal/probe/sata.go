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
	// libata's SCSI INQUIRY cuts the model to 16 characters and the firmware to its last 4
	// ("Samsung SSD 870 ", "1B6Q"); the IDENTIFY data it keeps in sysfs has them whole.
	s.Model = readString(filepath.Join(diskDir, "device", "model"))
	s.Firmware = readString(filepath.Join(diskDir, "device", "rev"))
	if p, ok := ataDeviceID(portDir, diskDir); ok {
		if id, err := readATAIDFile(p); err == nil {
			s.Model, s.Firmware, s.SerialHash = id.Model, id.Firmware, id.SerialHash
			s.RotationRateRPM = id.RotationRateRPM
		}
	}
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

// sataClass tells a solid-state drive from a spinning one by IDENTIFY word 217 (1 = solid
// state, 0x0401-0xfffe = rpm); a drive that does not report it stays "sata".
func sataClass(s *SATA) string {
	switch {
	case s.RotationRateRPM == 1:
		return ClassSATASSD
	case s.RotationRateRPM > 1:
		return ClassSATAHDD
	}
	return ClassSATA
}
