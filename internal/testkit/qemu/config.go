package qemu

import (
	"fmt"
	"sort"
)

// Drive is one emulated drive: a file of SizeMiB the lab creates for each boot. Sizes are
// unique within a configuration, so a step finds the guest's name for a drive by its size
// ($(lab_disk ID) in a shell step, Result.Disk in Go), whatever bus enumerated it first.
type Drive struct {
	ID      string
	SizeMiB int
	// FS "ext4" makes a filesystem on the file before boot (mkfs.ext4 on the host).
	FS string
	// If is QEMU's -drive interface: "none" (default: a -device in Config.Devices names it by
	// ID) or "sd" (the Raspberry Pi's SD slot).
	If string
	// Throttle is appended to -drive, e.g. "throttling.iops-read=800" (QEMU's block throttling).
	Throttle string
}

// Config is one machine: its QEMU arguments, drives, the modules its init loads and what it
// is for. Configs lists them all; each is data, with where its facts come from.
type Config struct {
	Name    string
	Doc     string
	Arch    string // amd64 or arm64
	Flavour Flavour
	Machine []string // -M, memory, accelerator
	DTB     string   // arm64: a DTB shipped with the kernel package
	// Revision, when set, is written to the DTB as /system/linux,revision (QEMU adds none; the
	// Raspberry Pi firmware does on a real board).
	Revision uint32
	Console  string // ttyS0, ttyAMA0
	Drives   []Drive
	Devices  []string // -device … arguments; drives are named by ID
	Modules  []string
	// Disks is how many whole disks init waits for (default: len(Drives)).
	Disks int
}

// Module sets. Storage drivers and what the faults need (dm-mod carries linear and error).
var (
	modulesPC = []string{"nvme", "ahci", "usb-storage", "uas", "xhci-pci", "ehci-pci", "sdhci-pci",
		"mmc_block", "sd_mod", "virtio_blk", "virtio_pci", "virtio_scsi", "dm-mod", "dm-flakey", "ext4"}
	// The Pi 3: sdhost (bcm2835), dwc2 with its no-op PHY, and the watchdog that reboots it
	// (there is no PSCI on QEMU's raspi3b, so power-off is a reboot with -no-reboot).
	modulesPi3 = []string{"bcm2835", "dwc2", "phy-generic", "bcm2835_wdt", "mmc_block", "usb-storage",
		"uas", "sd_mod", "dm-mod", "dm-flakey", "ext4"}
)

var machineQ35 = []string{"-M", "q35", "-m", "1024", "-smp", "1", "-accel", "tcg"}
var machinePi3 = []string{"-M", "raspi3b", "-accel", "tcg,thread=single"}

// Identity strings of the "identity" configuration: what a Samsung 870 EVO reports (the
// issue's example: libata's 16-character INQUIRY cut "Samsung SSD 870 EVO 250GB" to
// "Samsung SSD 870" and "SVT01B6Q" to "1B6Q").
const (
	sataSSDModel    = "Samsung SSD 870 EVO 250GB"
	sataSSDFirmware = "SVT01B6Q"
	sataSSDSerial   = "S6PENL0T123456X"
	sataHDDModel    = "WDC WD40EFRX-68N32N0"
	sataHDDFirmware = "82.00A82"
	sataHDDSerial   = "WD-WCC7K0123456"
	nvmeSerial      = "S4EWNX0R123456"
	uasVendor       = "Samsung"
	uasProduct      = "PSSD T7"
	uasSerial       = "S5SXNG0R123456"
)

// Configs are the lab's machines (docs/qemu-lab.md).
var Configs = []Config{
	{
		Name: "q35-defaults", Arch: "amd64", Flavour: Stable, Machine: machineQ35, Console: "ttyS0",
		Doc: "every PC bus with QEMU's default identity strings",
		Drives: []Drive{{ID: "nvme", SizeMiB: 65}, {ID: "sata", SizeMiB: 66}, {ID: "uas", SizeMiB: 67},
			{ID: "bot", SizeMiB: 68}, {ID: "usb2", SizeMiB: 69}, {ID: "sd", SizeMiB: 64}},
		Devices: []string{
			"pcie-root-port,id=rp1,chassis=1", "nvme,drive=nvme,bus=rp1,serial=deadbeef",
			"ahci,id=ahci", "ide-hd,bus=ahci.0,drive=sata",
			"qemu-xhci,id=xhci", "usb-uas,id=uas,bus=xhci.0", "scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=uas",
			"usb-storage,bus=xhci.0,drive=bot",
			"usb-ehci,id=ehci", "usb-storage,bus=ehci.0,drive=usb2",
			"sdhci-pci", "sd-card,drive=sd",
		},
		Modules: modulesPC,
	},
	{
		Name: "q35-identity", Arch: "amd64", Flavour: Stable, Machine: machineQ35, Console: "ttyS0",
		Doc: "every PC bus with identity strings set, an SSD and an HDD on SATA, a stick behind a hub, a gen3 x4 root port",
		Drives: []Drive{{ID: "nvme", SizeMiB: 65}, {ID: "sata-ssd", SizeMiB: 66}, {ID: "sata-hdd", SizeMiB: 70},
			{ID: "uas", SizeMiB: 67}, {ID: "bot", SizeMiB: 68}, {ID: "usb2", SizeMiB: 69}, {ID: "hub", SizeMiB: 71},
			{ID: "sd", SizeMiB: 64}},
		Devices: []string{
			"pcie-root-port,id=rp1,chassis=1,x-speed=8,x-width=4", "nvme,drive=nvme,bus=rp1,serial=" + nvmeSerial,
			"ahci,id=ahci",
			fmt.Sprintf("ide-hd,bus=ahci.0,drive=sata-ssd,model=%s,ver=%s,serial=%s,rotation_rate=1", sataSSDModel, sataSSDFirmware, sataSSDSerial),
			fmt.Sprintf("ide-hd,bus=ahci.1,drive=sata-hdd,model=%s,ver=%s,serial=%s,rotation_rate=5400", sataHDDModel, sataHDDFirmware, sataHDDSerial),
			"qemu-xhci,id=xhci", "usb-uas,id=uas,bus=xhci.0,port=1",
			fmt.Sprintf("scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=uas,vendor=%s,product=%s,serial=%s,rotation_rate=1", uasVendor, uasProduct, uasSerial),
			"usb-storage,bus=xhci.0,port=2,drive=bot,serial=BOT0123456789,removable=on",
			// QEMU's usb-hub is a full-speed (USB 1.1) hub: the stick behind it runs at 12 Mb/s.
			"usb-hub,bus=xhci.0,port=4", "usb-storage,bus=xhci.0,port=4.1,drive=hub,serial=HUB0123456789,removable=on",
			"usb-ehci,id=ehci", "usb-storage,bus=ehci.0,drive=usb2,serial=EHCI0123456789,removable=on",
			"sdhci-pci", "sd-card,drive=sd,spec_version=3",
		},
		Modules: modulesPC,
	},
	{
		Name: "q35-bos", Arch: "amd64", Flavour: Backports, Machine: machineQ35, Console: "ttyS0",
		Doc:    "a newer kernel (bookworm-backports, ≥ 6.9: bos_descriptors) with USB drives on xHCI and on an EHCI (USB 2) port",
		Drives: []Drive{{ID: "bot", SizeMiB: 68}, {ID: "usb2", SizeMiB: 69}, {ID: "uas", SizeMiB: 67}},
		Devices: []string{
			"qemu-xhci,id=xhci", "usb-storage,bus=xhci.0,drive=bot",
			"usb-uas,id=uas,bus=xhci.0", "scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=uas",
			"usb-ehci,id=ehci", "usb-storage,bus=ehci.0,drive=usb2",
		},
		Modules: modulesPC,
	},
	{
		Name: "q35-throttled", Arch: "amd64", Flavour: Stable, Machine: machineQ35, Console: "ttyS0",
		Doc:     "an ext4 virtio disk QEMU throttles to known limits (the quick profile must find them)",
		Drives:  []Drive{{ID: "thr", SizeMiB: 512, FS: "ext4", Throttle: ThrottleArgs}},
		Devices: []string{"virtio-blk-pci,drive=thr"},
		Modules: modulesPC,
	},
	{
		Name: "q35-faults", Arch: "amd64", Flavour: Stable, Machine: machineQ35, Console: "ttyS0",
		Doc:    "disks to break: a virtio disk under device-mapper (error, flakey, a wrap-around fake) and a SATA disk to delete",
		Drives: []Drive{{ID: "base", SizeMiB: 96}, {ID: "flaky", SizeMiB: 95}, {ID: "victim", SizeMiB: 97}, {ID: "small", SizeMiB: 16}},
		Devices: []string{"virtio-blk-pci,drive=base", "virtio-blk-pci,drive=flaky", "ahci,id=ahci",
			"ide-hd,bus=ahci.0,drive=victim", "virtio-blk-pci,drive=small"},
		Modules: modulesPC,
	},
	{
		Name: "raspi3b", Arch: "arm64", Flavour: Stable, Machine: machinePi3, Console: "ttyAMA0",
		DTB:    "broadcom/bcm2837-rpi-3-b.dtb",
		Doc:    "a Raspberry Pi 3 B with an SD card on sdhost and a USB stick on dwc2, no revision in the device tree",
		Drives: []Drive{{ID: "sd", SizeMiB: 64, If: "sd"}, {ID: "stick", SizeMiB: 65}},
		// port=1: dwc2 has one root port, and QEMU puts a full-speed hub on a bus's last free
		// port when a device is attached without naming one (hw/usb/bus.c, usb_claim_port).
		Devices: []string{"usb-storage,drive=stick,port=1,serial=PI0123456789,removable=on"},
		Modules: modulesPi3,
	},
	{
		Name: "raspi3b-rev", Arch: "arm64", Flavour: Stable, Machine: machinePi3, Console: "ttyAMA0",
		DTB: "broadcom/bcm2837-rpi-3-b.dtb", Revision: 0xa02082,
		Doc:    "the Pi 3 B with revision a02082 injected and two sticks (QEMU puts a full-speed hub in front of them)",
		Drives: []Drive{{ID: "sd", SizeMiB: 64, If: "sd"}, {ID: "stick", SizeMiB: 65}, {ID: "stick2", SizeMiB: 66}},
		Devices: []string{"usb-storage,drive=stick,serial=PI0123456789,removable=on",
			"usb-storage,drive=stick2,serial=PI9876543210,removable=on"},
		Modules: modulesPi3,
	},
}

// Throttle limits of q35-throttled, in QEMU's units (bytes/s and IOPS). They are low enough
// for TCG to reach on a loaded 2-core machine, and each of the quick profile's tests meets
// exactly one of them: 1 MiB reads and writes the byte rates, 4 KiB random I/O the IOPS.
const (
	ThrottleReadBytesPerS  = 20_000_000
	ThrottleWriteBytesPerS = 16_000_000
	ThrottleReadIOPS       = 500
	ThrottleWriteIOPS      = 300
)

// ThrottleArgs is the -drive suffix of q35-throttled.
var ThrottleArgs = fmt.Sprintf("throttling.bps-read=%d,throttling.bps-write=%d,throttling.iops-read=%d,throttling.iops-write=%d",
	ThrottleReadBytesPerS, ThrottleWriteBytesPerS, ThrottleReadIOPS, ThrottleWriteIOPS)

// Lookup finds a configuration by name.
func Lookup(name string) (Config, error) {
	for _, c := range Configs {
		if c.Name == name {
			return c, nil
		}
	}
	return Config{}, fmt.Errorf("no lab configuration %q (have: %s)", name, Names())
}

// Names lists the configurations.
func Names() []string {
	var out []string
	for _, c := range Configs {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// Validate checks a configuration's own consistency: unique drive IDs and sizes (steps find
// drives by size), SD sizes a power of two (QEMU refuses others), an arch it can boot.
func (c Config) Validate() error {
	ids, sizes := map[string]bool{}, map[int]string{}
	for _, d := range c.Drives {
		if d.ID == "" || d.SizeMiB <= 0 {
			return fmt.Errorf("%s: drive %+v needs an ID and a size", c.Name, d)
		}
		if ids[d.ID] {
			return fmt.Errorf("%s: drive ID %s twice", c.Name, d.ID)
		}
		if o, ok := sizes[d.SizeMiB]; ok {
			return fmt.Errorf("%s: drives %s and %s have the same size; steps find drives by size", c.Name, o, d.ID)
		}
		ids[d.ID], sizes[d.SizeMiB] = true, d.ID
		if d.If == "sd" && d.SizeMiB&(d.SizeMiB-1) != 0 {
			return fmt.Errorf("%s: SD card %s must be a power of two in size", c.Name, d.ID)
		}
	}
	switch c.Arch {
	case "amd64", "arm64":
	default:
		return fmt.Errorf("%s: arch %q", c.Name, c.Arch)
	}
	if c.Arch == "arm64" && c.DTB == "" {
		return fmt.Errorf("%s: an arm64 machine needs a DTB", c.Name)
	}
	return nil
}
