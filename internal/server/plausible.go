package server

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/probe/linkdb"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

// Plausibility the uploader cannot switch off: the server works out each result's ceiling
// itself, from the record's class and link chain, with probe's link tables (linkdb,
// docs/ceilings.md), and doubts figures above it, figures that contradict each other, tests
// that claim a profile's name but not its shape, and impossible dates. A doubted result is kept
// (its page shows it, marked) but is not listed: no list, count, median, ranking or sort order
// sees it (store, migration 00008). The uploader's own ceiling fields are kept as reported and
// never trusted.

// Flag is something about a stored record a reader should doubt or know.
type Flag struct {
	ID      string `json:"id"`
	Test    string `json:"test,omitempty"`
	Message string `json:"message"`
}

// Doubts keep a result out of the rankings; notes are shown only.
const (
	flagAboveCeiling    = "above-ceiling"           // a figure above what the class and link can carry
	flagFiguresDisagree = "figures-disagree"        // MB/s, MiB/s and IOPS × block size do not match
	flagNoBlockSize     = "iops-without-block-size" // IOPS with no block size to check them by
	flagNotProfileTest  = "not-the-profile-test"    // a profile's test name with another shape
	flagSameTestTwice   = "same-test-twice"         // two tests of one name
	flagImpossibleDate  = "impossible-date"         // run before 2000 or in the future
	noteSDSuspect       = "sd-suspect"
	noteInterrupted     = "interrupted"
)

const (
	// ceilingSlackPct: a figure this far above its ceiling is doubted. Ceilings are practical
	// figures an unusually fast host can pass by a few percent (docs/ceilings.md).
	ceilingSlackPct = 5
	// figuresSlackPct: MB/s and IOPS × block size of one test come from the same repetitions,
	// so they agree exactly; rounding and the median of a few repetitions stay far inside this.
	figuresSlackPct = 10
	// futureSlack allows a clock that runs a little ahead.
	futureSlack = 24 * time.Hour
)

// oldestRun is the earliest run time believed (iomark did not exist before; clocks reset to
// 1970 on boards without a real-time clock).
var oldestRun = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// classBounds are the fastest links a drive of each class can sit behind, taken from linkdb's
// tables (the class's fastest mode at its top clock): a figure above them is impossible
// whatever link chain the record claims.
var classBounds = []struct {
	match   func(class string) bool
	ceiling func() linkdb.Ceiling
}{
	// UHS-I's fastest mode at its top clock; UHS-II runs no faster under Linux's SD stack, and
	// SD Express cards show as NVMe.
	{func(c string) bool { return c == probe.ClassMicroSD }, func() linkdb.Ceiling { return linkdb.SDMode("sd", "SDR104", 208_000_000, 4) }},
	{func(c string) bool { return c == probe.ClassEMMC }, func() linkdb.Ceiling { return linkdb.SDMode("mmc", "HS400", 200_000_000, 8) }},
	// Every USB class (usb-flash, usb-ssd, usb-hdd; the published table's usb-ssd-sata,
	// msata-usb…): USB 3.2 Gen 2x2 with UAS, the fastest USB storage link.
	{func(c string) bool { return strings.Contains(c, "usb") }, func() linkdb.Ceiling { return linkdb.USB(20000, "uas") }},
	{func(c string) bool { return c == probe.ClassSATA || c == probe.ClassSATASSD || c == probe.ClassSATAHDD },
		func() linkdb.Ceiling { return linkdb.SATA(6.0) }},
}

// fastestLink bounds every other class (nvme, virtio, loop, other, unknown): PCIe gen 5 x16,
// the fastest link linkdb knows.
func fastestLink() linkdb.Ceiling { return linkdb.PCIe(5, 16) }

// serverCeiling is the ceiling of a record worked out by the server: the slowest hop whose
// ceiling linkdb can compute from what the record says of it, and the class's bound. It is
// never zero.
func serverCeiling(r *record.Run) linkdb.Ceiling {
	class := ""
	if r.Device != nil {
		class = r.Device.Class
	}
	bound := fastestLink()
	for _, b := range classBounds {
		if b.match(class) {
			bound = b.ceiling()
			break
		}
	}
	hops := []linkdb.Ceiling{bound}
	for _, h := range r.Link {
		hops = append(hops, hopCeiling(r, h))
	}
	return linkdb.Slowest(hops...)
}

// hopCeiling recomputes one hop's ceiling from the figures the record gives for it (never its
// ceiling fields). A hop linkdb cannot place is zero, and so ignored.
func hopCeiling(r *record.Run, h probe.Hop) linkdb.Ceiling {
	switch h.Bus {
	case "usb":
		driver := h.Driver
		if driver != "uas" && driver != "usb-storage" && driver != "usb_storage" {
			driver = "uas" // the faster protocol: an unknown driver must not make a figure doubtful
		}
		return linkdb.USB(h.SpeedMbps, driver)
	case "sd", "mmc":
		if r.SD != nil {
			return linkdb.SDMode(h.Bus, r.SD.Timing, r.SD.ClockHz, r.SD.BusWidthBits)
		}
	case "pcie":
		var gen, width int
		if _, err := fmt.Sscanf(h.Detail, "PCIe gen%d x%d", &gen, &width); err == nil {
			return linkdb.PCIe(gen, width)
		}
	case "sata":
		return linkdb.SATA(float64(h.SpeedMbps) / 1000)
	}
	return linkdb.Ceiling{}
}

// doubts are the server's reasons not to list a record. source is the store's (a published
// reference result has no run time to check); now is the upload's time.
func doubts(r *record.Run, source string, now time.Time) []Flag {
	var out []Flag
	c := serverCeiling(r)
	limit := c.MBPerS * (1 + ceilingSlackPct/100.0)
	shapes := profileShapes(r.Profile)
	seen := map[string]bool{}
	for _, t := range r.Tests {
		if seen[t.Name] {
			out = append(out, Flag{ID: flagSameTestTwice, Test: t.Name, Message: fmt.Sprintf("%s: the record holds this test twice", t.Name)})
		}
		seen[t.Name] = true
		ioMBPerS := t.IOPS * float64(t.BS) / 1e6
		switch {
		case t.MBPerS > limit:
			out = append(out, Flag{ID: flagAboveCeiling, Test: t.Name, Message: fmt.Sprintf("%s: %.1f MB/s is above the %.1f MB/s this drive's class and link can carry (%s)", t.Name, t.MBPerS, c.MBPerS, c.Basis)})
		case ioMBPerS > limit:
			out = append(out, Flag{ID: flagAboveCeiling, Test: t.Name, Message: fmt.Sprintf("%s: %.0f IOPS of %d bytes move %.1f MB/s, above the %.1f MB/s this drive's class and link can carry (%s)", t.Name, t.IOPS, t.BS, ioMBPerS, c.MBPerS, c.Basis)})
		}
		switch {
		case t.IOPS > 0 && t.BS <= 0:
			out = append(out, Flag{ID: flagNoBlockSize, Test: t.Name, Message: fmt.Sprintf("%s: %.0f IOPS without a block size", t.Name, t.IOPS)})
		case t.IOPS > 0 && t.MBPerS > 0 && !near(ioMBPerS, t.MBPerS, figuresSlackPct):
			out = append(out, Flag{ID: flagFiguresDisagree, Test: t.Name, Message: fmt.Sprintf("%s: %.0f IOPS of %d bytes are %.1f MB/s, not the %.1f MB/s reported", t.Name, t.IOPS, t.BS, ioMBPerS, t.MBPerS)})
		case t.MiBPerS > 0 && t.MBPerS > 0 && !near(t.MiBPerS*1.048576, t.MBPerS, 2):
			out = append(out, Flag{ID: flagFiguresDisagree, Test: t.Name, Message: fmt.Sprintf("%s: %.1f MiB/s is not the %.1f MB/s reported", t.Name, t.MiBPerS, t.MBPerS)})
		}
		if s, ok := shapes[t.Name]; ok && (s.BlockSize > 0 && t.BS != s.BlockSize || s.QD > 0 && t.QD != s.QD) {
			out = append(out, Flag{ID: flagNotProfileTest, Test: t.Name, Message: fmt.Sprintf("%s: block size %d at queue depth %d, where the %s profile runs it at %d and %d", t.Name, t.BS, t.QD, r.Profile, s.BlockSize, s.QD)})
		}
	}
	if source != "published" && (r.CreatedAt.Before(oldestRun) || r.CreatedAt.After(now.Add(futureSlack))) {
		out = append(out, Flag{ID: flagImpossibleDate, Message: fmt.Sprintf("the run says it was made on %s", r.CreatedAt.UTC().Format(time.RFC3339))})
	}
	return out
}

// notes are flags shown with a result that do not keep it out of the rankings.
func notes(r *record.Run) []Flag {
	var out []Flag
	if r.SD != nil && r.SD.Suspect {
		out = append(out, Flag{ID: noteSDSuspect, Message: "the card's registers look inconsistent (possible fake or relabelled card)"})
	}
	if r.Interrupted {
		out = append(out, Flag{ID: noteInterrupted, Message: "the run was interrupted; some tests may be missing"})
	}
	return out
}

func near(a, b, pct float64) bool {
	return math.Abs(a-b) <= math.Max(a, b)*pct/100+0.01
}

// knownProfile is what the server needs of one profile: its tests' shapes and its score.
type knownProfile struct {
	shapes map[string]profile.Test
	score  func([]record.Test) record.Scores
}

// profiles are every profile iomark has, read once (profile.ByName builds them all each call,
// which cost as much as checking the upload).
var profiles = sync.OnceValue(func() map[string]knownProfile {
	out := map[string]knownProfile{}
	for _, name := range profile.Names() {
		p, err := profile.ByName(name)
		if err != nil {
			continue
		}
		k := knownProfile{shapes: map[string]profile.Test{}, score: p.Score}
		for _, t := range p.Tests {
			k.shapes[t.Name] = t
		}
		out[name] = k
	}
	return out
})

// profileShapes are the block size and queue depth of each test of the named profile (none for
// an unknown profile).
func profileShapes(name string) map[string]profile.Test {
	return profiles()[name].shapes
}

// serverScores are the record's scores as the server computes them from its tests with the
// profile's own formula (profile.Profile.Score); an unknown profile has none. Uploaded scores
// are never used.
func serverScores(r *record.Run) record.Scores {
	p, ok := profiles()[r.Profile]
	if !ok || p.score == nil {
		return record.Scores{}
	}
	return p.score(r.Tests)
}
