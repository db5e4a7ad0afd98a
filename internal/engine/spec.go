package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Pattern is the access pattern of a job, named as fio names it.
type Pattern string

const (
	Read      Pattern = "read"      // sequential reads
	Write     Pattern = "write"     // sequential writes
	RandRead  Pattern = "randread"  // uniform random reads
	RandWrite Pattern = "randwrite" // uniform random writes
	RandRW    Pattern = "randrw"    // uniform random, reads and writes mixed by RWMixRead
)

// Patterns lists every pattern, for help texts and validation.
var Patterns = []Pattern{Read, Write, RandRead, RandWrite, RandRW}

// Random reports whether offsets are drawn at random.
func (p Pattern) Random() bool { return p == RandRead || p == RandWrite || p == RandRW }

// Writes reports whether the pattern writes at all.
func (p Pattern) Writes() bool { return p == Write || p == RandWrite || p == RandRW }

// Reads reports whether the pattern reads at all.
func (p Pattern) Reads() bool { return p == Read || p == RandRead || p == RandRW }

// Engine names a back end.
type Engine string

const (
	EnginePsync   Engine = "psync"
	EngineIOUring Engine = "io_uring"
	EngineAuto    Engine = "auto" // io_uring where it works, else psync
)

// Limits of a job's shape, checked by Validate.
const (
	MinBlockSize = 512
	MaxBlockSize = 16 << 20
	MaxQD        = 1024
	MaxJobs      = 256
)

// DefaultWorkingSetBytes is the size of a new test file when no size is given: large enough to
// defeat small drive caches, small enough to lay out on a slow card in about a minute.
const DefaultWorkingSetBytes = 1 << 30

// DefaultRuntime bounds a job given neither a runtime nor a size.
const DefaultRuntime = 10 * time.Second

// Spec describes one job. The zero value is not valid; see Validate.
type Spec struct {
	Target    string  // file, directory or block device
	Pattern   Pattern // access pattern
	RWMixRead int     // percent of reads for RandRW (0-100)
	BlockSize int     // bytes per I/O
	QD        int     // queue depth of each job
	Jobs      int     // independent jobs, each with its own queue
	Engine    Engine  // psync, io_uring or auto

	// WorkingSetBytes is the region I/O is spread over: the test file's size, or the first
	// bytes of a device. 0 means the default: an existing file's or device's size, else
	// DefaultWorkingSetBytes.
	WorkingSetBytes int64
	// IOBudgetBytes stops the job once that many bytes were transferred after the ramp
	// (0: no byte bound). Runtime stops it after that long (0: no time bound). At least one
	// bound must be set; when both are, the first reached ends the job.
	IOBudgetBytes int64
	Runtime       time.Duration
	Ramp          time.Duration // run this long first and discard it
	// RampBytes also bounds the ramp (0: time alone): it ends once that many bytes were
	// issued, when that comes before Ramp is up, so a job bounded by bytes writes at most
	// RampBytes+IOBudgetBytes however fast the drive is or however late a timer fires.
	RampBytes int64

	Direct     bool // O_DIRECT (default on in the CLI)
	FsyncEvery int  // fsync after every N writes of a job (0: never)
	EndFsync   bool // fsync once after the last write, timed as part of the job

	// Destructive allows writes to a block device; Confirm must name the same device again.
	Destructive bool
	Confirm     string

	// SeriesInterval is the spacing of throughput samples (0: chosen from the runtime).
	SeriesInterval time.Duration
	// Progress, if set, is called from the sampling goroutine once per interval.
	Progress func(Progress)
	// Log, if set, receives one-line notes for people (layout progress, engine fallback).
	Log func(format string, args ...any)
	// Seed makes offsets and data reproducible when non-zero.
	Seed uint64
	// NextFile, when set, makes a sequential write to a file a copy split into parts: the
	// file grows as the job writes it (nothing is laid out first), and when the filesystem
	// refuses a write as past its largest file (EFBIG: FAT32's 4 GiB), the job goes on from
	// the start of the file NextFile returns (created by the caller, who also removes it).
	// An error from NextFile ends the job there, its figures kept (Result.FileSizeLimitBytes
	// set, Result.NextFileErr saying why). psync, one job at queue depth 1 only.
	NextFile func() (string, error)
}

// Progress is one sample of a running job, for live displays.
type Progress struct {
	Phase     string        // "layout", "ramp" or "measure"
	Elapsed   time.Duration // since the phase began
	Remaining time.Duration // of the phase, when known (0 otherwise)
	IOPS      float64       // over the last interval
	MBPerS    float64       // over the last interval, 10^6 bytes/s
	DoneBytes int64         // of the phase
	// TotalBytes is the phase's byte bound when it has one (layout, a size-bound job).
	TotalBytes int64
}

// Validate checks a spec and fills defaults. It returns an error a user can act on.
func (s *Spec) Validate() error {
	if s.Target == "" {
		return fmt.Errorf("no target: give a file, a directory or a block device")
	}
	switch s.Pattern {
	case Read, Write, RandRead, RandWrite:
	case RandRW:
		if s.RWMixRead < 0 || s.RWMixRead > 100 {
			return fmt.Errorf("read share %d%% is out of range: use 0 to 100", s.RWMixRead)
		}
	default:
		return fmt.Errorf("unknown pattern %q: use one of %s", s.Pattern, joinPatterns())
	}
	if s.BlockSize < MinBlockSize || s.BlockSize > MaxBlockSize {
		return fmt.Errorf("block size %s is out of range: use 512 to 16m", FormatSize(int64(s.BlockSize)))
	}
	if s.BlockSize%MinBlockSize != 0 {
		return fmt.Errorf("block size %d is not a multiple of 512 bytes", s.BlockSize)
	}
	if s.QD < 1 || s.QD > MaxQD {
		return fmt.Errorf("queue depth %d is out of range: use 1 to %d", s.QD, MaxQD)
	}
	if s.Jobs < 1 || s.Jobs > MaxJobs {
		return fmt.Errorf("jobs %d is out of range: use 1 to %d", s.Jobs, MaxJobs)
	}
	switch s.Engine {
	case EnginePsync, EngineIOUring, EngineAuto:
	case "":
		s.Engine = EngineAuto
	default:
		return fmt.Errorf("unknown engine %q: use psync, io_uring or auto", s.Engine)
	}
	if s.WorkingSetBytes < 0 || s.IOBudgetBytes < 0 || s.Runtime < 0 || s.Ramp < 0 || s.RampBytes < 0 {
		return fmt.Errorf("sizes and durations cannot be negative")
	}
	if s.WorkingSetBytes > 0 && s.WorkingSetBytes < int64(s.BlockSize) {
		return fmt.Errorf("size %s is smaller than one block (%s)", FormatSize(s.WorkingSetBytes), FormatSize(int64(s.BlockSize)))
	}
	if s.IOBudgetBytes == 0 && s.Runtime == 0 {
		s.Runtime = DefaultRuntime
	}
	if s.FsyncEvery < 0 {
		return fmt.Errorf("fsync interval %d cannot be negative", s.FsyncEvery)
	}
	if s.NextFile != nil && (s.Pattern != Write || s.QD != 1 || s.Jobs != 1 || s.Engine != EnginePsync) {
		return fmt.Errorf("a write split across files at a file-size limit is a sequential write of one job at queue depth 1 on psync")
	}
	if s.SeriesInterval == 0 {
		s.SeriesInterval = seriesIntervalFor(s.Runtime)
	}
	return nil
}

// seriesIntervalFor spaces samples so a run has about 100 of them, between 100 ms and 1 s.
func seriesIntervalFor(runtime time.Duration) time.Duration {
	if runtime <= 0 {
		return 500 * time.Millisecond
	}
	iv := runtime / 100
	iv = max(iv, 100*time.Millisecond)
	iv = min(iv, time.Second)
	return iv.Round(100 * time.Millisecond)
}

func joinPatterns() string {
	names := make([]string, len(Patterns))
	for i, p := range Patterns {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// ParseSize reads a byte count with an optional binary suffix: 512, 4k, 128K, 1m, 2G, 1t
// (k = 1024, as fio's bs and size options read them). A trailing "b"/"ib" is accepted.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	t = strings.TrimSuffix(t, "ib")
	t = strings.TrimSuffix(t, "b")
	if t == "" {
		return 0, fmt.Errorf("size %q: empty", s)
	}
	mult := int64(1)
	switch t[len(t)-1] {
	case 'k':
		mult = 1 << 10
	case 'm':
		mult = 1 << 20
	case 'g':
		mult = 1 << 30
	case 't':
		mult = 1 << 40
	}
	if mult != 1 {
		t = t[:len(t)-1]
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q: want a whole number with an optional k, m, g or t suffix (e.g. 4k, 1g)", s)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mult, nil
}

// FormatSize prints a byte count with the largest binary suffix that divides it exactly
// (4k, 1m), or in bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{40, "t"}, {30, "g"}, {20, "m"}, {10, "k"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
