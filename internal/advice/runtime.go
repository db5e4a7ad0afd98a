package advice

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// RunFacts is what the run-time rules look at: the measured figures and what the sensors
// saw. The caller builds it from a result record (record imports advice, so advice cannot
// import record).
type RunFacts struct {
	CeilingMBPerS float64 // practical limit of the link chain; 0 when unknown
	CeilingBasis  string  // e.g. "USB 2.0 with usb-storage"
	CPUs          int     // CPUs of the host; 0 when unknown
	Tests         []TestFacts
	// Throttled holds the firmware's get_throttled word of each sensor sample (hex).
	Throttled []string
}

// TestFacts are the figures of one test that rules judge.
type TestFacts struct {
	Name    string
	MBPerS  float64
	CI95Pct float64
	Noisy   bool
	// CPUPct is the CPU time the test used per second of wall time (100 = one core busy).
	CPUPct float64
	// Threads is how many threads could issue I/O at once (psync: qd × jobs; io_uring: jobs).
	Threads int
	// Sustained cliff: set when the rate fell and the drive grew hot meanwhile.
	ThermalDrop    bool
	DropPct        float64
	MaxDriveTempC  float64
	CliffAtSeconds float64
}

// aboveCeilingMargin absorbs rounding in the ceiling tables: only a figure clearly beyond the
// link's practical limit is flagged.
const aboveCeilingMargin = 1.05

// cpuBoundShare: a test that kept this share of the CPUs it could use busy was limited by the
// CPU as much as by the drive.
const cpuBoundShare = 0.85

// EvaluateRun applies the run-time rules, worst first. It never returns nil.
func EvaluateRun(f RunFacts) []Finding {
	out := []Finding{}
	for _, rl := range []func(RunFacts) []Finding{aboveCeiling, cpuBound, thermalDrop, throttledDuringRun, noisy} {
		out = append(out, rl(f)...)
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Severity.rank() - b.Severity.rank() })
	return out
}

// aboveCeiling: a figure faster than the link can carry was served by a cache (the page
// cache, the drive's DRAM or a host buffer), not by the drive over its link.
func aboveCeiling(f RunFacts) []Finding {
	if f.CeilingMBPerS <= 0 {
		return nil
	}
	var over []string
	for _, t := range f.Tests {
		if t.MBPerS > f.CeilingMBPerS*aboveCeilingMargin {
			over = append(over, fmt.Sprintf("%s %.1f MB/s", t.Name, t.MBPerS))
		}
	}
	if len(over) == 0 {
		return nil
	}
	basis := ""
	if f.CeilingBasis != "" {
		basis = " (" + f.CeilingBasis + ")"
	}
	return one(Finding{ID: "above-ceiling", Severity: Bad,
		Message:  fmt.Sprintf("faster than the link allows: %s exceeds the %.0f MB/s ceiling%s, so a cache was measured, not the drive", strings.Join(over, ", "), f.CeilingMBPerS, basis),
		Fix:      "keep direct I/O on (do not use --buffered), use a working set larger than the drive's cache, and check that the link found by `iomark info` is the one in use",
		Evidence: strings.Join(over, "; ")})
}

// cpuBound: the CPU, not the drive, set the pace of a figure.
func cpuBound(f RunFacts) []Finding {
	var bound []string
	for _, t := range f.Tests {
		usable := t.Threads
		if f.CPUs > 0 && (usable == 0 || usable > f.CPUs) {
			usable = f.CPUs
		}
		if usable <= 0 || t.CPUPct <= 0 {
			continue
		}
		if t.CPUPct >= cpuBoundShare*100*float64(usable) {
			bound = append(bound, fmt.Sprintf("%s (%.0f%% CPU of %d usable)", t.Name, t.CPUPct, usable*100))
		}
	}
	if len(bound) == 0 {
		return nil
	}
	return one(Finding{ID: "cpu-bound", Severity: Warn,
		Message:  "the CPU limited " + strings.Join(bound, ", ") + ": the drive may be faster than this figure",
		Fix:      "use --engine io_uring, set the CPU governor to performance, and make sure the board is not throttled; more jobs (--jobs) can spread the work over more cores",
		Evidence: strings.Join(bound, "; ")})
}

// thermalDrop: a sustained write fell off a cliff while the drive heated up.
func thermalDrop(f RunFacts) []Finding {
	for _, t := range f.Tests {
		if !t.ThermalDrop {
			continue
		}
		ev := fmt.Sprintf("%s: rate fell %.0f%% after %.0f s", t.Name, t.DropPct, t.CliffAtSeconds)
		if t.MaxDriveTempC > 0 {
			ev += fmt.Sprintf(", drive reached %.0f °C", t.MaxDriveTempC)
		}
		return one(Finding{ID: "thermal-drop", Severity: Warn,
			Message:  "the drive slowed down as it heated up during the sustained write: " + ev,
			Fix:      "give the drive airflow or a heatsink (thermal pad on the enclosure), or choose a drive with a metal body; long copies will run at the after-cliff rate",
			Evidence: ev})
	}
	return nil
}

// Bits of the Raspberry Pi firmware's get_throttled word that are set while a condition
// holds (bits 16-19 say it happened since boot; probe reports those before the run).
const (
	throttleUnderVoltageNow = 1 << 0
	throttleFreqCappedNow   = 1 << 1
	throttleThrottledNow    = 1 << 2
	throttleSoftTempNow     = 1 << 3
)

// throttledDuringRun: the board was under-voltage or throttled while iomark measured.
func throttledDuringRun(f RunFacts) []Finding {
	var seen int64
	for _, h := range f.Throttled {
		v, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(h), "0x"), 16, 64)
		if err == nil {
			seen |= v
		}
	}
	now := seen & (throttleUnderVoltageNow | throttleFreqCappedNow | throttleThrottledNow | throttleSoftTempNow)
	if now == 0 {
		return nil
	}
	var what []string
	if now&throttleUnderVoltageNow != 0 {
		what = append(what, "under-voltage")
	}
	if now&throttleFreqCappedNow != 0 {
		what = append(what, "ARM frequency capped")
	}
	if now&throttleThrottledNow != 0 {
		what = append(what, "throttled")
	}
	if now&throttleSoftTempNow != 0 {
		what = append(what, "soft temperature limit")
	}
	ev := fmt.Sprintf("get_throttled=0x%x during the run", seen)
	return one(Finding{ID: "throttled-during-run", Severity: Bad,
		Message:  "the board was " + strings.Join(what, ", ") + " while measuring: these figures reflect the power supply or cooling, not the drive",
		Fix:      "use a proper power supply (5.1 V, enough amps for the drive) and cooling, then run again",
		Evidence: ev})
}

// noisy: a figure whose repetitions disagree more than the target interval allows.
func noisy(f RunFacts) []Finding {
	var names []string
	for _, t := range f.Tests {
		if t.Noisy {
			names = append(names, fmt.Sprintf("%s (±%.1f%%)", t.Name, t.CI95Pct))
		}
	}
	if len(names) == 0 {
		return nil
	}
	return one(Finding{ID: "noisy", Severity: Info,
		Message:  "some figures varied between repetitions more than ±5%: " + strings.Join(names, ", "),
		Fix:      "close other programs using the drive or CPU, let the board cool, and run again; compare these figures with care",
		Evidence: strings.Join(names, "; ")})
}
