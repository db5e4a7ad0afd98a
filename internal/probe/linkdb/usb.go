package linkdb

import "strings"

// usbKey is a negotiated USB speed (as sysfs .../speed prints it, in Mb/s) and the mass
// storage protocol: "uas" (USB Attached SCSI) or "usb-storage" (Bulk-Only Transport).
type usbKey struct {
	speedMbps int
	uas       bool
}

// usbCeilings are practical figures for one USB hop; docs/ceilings.md gives each source.
// Low speed (1.5 Mb/s) has no entry: the USB 2.0 spec (5.8.3) forbids bulk endpoints there,
// so no mass-storage device works at that speed.
var usbCeilings = map[usbKey]Ceiling{
	{12, false}:    {1.0, "USB 1.1 full speed with usb-storage (BOT): ~1 MB/s (bulk maximum 1.216 MB/s)", doc + "usb-1-1-full-speed"},
	{12, true}:     {1.0, "USB 1.1 full speed with uas: ~1 MB/s (bulk maximum 1.216 MB/s)", doc + "usb-1-1-full-speed"},
	{480, false}:   {40, "USB 2.0 high speed with usb-storage (BOT): ~35-40 MB/s in practice (bulk maximum 53.2 MB/s)", doc + "usb-2-0-high-speed"},
	{480, true}:    {42, "USB 2.0 high speed with uas: ~40-42 MB/s in practice (bulk maximum 53.2 MB/s)", doc + "usb-2-0-high-speed"},
	{5000, false}:  {300, "USB 3.2 Gen 1 (5 Gb/s) with usb-storage (BOT): ~250-300 MB/s, one command at a time", doc + "usb-3-2-gen-1-5-gb-s"},
	{5000, true}:   {420, "USB 3.2 Gen 1 (5 Gb/s) with uas: ~400-440 MB/s (500 MB/s after 8b/10b coding)", doc + "usb-3-2-gen-1-5-gb-s"},
	{10000, false}: {600, "USB 3.2 Gen 2 (10 Gb/s) with usb-storage (BOT): ~500-600 MB/s, one command at a time", doc + "usb-3-2-gen-2-10-gb-s"},
	{10000, true}:  {1000, "USB 3.2 Gen 2 (10 Gb/s) with uas: ~1000-1050 MB/s (1212 MB/s after 128b/132b coding)", doc + "usb-3-2-gen-2-10-gb-s"},
	{20000, true}:  {2000, "USB 3.2 Gen 2x2 (20 Gb/s) with uas: ~2000 MB/s (two 10 Gb/s lanes)", doc + "usb-3-2-gen-2x2-20-gb-s"},
}

// USB returns the practical ceiling of a USB hop at the negotiated speed in Mb/s (the
// integer part of sysfs "speed": 12, 480, 5000, 10000, 20000; 1.5 is passed as 1) with the
// interface driver "uas" or "usb-storage" (also "usb_storage"). Anything else is zero.
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
