package profile

import (
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
// 8 GiB exceeds the SLC cache of most USB flash drives and SD cards (their caches are a few
// GiB at most), 10 minutes bounds a slow card (20 MB/s writes 12 GB in that time anyway).
const (
	sustainedMaxBytes = 8 * GiB
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
		Name: "sustained", Title: "write until 8 GiB, 10 min or a settled rate: cache and thermal cliffs",
		Source:          "iomark (issue 4); steady state per SNIA PTS 2.0.2",
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
