package flash

import "fmt"

// Verdict is the answer of a verify.
type Verdict string

// Verdicts.
const (
	// Genuine: every byte the drive claims held what was written, past every cache the
	// method can outlast.
	Genuine Verdict = "genuine"
	// Fake: the drive claims more than it stores; UsableBytes is what it really holds.
	Fake Verdict = "fake"
	// Damaged: the capacity is real but regions inside it lose or refuse data.
	Damaged Verdict = "damaged"
	// Unknown: the verify stopped (interrupted, or the device went away) before a verdict.
	Unknown Verdict = "unknown"
	// Readable: a read-only full scan read every block; the capacity was not checked (only
	// writing can tell a fake).
	Readable Verdict = "readable"
)

// Failure kinds: how a fake or damaged drive fails where it fails.
const (
	FailureWrap    = "wrap"     // writes past the real size land on earlier addresses
	FailureDropped = "dropped"  // writes are lost: reads return zeros, 0xff, stale or other data
	FailureIOError = "io-error" // the drive answers I/O errors
	FailureCorrupt = "corrupt"  // data comes back with bits changed
)

// Modes.
const (
	ModeProbe = "probe" // a block device, sampled
	ModeFill  = "fill"  // a directory, filled and read back
)

// Result is what a verify found. Its JSON form is the contract of `iomark verify --json`
// (docs/verify.md).
type Result struct {
	Verdict Verdict `json:"verdict"`
	Mode    string  `json:"mode"`
	Target  string  `json:"target"`
	// ClaimedBytes is the size the device reports (probe) or the bytes the fill tested.
	ClaimedBytes int64 `json:"claimed_bytes"`
	// UsableBytes is how much of it holds data. Probe: the first bad byte of a fake, rounded
	// down to GranularityBytes, ClaimedBytes for a genuine or damaged drive. Fill: the bytes
	// that read back intact.
	UsableBytes  int64  `json:"usable_bytes"`
	FirstBadByte *int64 `json:"first_bad_byte,omitempty"`
	Failure      string `json:"failure,omitempty"`
	// FailureDetail says more: what dropped writes read back as, where wraps land.
	FailureDetail string `json:"failure_detail,omitempty"`
	// WrapBytes is the distance at which a wrapping drive's addresses repeat.
	WrapBytes int64 `json:"wrap_bytes,omitempty"`
	// CacheBytes is how much had to be written before read-backs stopped coming from a cache
	// in the drive that hid lost writes (0 when none was seen).
	CacheBytes int64    `json:"cache_bytes,omitempty"`
	BadRegions []Region `json:"bad_regions,omitempty"`
	// GranularityBytes is the smallest unit the probe tests: sizes are exact to it.
	GranularityBytes int64   `json:"granularity_bytes"`
	BytesWritten     int64   `json:"bytes_written"`
	BytesRead        int64   `json:"bytes_read"`
	DurationS        float64 `json:"duration_s"`
	// VerdictS is when the verdict was known, seconds from the start: the probe then
	// writes back what it overwrote (DurationS includes that).
	VerdictS    float64 `json:"verdict_s"`
	Destructive bool    `json:"destructive,omitempty"`
	Interrupted bool    `json:"interrupted,omitempty"`
	// Restore says what a non-destructive probe put back.
	Restore *Restore `json:"restore,omitempty"`
	// PartitionFix is a partition that keeps data inside the usable size (fake drives).
	PartitionFix *PartitionFix `json:"partition_fix,omitempty"`
	Fill         *FillReport   `json:"fill,omitempty"`
	// Surface is the full scan's map (mode full): what it read, the speed by position.
	Surface *Surface `json:"surface,omitempty"`
	// SlowZones are stretches of the surface reading at under half the median rate: a
	// finding, not damage.
	SlowZones []SlowZone `json:"slow_zones,omitempty"`
	Notes     []string   `json:"notes,omitempty"`
}

// Region is a stretch of the device or fill stream, [StartByte, EndByte). When Exact is
// false the bad bytes lie somewhere inside it (a sample found them; its neighbours were good).
type Region struct {
	StartByte int64  `json:"start_byte"`
	EndByte   int64  `json:"end_byte"`
	Kind      string `json:"kind"` // a Failure kind
	Exact     bool   `json:"exact"`
}

// Restore is what a non-destructive probe wrote back.
type Restore struct {
	Blocks int   `json:"blocks"` // blocks saved before being overwritten
	Bytes  int64 `json:"bytes"`
	// Failed blocks could not be written back (the device refused or went away).
	Failed int `json:"failed"`
	// RecoveryFile is the journal, kept because not every block was written back and read
	// back as saved: `iomark verify --restore RecoveryFile DEVICE` puts them all back. ""
	// once everything is back (the journal is then removed).
	RecoveryFile string `json:"recovery_file,omitempty"`
	// Verified: after restoring, every block read back as saved, and the probe's watch
	// region hashes as it did before the first write.
	Verified bool `json:"verified"`
}

// FillReport is what a fill verify (a directory) found.
type FillReport struct {
	Dir   string `json:"dir"`
	Files int    `json:"files"`
	// FreeBytes is the filesystem's free space before the run; the fill wrote
	// ClaimedBytes of it (free space minus a margin, or --size).
	FreeBytes int64 `json:"free_bytes"`
	// Read-back, in bytes, as f3read counts: intact; with our stamp but changed bits;
	// holding another position's data (overwritten); anything else (changed: zeros, 0xff,
	// stale or foreign data).
	OKBytes          int64 `json:"ok_bytes"`
	CorruptedBytes   int64 `json:"corrupted_bytes"`
	OverwrittenBytes int64 `json:"overwritten_bytes"`
	ChangedBytes     int64 `json:"changed_bytes"`
	// FailedBytes could not be written or read back (I/O errors).
	FailedBytes int64 `json:"failed_bytes,omitempty"`
	// BadRanges are where the bad bytes are, in the fill stream (file i holds bytes
	// [i×FileBytes, (i+1)×FileBytes)); at most maxBadRanges, merged.
	BadRanges []Region `json:"bad_ranges,omitempty"`
	FileBytes int64    `json:"file_bytes"`
	// FirstBadDeviceByte is where the first bad byte lies on the filesystem's block device
	// (from the filesystem's extent map), when it can say.
	FirstBadDeviceByte *int64 `json:"first_bad_device_byte,omitempty"`
	// Rates over the whole fill, MB/s (10^6 bytes/s).
	WriteMBPerS float64 `json:"write_mb_per_s"`
	ReadMBPerS  float64 `json:"read_mb_per_s"`
	// Series is the write and read rate by position in the fill stream: an SLC cache
	// filling shows as the write rate falling part way.
	Series []SeriesPoint `json:"series"`
	// Direct is false when the filesystem refused O_DIRECT and the fill went through the
	// page cache (flushed and dropped before reading back).
	Direct bool `json:"direct"`
	// Swept counts files of earlier, killed runs that this run removed first.
	Swept int `json:"swept,omitempty"`
}

// SeriesPoint is the rate over one stretch of the fill stream or the disk (a full scan),
// starting at OffsetBytes; a rate not measured (a read-only scan writes nothing) is left out.
type SeriesPoint struct {
	OffsetBytes int64   `json:"offset_bytes"`
	Bytes       int64   `json:"bytes"`
	WriteMBPerS float64 `json:"write_mb_per_s,omitempty"`
	ReadMBPerS  float64 `json:"read_mb_per_s,omitempty"`
}

// PartitionFix is one partition that starts on a 4 MiB boundary and ends inside the usable
// size, in 512-byte sectors, as f3fix would make.
type PartitionFix struct {
	StartSector int64 `json:"start_sector"`
	Sectors     int64 `json:"sectors"`
}

// fixAlignBytes is where the suggested partition starts and the unit its size is rounded
// down to: 4 MiB, a multiple of every common SD allocation unit up to 4 MiB.
const fixAlignBytes = 4 << 20

// partitionFix returns a partition inside usable bytes, or nil when there is no room for one.
func partitionFix(usableBytes int64) *PartitionFix {
	end := usableBytes / fixAlignBytes * fixAlignBytes
	if end <= fixAlignBytes {
		return nil
	}
	return &PartitionFix{StartSector: fixAlignBytes / 512, Sectors: (end - fixAlignBytes) / 512}
}

// Command returns the shell commands that make the partition on dev (erasing its table) and
// a FAT32 filesystem in it.
func (p *PartitionFix) Command(dev string) string {
	part := dev + "1"
	if n := len(dev); n > 0 && dev[n-1] >= '0' && dev[n-1] <= '9' {
		part = dev + "p1" // mmcblk0p1, loop0p1, nvme0n1p1
	}
	return fmt.Sprintf("printf 'label: dos\\nstart=%d, size=%d, type=c\\n' | sudo sfdisk %s && sudo mkfs.vfat -F 32 %s",
		p.StartSector, p.Sectors, dev, part)
}
