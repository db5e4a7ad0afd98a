package record

// What the probe found about a run's target, as `iomark info --json` and the record carry it
// (docs/info-json.md): a key is present only when the hardware is and the value was read.
// Package probe fills them in; they are defined here so the record's JSON shape is this
// package's alone.

// Device is the whole disk that holds the target.
type Device struct {
	Name          string `json:"name"`  // kernel name of the whole disk: sda, mmcblk0, nvme0n1
	Path          string `json:"path"`  // /dev/NAME
	Class         string `json:"class"` // one of probe's Class constants: microsd, usb-ssd, nvme, …
	Vendor        string `json:"vendor,omitempty"`
	Model         string `json:"model,omitempty"`
	CapacityBytes uint64 `json:"capacity_bytes,omitempty"`
	SerialHash    string `json:"serial_hash,omitempty"` // sha256 of the serial, first 16 hex digits
	Removable     bool   `json:"removable,omitempty"`
	ReadOnly      bool   `json:"read_only,omitempty"`
	Sysfs         string `json:"sysfs,omitempty"` // the device's directory under /sys/devices
}

// Hop is one link between the device and the CPU.
type Hop struct {
	Bus          string `json:"bus"`            // sd, mmc, usb, pcie, sata, virtio, loop
	Name         string `json:"name,omitempty"` // sysfs name: 2-1, 0000:01:00.0, link1, mmc0
	SpeedMbps    int    `json:"speed_mbps,omitempty"`
	MaxSpeedMbps int    `json:"max_speed_mbps,omitempty"`
	Driver       string `json:"driver,omitempty"`
	Detail       string `json:"detail,omitempty"` // e.g. "PCIe gen2 x1 (device gen3 x4)"
	// The practical ceiling of this hop and how it was derived (docs/ceilings.md).
	CeilingMBPerS float64 `json:"ceiling_mb_per_s,omitempty"`
	CeilingBasis  string  `json:"ceiling_basis,omitempty"`
	CeilingSource string  `json:"ceiling_source,omitempty"`
}

// Ceiling names the slowest hop.
type Ceiling struct {
	MBPerS float64 `json:"mb_per_s"`
	Bus    string  `json:"bus"`
	Basis  string  `json:"basis,omitempty"`
	Source string  `json:"source,omitempty"`
}

// USB describes a USB mass-storage device and its port.
type USB struct {
	VID          string `json:"vid"` // 4 hex digits, as lsusb prints
	PID          string `json:"pid"`
	Driver       string `json:"driver,omitempty"`     // uas or usb-storage
	SpeedMbps    int    `json:"speed_mbps,omitempty"` // negotiated
	MaxSpeedMbps int    `json:"max_speed_mbps,omitempty"`
	// MaxSpeedSource says how MaxSpeedMbps is known: "bcdUSB", "bos" or "bridge-table".
	MaxSpeedSource string `json:"max_speed_source,omitempty"`
	// PortMaxSpeedMbps is the fastest bus of the host controller the device hangs from: a
	// USB 3 device at 480 Mb/s on a controller with a 5000 Mb/s bus is in the wrong port.
	PortMaxSpeedMbps int      `json:"port_max_speed_mbps,omitempty"`
	Version          string   `json:"version,omitempty"` // bcdUSB, e.g. "3.20"
	Manufacturer     string   `json:"manufacturer,omitempty"`
	Product          string   `json:"product,omitempty"`
	SerialHash       string   `json:"serial_hash,omitempty"`
	Bridge           *Bridge  `json:"bridge,omitempty"`
	Busdev           string   `json:"busdev,omitempty"` // sysfs name, e.g. 2-1
	Hubs             []string `json:"hubs,omitempty"`   // hubs between the device and the root
	// UASDisabledByQuirk is true when usb-storage.quirks carries the "u" flag for this device.
	UASDisabledByQuirk bool   `json:"uas_disabled_by_quirk,omitempty"`
	Quirks             string `json:"quirks,omitempty"` // the usb-storage quirk entry in force
	SCSIVendor         string `json:"scsi_vendor,omitempty"`
	SCSIModel          string `json:"scsi_model,omitempty"`
	// Drive is what the bridge hides, from ATA IDENTIFY through SAT pass-through.
	Drive *ATAIdentity `json:"drive,omitempty"`
}

// Bridge is the USB-to-SATA/NVMe chip named from its VID:PID (linkdb).
type Bridge struct {
	Vendor string `json:"vendor"`
	Chip   string `json:"chip"`
	Kind   string `json:"kind,omitempty"`
	UAS    bool   `json:"uas"`
	Note   string `json:"note,omitempty"`
}

// ATAIdentity is the drive answering ATA IDENTIFY DEVICE.
type ATAIdentity struct {
	Model           string  `json:"model,omitempty"`
	Firmware        string  `json:"firmware,omitempty"`
	SerialHash      string  `json:"serial_hash,omitempty"`
	RotationRateRPM int     `json:"rotation_rate_rpm,omitempty"` // 1 means a solid-state drive
	SATAGbps        float64 `json:"sata_gbps,omitempty"`         // highest SATA generation supported
}

// SD describes an SD card or eMMC from its registers.
type SD struct {
	Type           string   `json:"type"` // SD or MMC, as the kernel names it
	ManfID         int      `json:"manfid"`
	OEMID          string   `json:"oemid"`
	Name           string   `json:"name"`
	Revision       string   `json:"revision,omitempty"`
	Date           string   `json:"date,omitempty"` // YYYY-MM
	SerialHash     string   `json:"serial_hash,omitempty"`
	Manufacturer   string   `json:"manufacturer,omitempty"`
	CapacityBytes  uint64   `json:"capacity_bytes,omitempty"` // from the CSD
	SpeedClass     *int     `json:"speed_class,omitempty"`
	UHSClass       *int     `json:"uhs_class,omitempty"`
	VideoClass     *int     `json:"video_class,omitempty"`
	AppClass       *string  `json:"app_class,omitempty"` // "", A1, A2
	SpecVersion    string   `json:"spec_version,omitempty"`
	Suspect        bool     `json:"suspect"`
	SuspectReasons []string `json:"suspect_reasons,omitempty"`
	// AUSizeBytes is the allocation unit the card's SSR states (AU_SIZE); PreferredEraseBytes
	// is the kernel's preferred_erase_size for the card (from the AU, or the eMMC's erase
	// group). Both absent when not stated.
	AUSizeBytes         uint64 `json:"au_size_bytes,omitempty"`
	PreferredEraseBytes uint64 `json:"preferred_erase_bytes,omitempty"`
	// EraseSectorBytes is the erase sector of a standard-capacity card's CSD (v1: SECTOR_SIZE
	// write blocks). Absent on SDHC/SDXC, whose CSD fixes it at 64 KiB whatever the flash.
	EraseSectorBytes uint64 `json:"erase_sector_bytes,omitempty"`
	// Bus state from debugfs (root only): timing name, clock and width.
	Timing       string `json:"timing,omitempty"`
	ClockHz      int    `json:"clock_hz,omitempty"`
	BusWidthBits int    `json:"bus_width_bits,omitempty"`
	CommandQueue *bool  `json:"command_queue,omitempty"` // host has CQE enabled in the device tree
	Host         string `json:"host,omitempty"`          // mmc0
	HostDriver   string `json:"host_driver,omitempty"`
}

// NVMe describes an NVMe controller and its PCIe link.
type NVMe struct {
	Model        string   `json:"model,omitempty"`
	Firmware     string   `json:"firmware,omitempty"`
	SerialHash   string   `json:"serial_hash,omitempty"`
	Address      string   `json:"address,omitempty"` // PCI address
	PCIeGen      int      `json:"pcie_gen,omitempty"`
	PCIeWidth    int      `json:"pcie_width,omitempty"`
	PCIeMaxGen   int      `json:"pcie_max_gen,omitempty"`   // what the drive supports
	PCIeMaxWidth int      `json:"pcie_max_width,omitempty"` // what the drive supports
	PortMaxGen   int      `json:"port_max_gen,omitempty"`   // what the slot/root port offers
	PortMaxWidth int      `json:"port_max_width,omitempty"`
	TempC        *float64 `json:"temp_c,omitempty"`
}

// SATA describes an ATA disk on a SATA link.
type SATA struct {
	Port        string  `json:"port,omitempty"` // ata1
	LinkGbps    float64 `json:"link_gbps,omitempty"`
	MaxLinkGbps float64 `json:"max_link_gbps,omitempty"` // controller's hardware limit
	Model       string  `json:"model,omitempty"`         // from IDENTIFY when libata exposes it, else INQUIRY
	Firmware    string  `json:"firmware,omitempty"`      // from IDENTIFY when libata exposes it, else INQUIRY
	SerialHash  string  `json:"serial_hash,omitempty"`
	// RotationRateRPM is IDENTIFY word 217: 1 means solid state, else revolutions per minute.
	RotationRateRPM int      `json:"rotation_rate_rpm,omitempty"`
	Driver          string   `json:"driver,omitempty"` // ahci, …
	TempC           *float64 `json:"temp_c,omitempty"`
}

// Board describes the machine.
type Board struct {
	Model         string    `json:"model,omitempty"`
	Revision      string    `json:"revision,omitempty"` // Raspberry Pi revision code, hex
	Pi            *PiInfo   `json:"pi,omitempty"`
	SoCTempC      *float64  `json:"soc_temp_c,omitempty"`
	Throttled     *Throttle `json:"throttled,omitempty"`
	Governor      string    `json:"governor,omitempty"`
	CPUFreqDriver string    `json:"cpufreq_driver,omitempty"`
	Kernel        string    `json:"kernel,omitempty"`
	Arch          string    `json:"arch,omitempty"` // the kernel's machine name (uname -m)
	OS            string    `json:"os,omitempty"`
	MemoryBytes   uint64    `json:"memory_bytes,omitempty"`
	CPUs          int       `json:"cpus,omitempty"`
}

// PiInfo is a decoded Raspberry Pi revision code.
type PiInfo struct {
	Type          string `json:"type,omitempty"`
	BoardRevision string `json:"board_revision,omitempty"`
	MemoryMB      int    `json:"memory_mb,omitempty"`
	Manufacturer  string `json:"manufacturer,omitempty"`
	Processor     string `json:"processor,omitempty"`
}

// Throttle is the firmware's get_throttled word, or the rpi_volt hwmon alarm when that is all
// the kernel exposes.
type Throttle struct {
	Raw                   string `json:"raw,omitempty"` // hex as the firmware prints it
	Source                string `json:"source"`
	UnderVoltageNow       bool   `json:"under_voltage_now"`
	UnderVoltageOccurred  bool   `json:"under_voltage_occurred"`
	FreqCappedNow         bool   `json:"freq_capped_now"`
	FreqCappedOccurred    bool   `json:"freq_capped_occurred"`
	ThrottledNow          bool   `json:"throttled_now"`
	ThrottledOccurred     bool   `json:"throttled_occurred"`
	SoftTempLimitNow      bool   `json:"soft_temp_limit_now"`
	SoftTempLimitOccurred bool   `json:"soft_temp_limit_occurred"`
}

// Mount is the filesystem holding the target.
type Mount struct {
	MountPoint   string `json:"mount_point"`
	FSType       string `json:"fstype"`
	Source       string `json:"source,omitempty"`
	Options      string `json:"options"`                 // per-mount options, as in mountinfo
	SuperOptions string `json:"super_options,omitempty"` // per-superblock options
	Sync         bool   `json:"sync"`
	Discard      bool   `json:"discard"`
}

// Partition is the partition holding the target.
type Partition struct {
	Name        string `json:"name"`
	Number      int    `json:"number,omitempty"`
	StartBytes  uint64 `json:"start_bytes"`
	SizeBytes   uint64 `json:"size_bytes,omitempty"`
	Aligned1MiB bool   `json:"aligned_1mib"`
	Aligned4MiB bool   `json:"aligned_4mib"`
}

// Queue is the block layer's view of the whole disk.
type Queue struct {
	Scheduler          string `json:"scheduler,omitempty"`
	ReadAheadKB        *int   `json:"read_ahead_kb,omitempty"`
	Rotational         *bool  `json:"rotational,omitempty"`
	Discard            *bool  `json:"discard,omitempty"` // the device accepts discard/TRIM
	LogicalBlockBytes  int    `json:"logical_block_bytes,omitempty"`
	PhysicalBlockBytes int    `json:"physical_block_bytes,omitempty"`
	NrRequests         int    `json:"nr_requests,omitempty"`
}
