package advice

import (
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// longCopyBytes is the copy a sustained write's settled rate is turned into: the 10 GB copy
// that made a USB flash drive overheat (the seed report the sustained profile comes from).
const longCopyBytes = 10e9

// slowCopyMBPerS: a long copy at or below this rate makes the user wait: 10 GB takes ten
// minutes or more (16.7 MB/s).
const slowCopyMBPerS = longCopyBytes / 1e6 / 600

// sustainedSlow: a sustained write settled at a rate a long copy must wait on (the time a
// 10 GB copy takes, cache first), and an SD card's settled rate below the sustained write
// its speed class promises (SD Physical Layer spec: Speed Class, UHS Speed Grade, Video
// Speed Class are minimum sequential write rates).
func sustainedSlow(r *record.Run) []record.Finding {
	var out []record.Finding
	for i := range r.Tests {
		t := &r.Tests[i]
		s := t.Sustained
		if s == nil || t.MBPerS <= 0 {
			continue
		}
		copyLine := copyTime(s, t.MBPerS)
		if t.MBPerS < slowCopyMBPerS {
			ev := fmt.Sprintf("%s: %.1f MB/s after %s", t.Name, t.MBPerS, afterWhat(s))
			out = append(out, record.Finding{ID: "sustained-slow", Severity: record.SeverityWarn,
				Message:  fmt.Sprintf("a long copy runs at %.1f MB/s once the drive's fast start is spent: %s", t.MBPerS, copyLine),
				Fix:      "for large copies choose a drive whose sustained write is faster (an SSD keeps 100 MB/s and more; many flash drives and cards fall to a few MB/s); split copies into batches the cache can hold, or give the drive time between them",
				Evidence: ev})
		}
		if name, promise, ok := classPromise(r.SD); ok && t.MBPerS < promise {
			ev := fmt.Sprintf("%s: settled at %.1f MB/s; the card claims %s (at least %.0f MB/s sustained write)", t.Name, t.MBPerS, name, promise)
			msg := fmt.Sprintf("the card writes slower than its %s mark promises: %.1f MB/s settled, %.0f MB/s promised; %s", name, t.MBPerS, promise, copyLine)
			if r.CeilingMBPerS > 0 && r.CeilingMBPerS < promise {
				msg += fmt.Sprintf(" (the link here carries at most %.0f MB/s, so this host cannot show the class)", r.CeilingMBPerS)
			}
			out = append(out, record.Finding{ID: "below-speed-class", Severity: record.SeverityWarn,
				Message:  msg,
				Fix:      "the class is a minimum the card must keep; a card that falls short of it here may be worn, counterfeit (check it with `iomark verify`) or limited by the reader: try it in the board's own slot, and return it if it stays short",
				Evidence: ev})
		}
	}
	return out
}

// afterWhat says what the settled rate came after: the cliff, or nothing.
func afterWhat(s *record.Sustained) string {
	if s.CliffFound {
		return fmt.Sprintf("the cliff at %s (%.1f MB/s before)", fmtGB(float64(s.CliffAtBytes)), s.BeforeMBPerS)
	}
	return "the whole write (no cliff)"
}

// copyTime says how long a 10 GB copy takes at what the write measured: the bytes before the
// cliff at the rate before it, the rest at the settled rate.
func copyTime(s *record.Sustained, settledMBPerS float64) string {
	secs := longCopyBytes / (settledMBPerS * 1e6)
	how := fmt.Sprintf("at %.1f MB/s", settledMBPerS)
	if s.CliffFound && s.BeforeMBPerS > 0 && s.CliffAtBytes > 0 && float64(s.CliffAtBytes) < longCopyBytes {
		fast := float64(s.CliffAtBytes)
		secs = fast/(s.BeforeMBPerS*1e6) + (longCopyBytes-fast)/(settledMBPerS*1e6)
		how = fmt.Sprintf("the first %s at %.1f MB/s, the rest at %.1f MB/s", fmtGB(fast), s.BeforeMBPerS, settledMBPerS)
	}
	return fmt.Sprintf("a 10 GB copy takes %s (%s)", fmtDuration(secs), how)
}

// classPromise is the highest sustained write an SD card's marks promise, in MB/s, with the
// mark's name: Speed Class 2/4/6/10 (that many MB/s), UHS Speed Grade U1 (10) and U3 (30),
// Video Speed Class V6-V90 (that many MB/s). ok is false for a card without a mark, or
// whose status register could not be read.
func classPromise(sd *probe.SD) (name string, mbPerS float64, ok bool) {
	if sd == nil {
		return "", 0, false
	}
	consider := func(n string, v float64) {
		switch {
		case v > mbPerS:
			name, mbPerS, ok = n, v, true
		case v == mbPerS && ok:
			name += "/" + n // marks that promise the same: U3/V30
		}
	}
	if c := sd.SpeedClass; c != nil && *c > 0 {
		consider(fmt.Sprintf("Class %d", *c), float64(*c))
	}
	if u := sd.UHSClass; u != nil && *u > 0 {
		consider(fmt.Sprintf("U%d", *u), map[int]float64{1: 10, 3: 30}[*u])
	}
	if v := sd.VideoClass; v != nil && *v > 0 {
		consider(fmt.Sprintf("V%d", *v), float64(*v))
	}
	return name, mbPerS, ok
}

func fmtGB(bytes float64) string {
	if bytes >= 1e9 {
		return fmt.Sprintf("%.1f GB", bytes/1e9)
	}
	return fmt.Sprintf("%.0f MB", bytes/1e6)
}

// fmtDuration is a copy time as people say it: 14 min, 1 h 23 min, 45 s.
func fmtDuration(secs float64) string {
	d := time.Duration(secs * float64(time.Second)).Round(time.Second)
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
	case d >= 2*time.Minute:
		return fmt.Sprintf("%.0f min", d.Minutes())
	case d >= time.Minute:
		return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%.0f s", d.Seconds())
}
