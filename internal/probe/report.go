package probe

import "github.com/iomark/iomark/internal/record"

// Report is everything probe learned about one target. Its JSON form is the contract of
// `iomark info --json` (docs/info-json.md): a key is present only when the hardware is and the
// value was read, never guessed.
type Report struct {
	Target    string     `json:"target"`
	Device    *Device    `json:"device,omitempty"`
	Link      []Hop      `json:"link,omitempty"` // from the device up to the CPU
	USB       *USB       `json:"usb,omitempty"`
	SD        *SD        `json:"sd,omitempty"`
	NVMe      *NVMe      `json:"nvme,omitempty"`
	SATA      *SATA      `json:"sata,omitempty"`
	Loop      *Loop      `json:"loop,omitempty"`
	Board     *Board     `json:"board,omitempty"`
	Mount     *Mount     `json:"mount,omitempty"`
	Partition *Partition `json:"partition,omitempty"`
	Queue     *Queue     `json:"queue,omitempty"`
	// CeilingMBPerS is the practical limit of the slowest hop in MB/s (10^6 B/s).
	CeilingMBPerS float64  `json:"ceiling_mb_per_s,omitempty"`
	Ceiling       *Ceiling `json:"ceiling,omitempty"`
	// Notes are probes that could not answer (permission, timeout): why a key is absent.
	Notes []string `json:"notes,omitempty"`
}

// Device classes (the `class` key).
const (
	ClassMicroSD  = "microsd"
	ClassEMMC     = "emmc"
	ClassUSBFlash = "usb-flash"
	ClassUSBSSD   = "usb-ssd"
	ClassUSBHDD   = "usb-hdd"
	ClassNVMe     = "nvme"
	ClassSATA     = "sata"     // an ATA disk that does not report its rotation rate
	ClassSATASSD  = "sata-ssd" // IDENTIFY word 217 says solid state
	ClassSATAHDD  = "sata-hdd" // IDENTIFY word 217 gives a rotation rate
	ClassVirtio   = "virtio"
	ClassLoop     = "loop"
	ClassOther    = "other"
)

// Loop describes a loop device and its backing file.
type Loop struct {
	BackingFile   string `json:"backing_file,omitempty"`
	OffsetBytes   int64  `json:"offset_bytes,omitempty"`
	DirectIO      bool   `json:"direct_io"`
	BackingDevice string `json:"backing_device,omitempty"` // the disk that holds the file
}

// The parts of a report a run record carries are the record's types, so the record's shape
// is defined where the record is.
type (
	Device      = record.Device
	Hop         = record.Hop
	Ceiling     = record.Ceiling
	USB         = record.USB
	Bridge      = record.Bridge
	ATAIdentity = record.ATAIdentity
	SD          = record.SD
	NVMe        = record.NVMe
	SATA        = record.SATA
	Board       = record.Board
	PiInfo      = record.PiInfo
	Throttle    = record.Throttle
	Mount       = record.Mount
	Partition   = record.Partition
	Queue       = record.Queue
)
