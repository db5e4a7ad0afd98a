package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/flash"
)

// Verify prints what `iomark verify` found, for people: the verdict with sizes, how the drive
// fails, where, the partition that keeps data inside a fake's real size, the fill's counts
// and rates, what was written and read, and whether everything overwritten was put back.
// savedID is the result's id in the database ("" when not saved).
func Verify(w io.Writer, res *flash.Result, target, savedID string) error {
	if res == nil {
		return errors.New("report: no verify result")
	}
	var p printf = func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	verifyVerdict(p, res, target)
	verifyBadRegions(p, res)
	verifySurface(p, res, target)
	if fx := res.PartitionFix; fx != nil && (res.Mode == flash.ModeProbe || res.Mode == flash.ModeFull) {
		p("  to use it safely, make one partition inside the real size (this erases the drive):")
		p("    %s", fx.Command(target))
	}
	verifyFill(p, res)
	verifyTotals(p, res)
	for _, n := range res.Notes {
		p("note: %s", n)
	}
	if savedID != "" {
		p("saved as verify %s", savedID)
	}
	return nil
}

// printf prints one line of a report.
type printf func(format string, a ...any)

// verifyVerdict is the first line: the verdict with the sizes it rests on.
func verifyVerdict(p printf, res *flash.Result, target string) {
	switch {
	case res.Verdict == flash.Genuine && res.Mode == flash.ModeFill:
		// A fill checks the free space it wrote, never the whole drive: say which part.
		p("%s: GENUINE as far as checked — the %s written and read back held what was written", target, fmtBytes(res.ClaimedBytes))
		p("  not checked: %s", fillUnchecked(res))
	case res.Verdict == flash.Genuine && res.Surface != nil:
		p("%s: GENUINE — all %s it claims held what was written, and every block read", target, fmtBytes(res.ClaimedBytes))
	case res.Verdict == flash.Genuine:
		p("%s: GENUINE — all %s it claims held what was written", target, fmtBytes(res.ClaimedBytes))
	case res.Verdict == flash.Readable:
		p("%s: READABLE — every block of its %s read without error; capacity not checked (iomark verify --read-only writes nothing, and only writing tells a fake: iomark verify DISK --full --confirm DISK checks it)", target, fmtBytes(res.ClaimedBytes))
	case res.Verdict == flash.Fake:
		p("%s: FAKE — it claims %s but holds %s (%d bytes)", target, fmtBytes(res.ClaimedBytes), fmtBytes(res.UsableBytes), res.UsableBytes)
	case res.Verdict == flash.Damaged && res.Mode == flash.ModeFill:
		p("%s: DAMAGED — parts of the %s tested lose or refuse data", target, fmtBytes(res.ClaimedBytes))
	case res.Verdict == flash.Damaged && res.Surface != nil:
		p("%s: DAMAGED — %s of its %s cannot be read or read back wrong", target, fmtBytes(res.Surface.BadBytes), fmtBytes(res.ClaimedBytes))
	case res.Verdict == flash.Damaged:
		p("%s: DAMAGED — regions inside its %s lose or refuse data", target, fmtBytes(res.ClaimedBytes))
	default:
		p("%s: no verdict (the verify stopped first)", target)
	}
}

// verifyBadRegions says how the drive fails and where.
func verifyBadRegions(p printf, res *flash.Result) {
	if res.FailureDetail != "" {
		p("  how it fails: %s", res.FailureDetail)
	}
	if res.FirstBadByte != nil {
		p("  first bad byte: %d", *res.FirstBadByte)
	}
	if res.CacheBytes > 0 {
		p("  the drive kept recent writes in a cache that hid the loss until %s more had been written", fmtBytes(res.CacheBytes))
	}
	for i, r := range res.BadRegions {
		if i == 8 {
			p("  … %d more bad regions (iomark verify --json lists them)", len(res.BadRegions)-i)
			break
		}
		where := "somewhere in"
		if r.Exact {
			where = "at"
		}
		p("  bad (%s) %s bytes %d-%d", r.Kind, where, r.StartByte, r.EndByte)
	}
}

// verifySurface is the full read's map: what read fine, bad and slow zones, what was not read.
func verifySurface(p printf, res *flash.Result, target string) {
	if sf := res.Surface; sf != nil {
		scope := "every block"
		if sf.ScannedBytes < res.ClaimedBytes {
			scope = "every block of the first " + fmtBytes(sf.ScannedBytes)
		}
		line := fmt.Sprintf("  surface (%s, %s): %s read fine", sf.Mode, scope, fmtBytes(sf.OKBytes))
		if sf.BadBytes > 0 {
			line += fmt.Sprintf(", %s bad", fmtBytes(sf.BadBytes))
		}
		if sf.UnreadBytes > 0 {
			line += fmt.Sprintf(", %s not read", fmtBytes(sf.UnreadBytes))
		}
		line += fmt.Sprintf(" of %s; read %.1f MB/s (median request %.1f MB/s)", fmtBytes(sf.ScannedBytes), sf.ReadMBPerS, sf.MedianMBPerS)
		if sf.WriteMBPerS > 0 {
			line += fmt.Sprintf(", write %.1f MB/s", sf.WriteMBPerS)
		}
		p("%s", line)
		switch {
		case sf.Stopped == flash.StopErrorBudget:
			p("  errors took %.0f s, all the %.0f s allowed (iomark verify --error-time): stretches left are bad somewhere inside or not read", sf.ErrorS, sf.ErrorBudgetS)
		case sf.Stopped == flash.StopDeviceGone:
			p("  the device stopped answering part way: what follows is the map so far")
		case sf.Stopped == flash.StopInterrupted:
			p("  interrupted part way: what follows is the map so far")
		case sf.ErrorS > 0.05:
			p("  errors took %.1f s of the %.0f s allowed (iomark verify --error-time)", sf.ErrorS, sf.ErrorBudgetS)
		}
		for i, z := range res.SlowZones {
			if i == 8 {
				p("  … %d more slow zones (iomark verify --json lists them)", len(res.SlowZones)-i)
				break
			}
			p("  slow (a finding, not damage): bytes %d-%d read at %.1f MB/s, under half the median %.1f MB/s", z.StartByte, z.EndByte, z.ReadMBPerS, z.MedianMBPerS)
		}
		for i, u := range sf.Unread {
			if i == 4 {
				p("  … %d more stretches not read", len(sf.Unread)-i)
				break
			}
			p("  not read (neither good nor bad): bytes %d-%d", u.StartByte, u.EndByte)
		}
	} else if res.Mode == flash.ModeProbe && res.Verdict != flash.Unknown {
		p("  surface: not scanned (the probe samples); to read every block and map bad and slow zones: iomark verify %s --full --confirm %s", target, target)
	}
}

// verifyFill is the fill's counts and rates.
func verifyFill(p printf, res *flash.Result) {
	fl := res.Fill
	if fl == nil {
		return
	}
	// The counts add up to the whole they are of: what failed to be written or read is
	// counted too, so a drive found bad never reads as all intact.
	line := fmt.Sprintf("  read back, of the %s tested in %d files: %s intact, %s corrupted, %s overwritten, %s changed",
		fmtBytes(res.ClaimedBytes), fl.Files, fmtBytes(fl.OKBytes), fmtBytes(fl.CorruptedBytes), fmtBytes(fl.OverwrittenBytes),
		fmtBytes(fl.ChangedBytes))
	if lost := res.ClaimedBytes - fl.OKBytes - fl.CorruptedBytes - fl.OverwrittenBytes - fl.ChangedBytes; lost > 0 {
		// FailedBytes, and anything never written
		line += fmt.Sprintf(", %s could not be written or read", fmtBytes(lost))
	}
	p("%s", line)
	if fl.FirstBadDeviceByte != nil {
		p("  the first bad byte lies %s into the filesystem's device", fmtBytes(*fl.FirstBadDeviceByte))
	}
	p("  write %.1f MB/s, read %.1f MB/s over the whole fill", fl.WriteMBPerS, fl.ReadMBPerS)
	if s := rateSpread(fl.Series); s != "" {
		p("  %s", s)
	}
}

// verifyTotals is what was written and read, and whether everything overwritten was put back.
func verifyTotals(p printf, res *flash.Result) {
	what := "probe"
	switch res.Mode {
	case flash.ModeFill:
		what = "fill"
	case flash.ModeFull:
		what = "full verify"
	}
	line := fmt.Sprintf("%s: wrote %s, read %s in %.1f s", what, fmtBytes(res.BytesWritten), fmtBytes(res.BytesRead), res.DurationS)
	if r := res.Restore; r != nil {
		switch {
		case r.Failed > 0:
			line += fmt.Sprintf("; %d of %d overwritten blocks could NOT be written back", r.Failed, r.Blocks)
			if r.RecoveryFile != "" {
				line += " (saved in " + r.RecoveryFile + ")"
			}
		case r.Verified:
			line += fmt.Sprintf("; all %d overwritten blocks written back and checked", r.Blocks)
		default:
			line += fmt.Sprintf("; all %d overwritten blocks written back (not all read back as saved)", r.Blocks)
		}
	} else if res.Destructive {
		line += "; destructive: what it overwrote is gone"
	}
	p("%s", line)
}

// fillUnchecked says what a fill that found nothing wrong did not check: free space beyond
// --size, and always the space files already held (a fill writes only free space).
func fillUnchecked(res *flash.Result) string {
	parts := []string{}
	if fl := res.Fill; fl != nil && fl.FreeBytes > res.ClaimedBytes {
		parts = append(parts, fmt.Sprintf("the other %s of the %s that were free", fmtBytes(fl.FreeBytes-res.ClaimedBytes), fmtBytes(fl.FreeBytes)))
	}
	parts = append(parts, "the space files already use")
	return joinAnd(parts) + " (a fill writes only free space; `iomark verify DEVICE` on the unmounted drive probes all of it)"
}

func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// rateSpread summarises the fill's write series: the fastest and slowest stretch, which
// shows an SLC cache running out.
func rateSpread(s []flash.SeriesPoint) string {
	if len(s) < 4 {
		return ""
	}
	var rated []flash.SeriesPoint
	for _, p := range s {
		if p.WriteMBPerS > 0 { // a stretch with refused writes has no rate
			rated = append(rated, p)
		}
	}
	if len(rated) < 4 {
		return ""
	}
	lo, hi := rated[0], rated[0]
	for _, p := range rated {
		if p.WriteMBPerS < lo.WriteMBPerS {
			lo = p
		}
		if p.WriteMBPerS > hi.WriteMBPerS {
			hi = p
		}
	}
	if lo.WriteMBPerS <= 0 || hi.WriteMBPerS < 1.5*lo.WriteMBPerS {
		return ""
	}
	return fmt.Sprintf("write rate by position: %.1f MB/s at %s, %.1f MB/s at %s (an SLC cache filling shows this way; iomark verify --json has the series)",
		hi.WriteMBPerS, fmtBytes(hi.OffsetBytes), lo.WriteMBPerS, fmtBytes(lo.OffsetBytes))
}

// Bytes prints a byte count as every iomark output for people does (SI units).
func Bytes(n int64) string { return fmtBytes(n) }
