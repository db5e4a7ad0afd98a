package probe

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe/linkdb"
)

// usbSpeedMbps parses the sysfs "speed" attribute (1.5 reads as 1); 0 when unknown.
func usbSpeedMbps(s string) int {
	v, _ := linkdb.ParseUSBSpeed(s)
	return v
}

// readUSB describes the USB device that holds the disk. ifDir is the interface the storage
// driver binds (2-1:1.0); its parent is the device (2-1); the usbN above is the root hub. The
// hops are the device's, then each hub's on the way up (nearest first).
func readUSB(o Options, dirs []string, ifDir string) (*USB, []Hop) {
	devDir := filepath.Dir(ifDir)
	u := &USB{Busdev: filepath.Base(devDir)}
	vid, _ := readHex16(filepath.Join(devDir, "idVendor"))
	pid, _ := readHex16(filepath.Join(devDir, "idProduct"))
	u.VID, u.PID = fmt.Sprintf("%04x", vid), fmt.Sprintf("%04x", pid)
	u.Driver = linkBase(filepath.Join(ifDir, "driver"))
	u.SpeedMbps = usbSpeedMbps(readString(filepath.Join(devDir, "speed")))
	u.Version = readString(filepath.Join(devDir, "version"))
	// String descriptors and the BOS are read under the USB device lock, which a bridge stuck
	// in error recovery can hold for minutes: read them under the probe timeout.
	u.Manufacturer = readLocked(o, filepath.Join(devDir, "manufacturer"))
	u.Product = readLocked(o, filepath.Join(devDir, "product"))
	u.SerialHash = hashSerial(readLocked(o, filepath.Join(devDir, "serial")))
	u.MaxSpeedMbps, u.MaxSpeedSource = usbDeviceMaxSpeed(o, devDir, u.Version)

	if b, ok := linkdb.Bridge(vid, pid); ok {
		u.Bridge = &Bridge{Vendor: b.Vendor, Chip: b.Chip, Kind: b.Kind, UAS: b.UAS, Note: b.Note}
	}
	// Hubs between the root hub and the device (the Pi 4's USB 2 ports sit behind a VL805
	// internal hub; the Pi 3 B+'s behind the LAN7515). Each is a hop of the link chain too: a
	// drive behind a full-speed hub runs at 12 Mb/s whatever it and the port can do.
	var hubHops []Hop
	for _, d := range dirs {
		if d == devDir || !reUSBDev.MatchString(filepath.Base(d)) {
			continue
		}
		if !strings.HasPrefix(devDir, d+"/") {
			continue
		}
		name := readString(filepath.Join(d, "product"))
		hv, _ := readHex16(filepath.Join(d, "idVendor"))
		hp, _ := readHex16(filepath.Join(d, "idProduct"))
		speed := readString(filepath.Join(d, "speed"))
		label := fmt.Sprintf("%s %04x:%04x %s Mb/s", filepath.Base(d), hv, hp, speed)
		if name != "" {
			label += " (" + name + ")"
		}
		u.Hubs = append([]string{label}, u.Hubs...)
		hubHops = append(hubHops, hubHop(d, hv, hp, name, usbSpeedMbps(speed), u.Driver))
	}
	if root, ok := findUp(dirs, reUSBRoot); ok {
		u.PortMaxSpeedMbps = controllerMaxSpeed(filepath.Dir(root))
	}
	u.Quirks, u.UASDisabledByQuirk = storageQuirk(o, u.VID, u.PID)

	hop := Hop{Bus: "usb", Name: u.Busdev, SpeedMbps: u.SpeedMbps, MaxSpeedMbps: u.MaxSpeedMbps, Driver: u.Driver}
	hop.Detail = usbDetail(u)
	c := linkdb.USB(u.SpeedMbps, u.Driver)
	hop.CeilingMBPerS, hop.CeilingBasis, hop.CeilingSource = c.MBPerS, c.Basis, c.Source
	return u, append([]Hop{hop}, hubHops...)
}

// hubHop is a USB hub between the drive and the root port, with the ceiling of its speed for
// the drive's protocol (the drive's traffic crosses it).
func hubHop(dir string, vid, pid uint16, product string, speedMbps int, storageDriver string) Hop {
	h := Hop{Bus: "usb", Name: filepath.Base(dir), SpeedMbps: speedMbps, Driver: linkBase(filepath.Join(dir, filepath.Base(dir)+":1.0", "driver"))}
	if h.Driver == "" {
		h.Driver = "hub"
	}
	h.Detail = fmt.Sprintf("hub %04x:%04x", vid, pid)
	if product != "" {
		h.Detail += " " + product
	}
	if name := usbSpeedName(speedMbps); name != "" {
		h.Detail += ", " + name
	}
	c := linkdb.USB(speedMbps, storageDriver)
	h.CeilingMBPerS, h.CeilingBasis, h.CeilingSource = c.MBPerS, c.Basis, c.Source
	return h
}

func usbDetail(u *USB) string {
	var parts []string
	if name := usbSpeedName(u.SpeedMbps); name != "" {
		parts = append(parts, name)
	}
	if u.Driver != "" {
		parts = append(parts, u.Driver)
	}
	if u.MaxSpeedMbps > u.SpeedMbps && u.SpeedMbps > 0 {
		parts = append(parts, fmt.Sprintf("device capable of %d Mb/s", u.MaxSpeedMbps))
	}
	return strings.Join(parts, ", ")
}

// readLocked reads an attribute whose show function takes the USB device lock.
func readLocked(o Options, p string) string {
	s, _ := withTimeout(o.timeout(), func() (string, error) { return readString(p), nil })
	return s
}

// usbSpeedName names a negotiated speed as the USB-IF does.
func usbSpeedName(mbps int) string {
	switch mbps {
	case 1, 12:
		return "USB 1.1"
	case 480:
		return "USB 2.0 High Speed"
	case 5000:
		return "USB 3.x Gen 1 (5 Gb/s)"
	case 10000:
		return "USB 3.x Gen 2 (10 Gb/s)"
	case 20000:
		return "USB 3.2 Gen 2x2 (20 Gb/s)"
	}
	return ""
}

// usbDeviceMaxSpeed is what the device can do, known from facts only: a SuperSpeed capability
// in its BOS descriptor (sysfs bos_descriptors, Linux 6.9+) or a bcdUSB of 3.0 or more. A USB 3
// device linked at high speed usually reports bcdUSB 2.10, so the BOS is the better witness.
func usbDeviceMaxSpeed(o Options, devDir, version string) (int, string) {
	b, err := withTimeout(o.timeout(), func() ([]byte, error) { return os.ReadFile(filepath.Join(devDir, "bos_descriptors")) })
	if err == nil {
		if v := bosMaxSpeedMbps(b); v > 0 {
			return v, "bos"
		}
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(version), 64); err == nil && v >= 3.0 {
		return 5000, "bcdUSB"
	}
	return 0, ""
}

// bosMaxSpeedMbps parses a BOS descriptor set (USB 3.2 spec 9.6.2) and returns the highest
// speed its capabilities declare: 5000 for a SuperSpeed USB capability (type 0x03), the
// fastest sublink of a SuperSpeedPlus capability (type 0x0A). 0 when neither is present.
func bosMaxSpeedMbps(b []byte) int {
	if len(b) < 5 || b[1] != 0x0f {
		return 0
	}
	best := 0
	for i := int(b[0]); i+3 <= len(b); {
		l := int(b[i])
		if l < 3 || i+l > len(b) {
			break
		}
		if b[i+1] == 0x10 { // DEVICE CAPABILITY
			switch b[i+2] {
			case 0x03:
				best = max(best, 5000)
			case 0x0a:
				best = max(best, sspMaxMbps(b[i:i+l]))
			}
		}
		i += l
	}
	return best
}

// sspMaxMbps reads the sublink speed attributes of a SuperSpeedPlus capability.
func sspMaxMbps(d []byte) int {
	if len(d) < 12 {
		return 0
	}
	count := int(d[4]&0x1f) + 1 // SSAC: attribute count minus one
	best := 0
	for k := 0; k < count; k++ {
		off := 12 + 4*k
		if off+4 > len(d) {
			break
		}
		attr := uint32(d[off]) | uint32(d[off+1])<<8 | uint32(d[off+2])<<16 | uint32(d[off+3])<<24
		exp := (attr >> 4) & 0x3 // LSE: 0 b/s, 1 Kb/s, 2 Mb/s, 3 Gb/s
		mant := int(attr >> 16)
		var mbps int
		switch exp {
		case 2:
			mbps = mant
		case 3:
			mbps = mant * 1000
		}
		best = max(best, mbps)
	}
	return best
}

// controllerMaxSpeed is the fastest root hub on a host controller: an xHCI has a USB 2 root
// hub and a USB 3 one side by side (usb1 480, usb2 5000 on the Pi 4).
func controllerMaxSpeed(hcDir string) int {
	ents, err := os.ReadDir(hcDir)
	if err != nil {
		return 0
	}
	best := 0
	for _, e := range ents {
		if reUSBRoot.MatchString(e.Name()) {
			best = max(best, usbSpeedMbps(readString(filepath.Join(hcDir, e.Name(), "speed"))))
		}
	}
	return best
}

// storageQuirk finds VID:PID in usb-storage's quirks parameter ("174c:55aa:u,…"); the u flag
// makes the uas driver ignore the device, so it falls back to usb-storage.
func storageQuirk(o Options, vid, pid string) (string, bool) {
	q := readString(o.path("/sys/module/usb_storage/parameters/quirks"))
	for _, e := range strings.Split(q, ",") {
		f := strings.Split(strings.TrimSpace(e), ":")
		if len(f) != 3 || !strings.EqualFold(f[0], vid) || !strings.EqualFold(f[1], pid) {
			continue
		}
		return strings.TrimSpace(e), strings.ContainsRune(strings.ToLower(f[2]), 'u')
	}
	return "", false
}

// usbClass decides usb-flash, usb-ssd or usb-hdd from facts only, else "other":
//   - the drive's rotation rate from ATA IDENTIFY (1 = solid state) is the best witness;
//   - a named flash controller is a flash drive, a named NVMe bridge holds an SSD;
//   - a named SATA bridge holds an SSD when the block layer says non-rotational (uas reads
//     the drive's rotation rate through VPD page B1; usb-storage skips VPD pages, so its
//     "rotational" stays at the default 1 and proves nothing);
//   - a device that is not a bridge and sets the removable-media bit is a flash drive.
func usbClass(u *USB, d *Device, q *Queue) string {
	if u.Drive != nil && u.Drive.RotationRateRPM > 0 {
		if u.Drive.RotationRateRPM == 1 {
			return ClassUSBSSD
		}
		return ClassUSBHDD
	}
	nonRot := q != nil && q.Rotational != nil && !*q.Rotational
	if u.Bridge != nil {
		switch {
		case u.Bridge.Kind == "usb-flash":
			return ClassUSBFlash
		case u.Bridge.Kind == "usb-nvme", u.Bridge.Kind == "usb-sata" && nonRot:
			return ClassUSBSSD
		}
		return ClassOther
	}
	if d != nil && d.Removable {
		return ClassUSBFlash
	}
	if nonRot {
		return ClassUSBSSD
	}
	return ClassOther
}
