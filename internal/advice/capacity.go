package advice

import (
	"fmt"
	"slices"
	"time"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/units"
)

// Verified is the latest `iomark verify` of the drive a report is about, as the results
// database keeps it (the CLI loads it by the drive's unit key).
type Verified struct {
	ID     string
	At     time.Time
	Result *flash.Result
}

// VerifyFindings turns the latest verify of this very drive into findings: fake-capacity
// for a drive that stores less than it claims, flash-damaged for one that loses data inside
// its capacity. None for a genuine drive or none verified. device names the disk in the fix.
func VerifyFindings(v *Verified, device string) []record.Finding {
	if v == nil || v.Result == nil {
		return nil
	}
	r := v.Result
	when := v.At.Local().Format("2006-01-02")
	evidence := fmt.Sprintf("iomark verify %s on %s (%s mode): verdict %s, usable %d of %d bytes", v.ID, when, r.Mode, r.Verdict, r.UsableBytes, r.ClaimedBytes)
	if r.FirstBadByte != nil {
		evidence += fmt.Sprintf(", first bad byte %d", *r.FirstBadByte)
	}
	if r.FailureDetail != "" {
		evidence += "; " + r.FailureDetail
	}
	var out []record.Finding
	if len(r.SlowZones) > 0 {
		z := r.SlowZones[0]
		out = append(out, record.Finding{
			ID:       "flash-slow-zone",
			Severity: record.SeverityWarn,
			Message: fmt.Sprintf("a full verify found %d stretch(es) of this drive reading at under half its median rate (the first: %s at %s, %.1f MB/s against %.1f MB/s): worn or remapped flash, not lost data",
				len(r.SlowZones), siBytes(z.EndByte-z.StartByte), siBytes(z.StartByte), z.ReadMBPerS, z.MedianMBPerS),
			Fix:      "nothing is lost; keep a backup, and run iomark verify DISK --full again later: a zone that grows or turns unreadable means the drive is failing",
			Evidence: evidence,
		})
	}
	return append(out, verdictFindings(r, evidence, device)...)
}

func verdictFindings(r *flash.Result, evidence, device string) []record.Finding {
	switch r.Verdict {
	case flash.Fake:
		fix := "copy off what matters, then use only the real capacity: one partition inside it"
		if r.PartitionFix != nil && device != "" {
			fix += " (erases the drive): " + r.PartitionFix.Command(device)
		}
		fix += "; or return it to the seller"
		return one(record.Finding{
			ID:       "fake-capacity",
			Severity: record.SeverityBad,
			Message: fmt.Sprintf("a verify found this drive fake: it claims %s but holds %s; data written past that is lost (%s)",
				siBytes(r.ClaimedBytes), siBytes(r.UsableBytes), r.Failure),
			Fix:      fix,
			Evidence: evidence,
		})
	case flash.Damaged:
		return one(record.Finding{
			ID:       "flash-damaged",
			Severity: record.SeverityBad,
			Message:  fmt.Sprintf("a verify found regions of this drive that lose or refuse data (%s): it is failing", r.Failure),
			Fix:      "copy off what matters and replace the drive",
			Evidence: evidence,
		})
	}
	return nil
}

// siBytes prints a capacity in SI units, as drives are labelled.
func siBytes(b int64) string { return units.SI(b) }

// Sorted orders findings worst first, keeping the order within a severity (as Evaluate
// does), for callers that add findings from other rules.
func Sorted(fs []record.Finding) []record.Finding {
	slices.SortStableFunc(fs, func(a, b record.Finding) int { return a.Severity.Rank() - b.Severity.Rank() })
	return fs
}
