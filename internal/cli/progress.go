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

// plan is what a long operation says before it starts, in the same words for every
// command that has no profile of its own (verify's probe, full scan and fill): what it does,
// the bytes it writes and reads, and how long it takes or how that will be known.
type plan struct {
	What string
	// WriteBytes and ReadBytes are exact unless the matching bound flag says "at most".
	WriteBytes, ReadBytes     int64
	WriteIsBound, ReadIsBound bool
	// Took is how long it takes: a bound (TookIsBound) or an estimate at a stated rate
	// (TookAt, e.g. "at 2 MB/s, the slowest SD speed class"); 0 when only the first seconds
	// can tell (then TookHow says so).
	Took        time.Duration
	TookIsBound bool
	TookAt      string
	TookHow     string
	// Then is what may come on top (the time errors may take).
	Then string
}

func planText(p plan) string {
	var b strings.Builder
	b.WriteString(p.What)
	amount := func(n int64, bound bool) string {
		s := fmt.Sprintf("%s (%d bytes)", report.Bytes(n), n)
		if bound {
			s = "at most " + report.Bytes(n)
		}
		return s
	}
	switch {
	case p.WriteBytes > 0 && p.ReadBytes > 0:
		fmt.Fprintf(&b, ": writes %s and reads %s", amount(p.WriteBytes, p.WriteIsBound), amount(p.ReadBytes, p.ReadIsBound))
	case p.WriteBytes > 0:
		fmt.Fprintf(&b, ": writes %s", amount(p.WriteBytes, p.WriteIsBound))
	case p.ReadBytes > 0:
		fmt.Fprintf(&b, ": writes nothing and reads %s", amount(p.ReadBytes, p.ReadIsBound))
	}
	switch {
	case p.Took > 0 && p.TookIsBound:
		fmt.Fprintf(&b, "; takes at most %s", p.Took.Round(time.Second))
	case p.Took > 0:
		fmt.Fprintf(&b, "; takes about %s %s", p.Took.Round(time.Second), p.TookAt)
	}
	if p.TookHow != "" {
		fmt.Fprintf(&b, "; %s", p.TookHow)
	}
	if p.Then != "" {
		fmt.Fprintf(&b, "; %s", p.Then)
	}
	return b.String()
}

// rateWindow is the rate of the last few seconds of a byte count, for the live line's
// current speed.
type rateWindow struct {
	at    []time.Time
	bytes []int64
}

func (r *rateWindow) add(now time.Time, done int64) float64 {
	r.at, r.bytes = append(r.at, now), append(r.bytes, done)
	for len(r.at) > 2 && now.Sub(r.at[0]) > rateWindowSpan {
		r.at, r.bytes = r.at[1:], r.bytes[1:]
	}
	if d := now.Sub(r.at[0]); d > 0 && len(r.at) > 1 {
		return float64(done-r.bytes[0]) / d.Seconds() / 1e6
	}
	return 0
}

const rateWindowSpan = 3 * time.Second
