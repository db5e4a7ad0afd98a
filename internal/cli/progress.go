package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/report"
)

// status is one moment of a long operation, as every command shows it: what is being done,
// how far along it is of a stated whole, how fast, how long so far and how long is left.
// run, job, verify and sink all print their progress through statusText, so a user reads
// the same shape everywhere.
type status struct {
	What string
	// Done and Total count bytes, exactly; Total 0 when the whole is not known in bytes.
	Done, Total int64
	// Step and Steps count the parts of a run ("[2/6]"), when it has them.
	Step, Steps int
	MBPerS      float64 // 10^6 bytes/s over the last interval, 0 when not known
	IOPS        float64 // over the last interval, 0 when not measured
	Elapsed     time.Duration
	// Left is the time left: a bound (LeftIsBound, from budgets) or an estimate at the
	// rate so far; 0 when neither is known yet.
	Left        time.Duration
	LeftIsBound bool
}

func statusText(s status) string {
	var b strings.Builder
	if s.Steps > 0 {
		fmt.Fprintf(&b, "[%d/%d] ", s.Step, s.Steps)
	}
	b.WriteString(s.What)
	if s.Total > 0 {
		fmt.Fprintf(&b, "  %s of %s (%.0f%%)", report.Bytes(s.Done), report.Bytes(s.Total), 100*float64(s.Done)/float64(s.Total))
	}
	if s.IOPS > 0 {
		fmt.Fprintf(&b, "  %.0f IOPS", s.IOPS)
	}
	if s.MBPerS > 0 {
		fmt.Fprintf(&b, "  %.1f MB/s", s.MBPerS)
	}
	fmt.Fprintf(&b, "  elapsed %s", s.Elapsed.Round(time.Second))
	switch {
	case s.Left > 0 && s.LeftIsBound:
		fmt.Fprintf(&b, "  at most %s left", s.Left.Round(time.Second))
	case s.Left > 0:
		fmt.Fprintf(&b, "  about %s left", s.Left.Round(time.Second))
	}
	return b.String()
}

// estimateLeft is the time the rest of total takes at the rate done/elapsed has shown; ok is
// false until a few seconds have passed (the first seconds include the drive's cache).
func estimateLeft(done, total int64, elapsed time.Duration) (time.Duration, bool) {
	if done <= 0 || total <= done || elapsed < minEstimateTime {
		return 0, false
	}
	rate := float64(done) / elapsed.Seconds()
	return time.Duration(float64(total-done) / rate * float64(time.Second)), true
}

// minEstimateTime is how long an operation runs before its rate is trusted for an estimate.
const minEstimateTime = 3 * time.Second
