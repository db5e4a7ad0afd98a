package engine

import (
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/stats"
)

// Result is what a job measured. Its JSON form is the `iomark job --json` output, documented
// in docs/job-json.md; keep the two in step.
type Result struct {
	Target     string  `json:"target"`
	TargetKind string  `json:"target_kind"` // "file", "dir" or "block"
	Pattern    Pattern `json:"rw"`
	RWMixRead  int     `json:"rwmix_read,omitempty"`
	BlockSize  int     `json:"bs"`
	QD         int     `json:"qd"`
	Jobs       int     `json:"jobs"`
	Engine     Engine  `json:"engine"`
	// EngineNote says why auto chose what it chose, or what was given up (e.g. registered
	// buffers refused by RLIMIT_MEMLOCK).
	EngineNote      string  `json:"engine_note,omitempty"`
	Direct          bool    `json:"direct"`
	WorkingSetBytes int64   `json:"working_set_bytes"`
	RampS           float64 `json:"ramp_s"`

	// Totals over the measured window (after the ramp), reads and writes together.
	IOPS      float64 `json:"iops"`
	MBPerS    float64 `json:"mb_per_s"`  // 10^6 bytes/s
	MiBPerS   float64 `json:"mib_per_s"` // 2^20 bytes/s
	Bytes     int64   `json:"bytes"`
	IOs       int64   `json:"ios"`
	DurationS float64 `json:"duration_s"`

	LatUS stats.LatencySummaryUS `json:"lat_us"` // completion latency of every I/O

	Read  *Direction `json:"read,omitempty"`  // present when the pattern reads
	Write *Direction `json:"write,omitempty"` // present when the pattern writes

	Fsync *FsyncStats `json:"fsync,omitempty"` // present when fsyncs were issued

	CPU    CPU     `json:"cpu"`
	Series []Point `json:"series"`
	// SeriesIntervalS is the nominal spacing of Series points.
	SeriesIntervalS float64 `json:"series_interval_s"`

	// BytesWritten counts every byte this job wrote to the drive, layout and ramp included.
	BytesWritten int64 `json:"bytes_written"`
	// LayoutBytes is what was written to lay out the test file before the job (0 if none).
	LayoutBytes int64 `json:"layout_bytes"`
	// Interrupted is set when the job was stopped early (a signal); the figures cover what
	// ran until then.
	Interrupted bool `json:"interrupted"`
	// FileSizeLimitBytes is where the filesystem refused to grow a file (EFBIG: its
	// largest file) in a write split across files (Spec.NextFile); Files is how many files
	// it wrote; NextFileErr says why it could not go on into another, when it could not.
	FileSizeLimitBytes int64  `json:"file_size_limit_bytes,omitempty"`
	Files              int    `json:"files,omitempty"`
	NextFileErr        string `json:"next_file_error,omitempty"`
}

// Direction is one direction's share of a job.
type Direction struct {
	IOPS    float64                `json:"iops"`
	MBPerS  float64                `json:"mb_per_s"`
	MiBPerS float64                `json:"mib_per_s"`
	Bytes   int64                  `json:"bytes"`
	IOs     int64                  `json:"ios"`
	LatUS   stats.LatencySummaryUS `json:"lat_us"`
}

// FsyncStats counts the fsyncs a job issued and the time they took.
type FsyncStats struct {
	Count  int64                  `json:"count"`
	LatUS  stats.LatencySummaryUS `json:"lat_us"`
	TotalS float64                `json:"total_s"`
}

// CPU is the CPU time the whole iomark process used during the measured window: every
// thread, the sampler and the Go runtime included (a stricter count than fio's per-job one).
type CPU struct {
	UsrS    float64 `json:"usr_s"`
	SysS    float64 `json:"sys_s"`
	USPerIO float64 `json:"us_per_io"` // (usr+sys) / ios, in microseconds
}

// Point is the record's: a test's series is the engine's, as measured.
type Point = record.Point
