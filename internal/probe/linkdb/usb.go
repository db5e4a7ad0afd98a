package linkdb

import "strings"

// usbKey is a negotiated USB speed (as sysfs .../speed prints it, in Mb/s) and the mass
// storage protocol: UAS (USB Attached SCSI) or BOT (Bulk-Only Transport, driver
// usb-storage).
type usbKey struct {
	speedMbps int
	uas       bool
}

// usbCeilings are practical figures for one USB hop; docs/ceilings.md gives each source.
// Low speed (1.5 Mb/s) has no entry: USB 2.0 (5.8.3) forbids bulk endpoints there, so no
// mass-storage device runs at that speed. Nor does BOT at 20 Gb/s: no measurement exists.
var usbCeilings = map[usbKey]Ceiling{
	{12, false}: {1.0, "USB 1.1 full speed: ~1 MB/s (bulk transfers top out at 1.216 MB/s)", doc + "usb-full-speed"},
	{12, true}:  {1.0, "USB 1.1 full speed: ~1 MB/s (bulk transfers top out at 1.216 MB/s)", doc + "usb-full-speed"},
	{480, false}: {35, "USB 2.0 high speed with usb-storage (BOT): ~35 MB/s in practice (bulk maximum 53.2 MB/s)",
		doc + "usb-high-speed"},
	{480, true}: {40, "USB 2.0 high speed with uas: ~40 MB/s in practice (bulk maximum 53.2 MB/s)",
		doc + "usb-high-speed"},
	{5000, false}: {250, "USB 3.2 Gen 1 (5 Gb/s) with usb-storage (BOT): ~250 MB/s, one command at a time",
		doc + "usb-5-gbps"},
	{5000, true}: {420, "USB 3.2 Gen 1 (5 Gb/s) with uas: ~420 MB/s in practice (500 MB/s after 8b/10b coding)",
		doc + "usb-5-gbps"},
	{10000, false}: {580, "USB 3.2 Gen 2 (10 Gb/s) with usb-storage (BOT): ~580 MB/s (estimate from the BOT/UAS ratio)",
		doc + "usb-10-gbps"},
	{10000, true}: {1000, "USB 3.2 Gen 2 (10 Gb/s) with uas: ~1000 MB/s in practice (1212 MB/s after 128b/132b coding)",
		doc + "usb-10-gbps"},
	{20000, true}: {2000, "USB 3.2 Gen 2x2 (20 Gb/s) with uas: ~2000 MB/s in practice",
		doc + "usb-20-gbps"},
}

// USB returns the practical ceiling of a USB hop at the negotiated speed in Mb/s (sysfs
// "speed": 12, 480, 5000, 10000, 20000) with the interface driver "uas" or "usb-storage"
// (also "usb_storage"). Any other speed or driver gives a zero Ceiling.
func USB(speedMbps int, driver string) Ceiling {
	var uas bool
	switch strings.ToLower(strings.TrimSpace(driver)) {
	case "uas":
		uas = true
	case "usb-storage", "usb_storage":
	default:
		return Ceiling{}
	}
	return usbCeilings[usbKey{speedMbps, uas}]
}
