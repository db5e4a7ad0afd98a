package probe

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Probe identifies the storage behind target (a directory, file, partition or disk; "" is
// the current directory) and the board it runs on. An error means the target itself could
// not be resolved; anything else that cannot be read is left out and explained in Notes.
func Probe(target string, o Options) (*Report, error) {
	if target == "" {
		target = "."
	}
	r := &Report{Target: target}
	mounts, err := readMounts(o)
	if err != nil {
		r.Notes = append(r.Notes, err.Error())
	}
	res, err := resolveTarget(o, target, mounts)
	if err != nil {
		return nil, err
	}
	r.Target = res.target
	if res.mount != nil {
		m := res.mount
		r.Mount = &Mount{
			MountPoint: m.MountPoint, FSType: m.FSType, Source: m.Source,
			Options: strings.Join(m.Options, ","), SuperOptions: strings.Join(m.SuperOptions, ","),
			Sync: m.HasOption("sync"), Discard: m.HasOption("discard"),
		}
	}
	if res.blockDir != "" {
		describeBlock(o, r, res.blockDir, mounts)
	} else if res.mount != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("%s is on %s (%s), which is not a block device: there is no drive to identify",
			r.Target, res.mount.Source, res.mount.FSType))
	}
	r.Board = ReadBoard(o)
	return r, nil
}

// describeBlock fills partition, device, transport, link and ceiling from a block directory.
func describeBlock(o Options, r *Report, dir string, mounts []MountEntry) {
	diskDir := dir
	if isPartition(dir) {
		r.Partition = readPartition(dir)
		diskDir = filepath.Dir(dir)
	}
	// Stacked devices (LVM, LUKS, md): follow the first member down to real hardware.
	for depth := 0; depth < 4; depth++ {
		sl := slaves(diskDir)
		if len(sl) == 0 {
			break
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%s is stacked on %s; describing %s",
			filepath.Base(diskDir), strings.Join(sl, ", "), sl[0]))
		next, err := blockDir(o, sl[0])
		if err != nil {
			break
		}
		if isPartition(next) {
			r.Partition = readPartition(next)
			next = filepath.Dir(next)
		}
		diskDir = next
	}
	describeDisk(o, r, diskDir)
	if r.Loop != nil && r.Loop.BackingFile != "" {
		if m, ok := mountFor(mounts, r.Loop.BackingFile, nil); ok {
			if d, ok := blockDirByDevnum(o, m.Major, m.Minor); ok {
				name := filepath.Base(d)
				if isPartition(d) {
					name = filepath.Base(filepath.Dir(d)) + " (" + name + ")"
				}
				r.Loop.BackingDevice = name
			}
		}
	}
}

// describeDisk identifies a whole disk and walks its chain up to the CPU.
func describeDisk(o Options, r *Report, diskDir string) {
	r.Device = readDevice(o, diskDir)
	r.Queue = readQueue(diskDir)
	dirs := ancestors(o, diskDir)
	name := r.Device.Name

	switch {
	case strings.HasPrefix(name, "loop"):
		r.Device.Class = ClassLoop
		var h Hop
		r.Loop, h = readLoop(diskDir)
		r.Link = append(r.Link, h)
	case hasDir(dirs, "mmc_host"):
		describeMMC(o, r, dirs)
	default:
		if ifDir, ok := findUp(dirs, reUSBIface); ok {
			describeUSB(o, r, dirs, ifDir)
			break
		}
		if ctrl, ok := nvmeController(dirs); ok {
			n, hops := readNVMe(o, ctrl)
			r.NVMe, r.Device.Class = n, ClassNVMe
			r.Device.Model, r.Device.SerialHash = n.Model, n.SerialHash
			r.Link = append(r.Link, hops...)
			break
		}
		if port, ok := findUp(dirs, reATAPort); ok {
			describeSATA(o, r, dirs, port, diskDir)
			break
		}
		if v, ok := findUp(dirs, reVirtio); ok {
			r.Device.Class = ClassVirtio
			r.Device.Vendor = "virtio"
			r.Link = append(r.Link, Hop{Bus: "virtio", Name: filepath.Base(v), Driver: linkBase(filepath.Join(v, "driver"))})
			r.Link = append(r.Link, pcieHops(dirs)...)
		}
	}
	setCeiling(r)
}

// describeMMC fills r for an SD card or eMMC: the card's registers name the device.
func describeMMC(o Options, r *Report, dirs []string) {
	card := filepath.Join(o.path("/sys/class/block"), r.Device.Name, "device")
	cardDir, err := filepath.EvalSymlinks(card)
	if err != nil {
		return
	}
	sd, h, note := readMMC(o, cardDir)
	r.SD, r.Device.Class = sd, ClassMicroSD
	if sd.Type == "MMC" {
		r.Device.Class = ClassEMMC
	}
	r.Device.Vendor, r.Device.Model = sd.Manufacturer, sd.Name
	r.Device.SerialHash = sd.SerialHash
	r.Link = append(r.Link, h)
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	r.Link = append(r.Link, pcieHops(dirs)...)
}

// describeUSB fills r for a USB drive whose interface is ifDir, asking a USB-SATA bridge
// for the drive behind it.
func describeUSB(o Options, r *Report, dirs []string, ifDir string) {
	u, hops := readUSB(o, dirs, ifDir)
	u.SCSIVendor, u.SCSIModel = r.Device.Vendor, r.Device.Model
	if u.Bridge != nil && u.Bridge.Kind == "usb-sata" && !o.NoIoctl {
		id, err := ataIdentify(o, r.Device.Path)
		if err == nil {
			u.Drive = id
		} else if o.live() {
			r.Notes = append(r.Notes, fmt.Sprintf("drive behind the %s bridge did not answer ATA IDENTIFY: %v", u.Bridge.Chip, err))
		}
	}
	r.USB = u
	r.Device.Class = usbClass(u, r.Device, r.Queue)
	if u.Drive != nil && u.Drive.Model != "" {
		r.Device.Model = u.Drive.Model
		r.Device.Vendor = ""
	}
	// The drive's own serial when the bridge passed IDENTIFY through, else the USB
	// device's (a stick's controller is the drive).
	r.Device.SerialHash = u.SerialHash
	if u.Drive != nil && u.Drive.SerialHash != "" {
		r.Device.SerialHash = u.Drive.SerialHash
	}
	r.Link = append(r.Link, hops...)
	r.Link = append(r.Link, pcieHops(dirs)...)
}

// describeSATA fills r for an ATA disk on port: IDENTIFY names the drive.
func describeSATA(o Options, r *Report, dirs []string, port, diskDir string) {
	s, h := readSATA(o, port, diskDir)
	r.SATA, r.Device.Class = s, sataClass(s)
	if r.Device.Vendor == "ATA" { // libata's INQUIRY vendor, not the drive's maker
		r.Device.Vendor = ""
	}
	if s.Model != "" {
		r.Device.Model = s.Model
	}
	if s.SerialHash != "" {
		r.Device.SerialHash = s.SerialHash
	}
	r.Link = append(r.Link, h)
	r.Link = append(r.Link, pcieHops(dirs)...)
}

// pcieHops is the PCIe link nearest the device, if there is one (the Pi 4's VL805, an
// AHCI card); integrated controllers have none.
func pcieHops(dirs []string) []Hop {
	if l, ok := deepestPCIeLink(dirs); ok {
		return []Hop{l.hop()}
	}
	return nil
}

func hasDir(dirs []string, base string) bool {
	for _, d := range dirs {
		if filepath.Base(d) == base {
			return true
		}
	}
	return false
}

// setCeiling takes the slowest hop with a known ceiling.
func setCeiling(r *Report) {
	var best *Hop
	for i := range r.Link {
		h := &r.Link[i]
		if h.CeilingMBPerS <= 0 {
			continue
		}
		if best == nil || h.CeilingMBPerS < best.CeilingMBPerS {
			best = h
		}
	}
	if best == nil {
		return
	}
	r.CeilingMBPerS = best.CeilingMBPerS
	r.Ceiling = &Ceiling{MBPerS: best.CeilingMBPerS, Bus: best.Bus, Basis: best.CeilingBasis, Source: best.CeilingSource}
}
