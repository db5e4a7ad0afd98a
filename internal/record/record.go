package record

import "time"

// SchemaVersion is bumped on any change a reader of older records must know about. Version 2
// made each warning an object with a code ({code, message}); version 1's bare sentences still
// decode (Warning.UnmarshalJSON).
const SchemaVersion = 2

// Run is one run of a profile on one target: what was measured, on what, and why.
type Run struct {
	SchemaVersion int       `json:"schema_version"`
	ID            string    `json:"id"` // UUIDv7: unique, and sorts by creation time
	CreatedAt     time.Time `json:"created_at"`
	ToolVersion   string    `json:"tool_version"`
	ToolCommit    string    `json:"tool_commit,omitempty"`
	Profile       string    `json:"profile"`
	// SettingsFingerprint hashes what changes results besides the drive (governor, SD command
	// queueing, PCIe gen, mount options, scheduler), so like is compared with like.
	SettingsFingerprint string  `json:"settings_fingerprint,omitempty"`
	DurationS           float64 `json:"duration_s"`
	BytesWritten        int64   `json:"bytes_written"`
	Interrupted         bool    `json:"interrupted,omitempty"`
	// PriceUSD is what the user said the drive cost (--price), for price per performance.
	PriceUSD *float64 `json:"price_usd,omitempty"`

	Target Target `json:"target"`
	// As in `iomark info --json`; host is info's board.
	Host          *Board     `json:"host,omitempty"`
	Device        *Device    `json:"device,omitempty"`
	Link          []Hop      `json:"link,omitempty"`
	USB           *USB       `json:"usb,omitempty"`
	SD            *SD        `json:"sd,omitempty"`
	NVMe          *NVMe      `json:"nvme,omitempty"`
	SATA          *SATA      `json:"sata,omitempty"`
	Mount         *Mount     `json:"mount,omitempty"`
	Partition     *Partition `json:"partition,omitempty"`
	Queue         *Queue     `json:"queue,omitempty"`
	CeilingMBPerS float64    `json:"ceiling_mb_per_s,omitempty"`
	Ceiling       *Ceiling   `json:"ceiling,omitempty"`
	// Health is what the drive reported about its wear and errors before the run
	// (docs/health.md); source "none" with a note when it reports nothing.
	Health *Health `json:"health,omitempty"`
	// Power says where the power figures of the tests and samples come from; absent when
	// the machine reports no power and none was typed in (docs/power.md).
	Power *Power `json:"power,omitempty"`
	// DriveTemp says where the samples' drive_temp_c comes from; absent when no drive
	// temperature was read (docs/result-record.md).
	DriveTemp *DriveTemp `json:"drive_temp,omitempty"`

	Tests    []Test         `json:"tests"`
	Scores   Scores         `json:"scores"`
	Findings []Finding      `json:"findings"`
	Sensors  []SensorSample `json:"sensors,omitempty"`
	Warnings []Warning      `json:"warnings,omitempty"`
}

// Target is what the user pointed iomark at.
type Target struct {
	Path string `json:"path"`
	Kind string `json:"kind"` // dir, file or block
}

// Test is one figure of a profile, e.g. rand-read-4k-qd32. Names are stable across versions
// and listed in docs/methodology.md.
type Test struct {
	Name   string `json:"name"`
	Op     string `json:"op"` // read, write, randread, randwrite, randrw, or a peer-style op (e.g. dd-write)
	BS     int    `json:"bs"` // bytes
	QD     int    `json:"qd"`
	Jobs   int    `json:"jobs"`
	Engine string `json:"engine,omitempty"`
	Direct bool   `json:"direct"`

	// The reported figure is the median of Runs repetitions.
	IOPS    float64 `json:"iops"`
	MBPerS  float64 `json:"mb_per_s"` // 10^6 bytes/s
	MiBPerS float64 `json:"mib_per_s"`
	// Primary names the figure the test is about: "iops" or "mb_per_s".
	Primary string  `json:"primary"`
	LatUS   Latency `json:"lat_us"`
	// CI95Pct is the half-width of the 95% confidence interval of the median, in percent
	// of it; 0 with a single run.
	CI95Pct   float64   `json:"ci95_pct"`
	Runs      int       `json:"runs"`
	RunValues []float64 `json:"run_values,omitempty"` // the primary figure of each repetition
	Noisy     bool      `json:"noisy,omitempty"`
	// DurationS and Bytes are the measured time and bytes of the median repetition.
	DurationS float64 `json:"duration_s"`
	Bytes     int64   `json:"bytes"`
	// WorkingSetBytes is the region the median repetition's I/O was spread over (the test
	// file, or the first bytes of a file or device), and RampS the discarded head of that
	// repetition, as `iomark job --json` reports them: with the shape above they are the fio
	// job that measures the same thing (profile.FioFor). Absent in records made before.
	WorkingSetBytes int64   `json:"working_set_bytes,omitempty"`
	RampS           float64 `json:"ramp_s,omitempty"`
	// WarmUpS is the discarded I/O before the first counted repetition: the warm-up run, and
	// any repetitions still inside a burst (Burst), in s. With RampS it is fio's ramp_time.
	// Absent in records made before, and for tests without a warm-up.
	WarmUpS float64 `json:"warm_up_s,omitempty"`
	// Burst is a head of the test faster than its figure (a drive's cache), kept as found,
	// not averaged in: the figure is the rate after it. Absent when there was none.
	Burst      *Burst   `json:"burst,omitempty"`
	CeilingPct *float64 `json:"ceiling_pct,omitempty"` // MB/s as a share of the link ceiling
	// CPUPct is the CPU time iomark used during the median repetition per second of it
	// (100 = one core busy all along).
	CPUPct float64 `json:"cpu_pct,omitempty"`
	// Series is the per-interval throughput of the median repetition.
	Series []Point `json:"series,omitempty"`
	// Sustained holds the cliff analysis of the sustained profile.
	Sustained *Sustained `json:"sustained,omitempty"`
	// PowerW is the mean power drawn during the test (the samples taken while it ran, or
	// the meter's reading), and EnergyJPerGB that power per 10^9 bytes a second moved: the
	// energy one GB cost at the test's rate. Absent without a power source.
	PowerW       *float64 `json:"power_w,omitempty"`
	EnergyJPerGB *float64 `json:"energy_j_per_gb,omitempty"`
	// Network holds what a network copy measured besides the drive (profile network-copy).
	Network *Network `json:"network,omitempty"`
}

// Burst is how long a test's head ran faster than its figure, and how much faster.
type Burst struct {
	S float64 `json:"s"` // seconds from the test's first I/O (its warm-up)
	X float64 `json:"x"` // its mean rate over the figure's, e.g. 2.0
}

// Power describes the power figures of a run.
type Power struct {
	// Source: "hwmon" (a power monitor the kernel exposes), "pi5-pmic" (the Raspberry Pi 5
	// PMIC's ADC read through the firmware) or "meter" (--power-watts, typed from a meter).
	Source string `json:"source"`
	// Sensor names what was read: the hwmon device and channel, the PMIC rails.
	Sensor string `json:"sensor,omitempty"`
	// Scope says what the figure covers, e.g. the Pi 5 PMIC's rails leave out the 5 V that
	// USB ports and HATs draw.
	Scope string `json:"scope"`
	// MeterWatts is the --power-watts reading, used as the power of every test.
	MeterWatts *float64 `json:"meter_watts,omitempty"`
}

// DriveTemp is the source of a run's drive temperatures, sampled over the run.
type DriveTemp struct {
	// Source: "hwmon" (the kernel's sensor: NVMe, drivetemp for SATA), "nvme-smart-log" or
	// "ata-smart" (the drive asked again during the run: SMART or SCT status), "typed" (read
	// off a thermometer or thermal camera and typed during the run, --drive-temp-c -) or
	// "file" (lines a logger appended to a file during the run, --drive-temp-c FILE).
	Source string `json:"source"`
	// Sensor names what was read: the device asked, or the file.
	Sensor string `json:"sensor,omitempty"`
	// EveryS is the least time between two readings of a source iomark polls; absent for
	// readings that come when the user or logger gives them.
	EveryS float64 `json:"every_s,omitempty"`
}

// Network is the network side of a network copy: what arrived, how fast, and which side
// held the copy back.
type Network struct {
	Peer          string  `json:"peer,omitempty"` // the sender's address, without its port
	ReceivedBytes int64   `json:"received_bytes"`
	MBPerS        float64 `json:"mb_per_s"` // bytes received per second of the copy, 10^6 B/s
	// DriveMBPerS is the rate of the writes alone: bytes written per second spent writing.
	DriveMBPerS float64 `json:"drive_mb_per_s"`
	// Limit: "drive" when the network outran the drive (the receive buffer was full most of
	// the time), "network" when the drive waited for data, "balanced" otherwise.
	Limit string `json:"limit"`
	// DriveWaitPct and NetworkWaitPct are the shares of the copy's time the writer waited for
	// data and the receiver waited for buffer room.
	DriveWaitPct   float64 `json:"drive_wait_pct"`
	NetworkWaitPct float64 `json:"network_wait_pct"`
	// LocalSustainedMBPerS is the after-cliff (or steady) rate of the drive's latest local
	// sustained run on record, for comparison; absent when there is none.
	LocalSustainedMBPerS *float64 `json:"local_sustained_mb_per_s,omitempty"`
	LocalRunID           string   `json:"local_run_id,omitempty"`
	// Series is the per-second network rate, beside the test's drive-rate series.
	Series []Point `json:"series,omitempty"`
	// Ended says how the copy ended: "complete", "sender-closed" (the sender stopped
	// early), "drive-full", "interrupted" or "error".
	Ended string `json:"ended"`
}

// Latency is the completion latency summary in microseconds.
type Latency struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90,omitempty"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999,omitempty"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean,omitempty"`
}

// Sustained describes a long write: where its rate fell (an SLC cache filling, or heat) and
// what it settled at.
type Sustained struct {
	CliffFound     bool    `json:"cliff_found"`
	CliffAtBytes   int64   `json:"cliff_at_bytes,omitempty"`
	CliffAtS       float64 `json:"cliff_at_s,omitempty"`
	BeforeMBPerS   float64 `json:"before_mb_per_s,omitempty"`
	AfterMBPerS    float64 `json:"after_mb_per_s,omitempty"`
	DropPct        float64 `json:"drop_pct,omitempty"`
	SteadyState    bool    `json:"steady_state"`
	SteadyMBPerS   float64 `json:"steady_mb_per_s,omitempty"`
	ThermalSuspect bool    `json:"thermal_suspect,omitempty"` // the drop came with rising drive temperature
	WrittenBytes   int64   `json:"written_bytes"`
	// AverageMBPerS is the whole write's average (bytes over time, the cache included); the
	// test's own MB/s is the rate a long copy keeps (SteadyMBPerS, else AfterMBPerS, else this).
	AverageMBPerS float64 `json:"average_mb_per_s,omitempty"`
	// StopReason says what ended the write: "settled" (the rate after the cliff settled),
	// "size" (it reached its byte bound), "free-space" (the filesystem's free space less the
	// margin), "byte-budget" (the profile's write budget), "time", "time-budget" (the profile's
	// time left), "file-size-limit" (the filesystem's largest file, when no further file could
	// be made) or "interrupted". Absent in records made before iomark said.
	StopReason string `json:"stop_reason,omitempty"`
	// FileSizeLimitBytes is the filesystem's largest file when the write met it (EFBIG:
	// FAT32's 4 GiB) and went on in further files, as a copy of a large file must; Files is
	// how many it wrote. Absent when the write fitted in one file.
	FileSizeLimitBytes int64 `json:"file_size_limit_bytes,omitempty"`
	Files              int   `json:"files,omitempty"`
}

// Scores are single-number summaries. Absent means not computed for this profile.
type Scores struct {
	Iomark       *float64 `json:"iomark,omitempty"`
	Pibenchmarks *int     `json:"pibenchmarks,omitempty"` // the pibenchmarks profile, as Storage.sh computes it
}

// SensorSample is one reading taken during the run.
type SensorSample struct {
	TS         float64  `json:"t_s"` // seconds since the run began
	Test       string   `json:"test,omitempty"`
	SoCTempC   *float64 `json:"soc_temp_c,omitempty"`
	DriveTempC *float64 `json:"drive_temp_c,omitempty"`
	Throttled  string   `json:"throttled,omitempty"` // firmware get_throttled word, hex
	PowerW     *float64 `json:"power_w,omitempty"`   // from the run's power source (Run.Power)
}
