package profile

import (
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/probe"
)

// The write budget by drive class, for a profile with ClassBudget set (quick).
//
// Flash without a rated endurance a user can look up — microSD cards, eMMC, USB flash drives —
// wears with every byte and often has no wear levelling worth the name, so quick writes at
// most FlashWriteCap (the profile's MaxBytesWritten) on it however fast it is: a fast card
// gets shorter runs (never shorter than MinRunTime while the budget allows) or fewer of them,
// not more bytes. A class iomark cannot tell or is unsure of (a loop device, a virtual disk,
// a USB device without a bridge or drive identity that says what is behind it) is treated
// as flash.
//
// SSDs (USB SSD behind a SATA or NVMe bridge, SATA, NVMe) are rated in hundreds of terabytes
// written, and hard disks do not wear by writing: on them the budget is what every write test
// needs for its warm-up and MinRuns runs of MinRunTime, back to back at the link's rate (the
// probe's ceiling; the class's usual link when it has none), plus the layout — so a fast drive
// is measured over runs long enough to be stable instead of 0.03 s ones. For quick that is
// 12.75 s of writing at the link's rate: 5.1 GB on a 400 MB/s USB 3 link. It is bounded by
// SSDWriteCap, below what CrystalDiskMark writes on the same drive (30 s of each of its write
// tests at the drive's rate), and never less than the flash cap.
const (
	// SSDWriteCap bounds a class budget on the fastest drives: 16 GiB is 1/37,500 of a
	// 600 TBW rating, the endurance of a common 1 TB NVMe drive.
	SSDWriteCap = 16 * GiB
)

// classLinkMBPerS is the link a class usually sits on, for a drive whose link ceiling the
// probe does not know (a declared class, a bridge without speed). Practical rates, 10^6 B/s:
// USB 3.x Gen 1 (5 Gb/s, 8b/10b) carries about 400 MB/s of data with UAS; SATA III about
// 550 MB/s; PCIe 3.0 ×4 about 3500 MB/s.
var classLinkMBPerS = map[string]float64{
	probe.ClassUSBSSD:  400,
	probe.ClassUSBHDD:  400,
	probe.ClassSATA:    550,
	probe.ClassSATASSD: 550,
	probe.ClassSATAHDD: 550,
	probe.ClassNVMe:    3500,
}

// Budget is what a run may write, and why, for the line printed before it starts.
type Budget struct {
	Bytes int64
	// Class is the drive class the budget was set for ("" when the profile's budget does not
	// depend on it); Why says how it was set, in a clause.
	Class string
	Why   string
}

// DriveClass is what a write budget is set from: the drive's class when iomark is sure of
// it ("" otherwise) and its link ceiling (0: unknown).
type DriveClass struct {
	Class      string
	LinkMBPerS float64
}

// ClassOf is the class of the drive rep describes, as far as a write budget may trust it:
// a USB SSD only when a SATA or NVMe bridge or the drive's own identity says so (the probe's
// fallback from a non-rotational queue flag is a guess many flash drives also match). nil
// rep: unknown.
func ClassOf(rep *probe.Report) DriveClass {
	if rep == nil || rep.Device == nil {
		return DriveClass{}
	}
	c := DriveClass{Class: rep.Device.Class, LinkMBPerS: rep.CeilingMBPerS}
	if c.Class == probe.ClassUSBSSD || c.Class == probe.ClassUSBHDD {
		u := rep.USB
		sure := u != nil && (u.Drive != nil && u.Drive.RotationRateRPM > 0 ||
			u.Bridge != nil && (u.Bridge.Kind == "usb-nvme" || u.Bridge.Kind == "usb-sata"))
		if !sure {
			c.Class = ""
		}
	}
	return c
}

// WriteBudget is the most a run of p writes on drive d. A profile without ClassBudget has
// one budget on every drive (MaxBytesWritten, bounded by the peer it mirrors).
func (p *Profile) WriteBudget(d DriveClass) Budget {
	if !p.ClassBudget {
		return Budget{Bytes: p.MaxBytesWritten}
	}
	flash := Budget{Bytes: p.MaxBytesWritten, Class: d.Class}
	link, ok := classLinkMBPerS[d.Class]
	if !ok {
		switch d.Class {
		case probe.ClassMicroSD, probe.ClassEMMC, probe.ClassUSBFlash:
			flash.Why = fmt.Sprintf("the cap of a %s drive, whatever its speed: flash wears", d.Class)
		default:
			flash.Class = ""
			flash.Why = "the cap of a drive whose class iomark cannot tell, as for flash"
		}
		return flash
	}
	how := "its link's ceiling"
	if d.LinkMBPerS > 0 {
		link = d.LinkMBPerS
	} else {
		how = "the usual link of its class"
	}
	sec := p.minWriteSeconds()
	b := p.FileBytes + int64(sec*link*1e6)
	b = max(min(b, SSDWriteCap), p.MaxBytesWritten)
	b -= b % MiB
	return Budget{Bytes: b, Class: d.Class,
		Why: fmt.Sprintf("a %s drive: %.2f s of writing at %s (%.0f MB/s), every write test's warm-up and %s", d.Class, sec, how, link, p.minRunsClause())}
}

// minWriteSeconds is the time every write test needs for its warm-up and MinRuns runs of
// MinRunTime with their ramps.
func (p *Profile) minWriteSeconds() float64 {
	var d time.Duration
	for _, t := range p.Tests {
		if t.Writes() {
			d += t.WarmUp + time.Duration(t.MinRuns)*(t.minRunTime()+t.Ramp)
		}
	}
	return d.Seconds()
}

func (p *Profile) minRunsClause() string {
	for _, t := range p.Tests {
		if t.Writes() {
			return fmt.Sprintf("%d runs of %v", t.MinRuns, t.minRunTime())
		}
	}
	return "runs"
}

// minRunTime is MinRunTime, or RunTime when it is not set (a run is never shortened).
func (t Test) minRunTime() time.Duration {
	if t.MinRunTime > 0 {
		return min(t.MinRunTime, t.RunTime)
	}
	return t.RunTime
}

// DeclarableClasses are the classes a user may declare for a drive iomark cannot tell (run
// --class), in the order help texts list them.
func DeclarableClasses() []string {
	return []string{probe.ClassMicroSD, probe.ClassEMMC, probe.ClassUSBFlash, probe.ClassUSBSSD, probe.ClassUSBHDD,
		probe.ClassSATA, probe.ClassSATASSD, probe.ClassSATAHDD, probe.ClassNVMe}
}
