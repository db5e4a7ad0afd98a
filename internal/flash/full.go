package flash

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/units"
)

// FullOptions configures Full.
type FullOptions struct {
	// Probe runs first (unless ReadOnly): a read scan alone cannot tell a fake, whose
	// addresses past its real size may read back anything without an error.
	Probe ProbeOptions
	// ReadOnly skips the probe and writes nothing: the verdict is then readable or damaged,
	// never genuine or fake.
	ReadOnly bool
	Scan     ScanOptions
}

// Full verifies a whole disk block by block: the sampled probe (capacity), then a scan of
// every block (Scan), in one result of mode full. A fake is scanned up to its usable size
// only (past it, reads say nothing about the flash). Like Probe it returns what it knows
// when it stops early, with the error.
func Full(ctx context.Context, dev Device, o FullOptions) (*Result, error) {
	start := time.Now()
	var res *Result
	if o.ReadOnly {
		block := max(int64(probeBlockBytes), int64(max(o.Scan.LogicalBlockBytes, SectorBytes)))
		res = &Result{Verdict: Unknown, ClaimedBytes: o.Scan.SizeBytes, UsableBytes: o.Scan.SizeBytes, GranularityBytes: block}
	} else {
		pr, err := Probe(ctx, dev, o.Probe)
		if pr == nil {
			return nil, err
		}
		res = pr
		if err != nil {
			res.Mode = ModeFull
			res.Notes = append(res.Notes, "the surface was not scanned: the probe stopped first")
			return res, err
		}
	}
	res.Mode = ModeFull
	probeVerdict := res.Verdict
	probeRegions := res.BadRegions
	so := o.Scan
	if so.DiskBytes == 0 {
		so.DiskBytes = so.SizeBytes
	}
	if probeVerdict == Fake {
		so.SizeBytes = res.UsableBytes
		res.Notes = append(res.Notes, fmt.Sprintf("the surface was scanned up to the usable %s only: past it the drive does not hold what is written", units.SI(res.UsableBytes)))
	}
	if so.SizeBytes <= 0 {
		res.Notes = append(res.Notes, "nothing usable to scan")
		return res, nil
	}
	sr, err := Scan(ctx, dev, so)
	if sr == nil {
		return res, err
	}
	res.Surface = &sr.Surface
	res.SlowZones = sr.SlowZones
	res.BytesRead += sr.BytesRead
	res.BytesWritten += sr.BytesWritten
	res.Destructive = res.Destructive || so.Mode == ScanDestructive
	if sr.RecoveryFile != "" {
		if res.Restore == nil {
			res.Restore = &Restore{}
		}
		res.Restore.RecoveryFile = sr.RecoveryFile
		res.Restore.Verified = false
	}
	judgeFull(res, probeVerdict, probeRegions, sr, o.ReadOnly)
	res.VerdictS += sr.Surface.DurationS
	res.DurationS = time.Since(start).Seconds()
	switch {
	case errors.Is(err, ErrDeviceGone):
		res.Verdict = Unknown
		res.Notes = append(res.Notes, "the device stopped answering during the scan: no verdict; the map so far is kept")
	case errors.Is(err, ErrInterrupted):
		res.Interrupted = true
	}
	return res, err
}

// judgeFull sets the verdict of a full verify from the probe's and the scan's findings.
func judgeFull(res *Result, probeVerdict Verdict, probeRegions []Region, sr *ScanResult, readOnly bool) {
	sf := &sr.Surface
	complete := sf.Stopped == ""
	switch {
	case probeVerdict == Fake:
		res.BadRegions = append(res.BadRegions, sr.BadRegions...)
	case len(sr.BadRegions) > 0:
		res.Verdict = Damaged
		res.UsableBytes = res.ClaimedBytes
		res.BadRegions = sr.BadRegions
		if probeVerdict == Damaged {
			// The probe's regions are samples; the scan's are read. Keep a probe's region the
			// scan did not reach, or one a read cannot see (data written and read back wrong).
			for _, r := range probeRegions {
				if r.Kind != FailureIOError || !complete {
					res.BadRegions = append(res.BadRegions, r)
				}
			}
		}
		first := res.BadRegions[0].StartByte
		for _, r := range res.BadRegions {
			first = min(first, r.StartByte)
		}
		res.FirstBadByte = &first
		res.Failure = res.BadRegions[0].Kind
		res.FailureDetail = failureWords(res.Failure)
		res.PartitionFix = nil
	case !complete:
		res.Verdict = Unknown
	case readOnly:
		res.Verdict = Readable
	}
}

// failureWords says how a full scan's first bad region fails.
func failureWords(kind string) string {
	switch kind {
	case FailureIOError:
		return "reads fail with I/O errors"
	case FailureCorrupt:
		return "data written comes back with bits changed"
	case FailureDropped:
		return "data written is lost: other data reads back"
	case FailureWrap:
		return "data written lands at another address"
	}
	return ""
}
