package profile

import (
	"fmt"
	"slices"
	"time"

	"github.com/iomark/iomark/internal/engine"
)

// SustainedSpec shapes a sustained write: one long sequential write sampled every second,
// ended by a size, a time, or a settled rate after a cliff.
type SustainedSpec struct {
	MaxBytes    int64         // stop after writing this much (also capped by free space)
	MaxDuration time.Duration // stop after this long
	// SteadyAfterCliff stops the write once a cliff was found and the rate after it has
	// been steady (SNIA PTS rule, stats.SteadyState) for this long: the after-cliff rate is
	// then known, and more writing only wears the drive.
	SteadyAfterCliff time.Duration
	// FreeMarginBytes is left free on the filesystem whatever MaxBytes says.
	FreeMarginBytes int64
}

// The sustained profile: "the 10 GB copy that made the flash drive overheat" as a number.
// 10 GiB holds that copy and exceeds the SLC cache of most USB flash drives, SD cards and
// small SSDs; 10 minutes bounds a slow card (20 MB/s writes 12 GB in that time anyway).
// --size and --time change both (SetSustainedBounds); free space less the margin always
// bounds the write.
const (
	sustainedMaxBytes = 10 * GiB
	sustainedMaxTime  = 10 * time.Minute
	sustainedSteady   = 30 * time.Second
	sustainedMargin   = 512 * MiB
	// SustainedWrite is the test name of the sustained profile.
	SustainedWrite = "sustained-write-1m"
)

// Sustained is the long-write profile: throughput every second with drive and SoC
// temperatures, the SLC-cache or thermal cliff (where and how deep) and the rate after it.
func Sustained() *Profile {
	return &Profile{
		Name: "sustained", Title: "write until 10 GiB, 10 min or a settled rate: cache and thermal cliffs",
		Source:          "iomark; steady state per SNIA PTS 2.0.2",
		FileBytes:       MiB, // grown sparse to the write size: the write allocates as a copy does
		MaxBytesWritten: sustainedMaxBytes, Peer: peerLargeCopy,
		Tests: []Test{{Name: SustainedWrite, Label: "sustained sequential write 1M",
			Peer:    "a large file copy (cp, dd bs=1M oflag=direct)",
			Pattern: engine.Write, BlockSize: MiB, QD: 1, Jobs: 1, Engine: engine.EnginePsync, EndFsync: true,
			Primary: PrimaryMBPerS, RunTime: sustainedMaxTime, Budget: sustainedMaxTime, MinRuns: 1, MaxRuns: 1,
			Sustained: &SustainedSpec{MaxBytes: sustainedMaxBytes, MaxDuration: sustainedMaxTime,
				SteadyAfterCliff: sustainedSteady, FreeMarginBytes: sustainedMargin}}},
	}
}

// Bounds a sustained write may be given (--size, --time): enough to say anything, and at
// most what a day or a large drive allows.
const (
	MinSustainedBytes = 64 * MiB
	maxSustainedBytes = 64 << 40
	minSustainedTime  = 10 * time.Second
	maxSustainedTime  = 24 * time.Hour
)

// SetSustainedBounds sets the byte and time bounds of p's sustained write (--size, --time;
// 0 keeps the default); the profile's byte budget follows the size. It errors on a profile
// without a sustained write, or on bounds outside what a run can use.
func (p *Profile) SetSustainedBounds(sizeBytes int64, d time.Duration) error {
	if sizeBytes == 0 && d == 0 {
		return nil
	}
	idx := -1
	for i, t := range p.Tests {
		if t.Sustained != nil {
			idx = i
		}
	}
	if idx < 0 {
		return fmt.Errorf("the %s profile has no sustained write to bound", p.Name)
	}
	if sizeBytes != 0 && (sizeBytes < MinSustainedBytes || sizeBytes > maxSustainedBytes) {
		return fmt.Errorf("size %s is out of range: give 64M to 64T (e.g. 20G)", engine.FormatSize(sizeBytes))
	}
	if d != 0 && (d < minSustainedTime || d > maxSustainedTime) {
		return fmt.Errorf("time %s is out of range: give 10s to 24h (e.g. 30m)", d)
	}
	tests := slices.Clone(p.Tests)
	t := tests[idx]
	spec := *t.Sustained
	if sizeBytes != 0 {
		spec.MaxBytes = sizeBytes
		p.MaxBytesWritten = p.MaxBytesWritten - t.Sustained.MaxBytes + sizeBytes
	}
	if d != 0 {
		spec.MaxDuration, t.RunTime, t.Budget = d, d, d
	}
	t.Sustained = &spec
	tests[idx] = t
	p.Tests = tests
	return nil
}
