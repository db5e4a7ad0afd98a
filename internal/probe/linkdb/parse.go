package linkdb

import (
	"strconv"
	"strings"
)

// ParseUSBSpeed reads the text of /sys/bus/usb/devices/*/speed ("1.5", "12", "480", "5000",
// "10000", "20000"; drivers/usb/core/sysfs.c) as whole Mb/s for USB. Low speed (1.5) reads
// as 1. "unknown" and anything else that is not a positive number gives ok = false.
func ParseUSBSpeed(s string) (mbps int, ok bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(f >= 1 && f <= 1e6) { // also rejects NaN
		return 0, false
	}
	return int(f), true
}

// ParsePCIeGen maps the text of /sys/bus/pci/devices/*/current_link_speed or
// max_link_speed ("8.0 GT/s PCIe" on current kernels, "8 GT/s" on older ones) to a PCIe
// generation 1-6. "Unknown" and other text give ok = false.
func ParsePCIeGen(s string) (gen int, ok bool) {
	fields := strings.Fields(s)
	if len(fields) < 2 || fields[1] != "GT/s" {
		return 0, false
	}
	gtPerS, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0, false
	}
	switch gtPerS {
	case 2.5:
		return 1, true
	case 5:
		return 2, true
	case 8:
		return 3, true
	case 16:
		return 4, true
	case 32:
		return 5, true
	case 64:
		return 6, true
	}
	return 0, false
}

// ParsePCIeWidth reads /sys/bus/pci/devices/*/current_link_width ("1", "4"; "x4" is also
// accepted). Zero or text gives ok = false.
func ParsePCIeWidth(s string) (lanes int, ok bool) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "x")
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 || n > 32 {
		return 0, false
	}
	return n, true
}

// ParseSATASpeed reads /sys/class/ata_link/*/sata_spd ("1.5 Gbps", "3.0 Gbps", "6.0 Gbps";
// libata prints "<unknown>" when no link is up) as Gb/s.
func ParseSATASpeed(s string) (gbps float64, ok bool) {
	fields := strings.Fields(s)
	if len(fields) != 2 || fields[1] != "Gbps" {
		return 0, false
	}
	f, err := strconv.ParseFloat(fields[0], 64)
	if err != nil || !(f > 0 && f < 1000) {
		return 0, false
	}
	return f, true
}
