package advice

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// aboveCeilingMargin absorbs rounding in the ceiling tables: only a figure clearly beyond the
// link's practical limit is flagged.
const aboveCeilingMargin = 1.05

// cpuBoundShare: a test that kept this share of the CPUs it could use busy was limited by the
// CPU as much as by the drive.
const cpuBoundShare = 0.85

// EvaluateRun applies the run-time rules to a run's figures and sensor samples, and the
// health rules to the health the drive reported before it, worst first. It never returns nil.
func EvaluateRun(r *record.Run) []record.Finding {
	out := []record.Finding{}
	if r == nil {
		return out
	}
	for _, rl := range []func(*record.Run) []record.Finding{aboveCeiling, cpuBound, thermalDrop, sustainedSlow, throttledDuringRun, burst, noisy} {
		out = append(out, rl(r)...)
	}
	out = append(out, EvaluateHealth(r.Health)...)
	slices.SortStableFunc(out, func(a, b record.Finding) int { return a.Severity.Rank() - b.Severity.Rank() })
	return out
}

// aboveCeiling: a figure faster than the link can carry was served by a cache (the page
// cache, the drive's DRAM or a host buffer), not by the drive over its link.
func aboveCeiling(r *record.Run) []record.Finding {
	if r.CeilingMBPerS <= 0 {
		return nil
	}
	var over []string
	for _, t := range r.Tests {
		if t.MBPerS > r.CeilingMBPerS*aboveCeilingMargin {
			over = append(over, fmt.Sprintf("%s %.1f MB/s", t.Name, t.MBPerS))
		}
	}
	if len(over) == 0 {
		return nil
	}
	basis := ""
	if r.Ceiling != nil && r.Ceiling.Basis != "" {
		basis = " (" + r.Ceiling.Basis + ")"
	}
	return one(record.Finding{ID: "above-ceiling", Severity: record.SeverityBad,
		Message:  fmt.Sprintf("faster than the link allows: %s exceeds the %.0f MB/s ceiling%s, so a cache was measured, not the drive", strings.Join(over, ", "), r.CeilingMBPerS, basis),
		Fix:      "measure with direct I/O (`iomark run` does, but for the buffered peer tests of the pibenchmarks profile; `iomark job` does unless given --buffered), use a working set larger than the drive's cache, and check that the link found by `iomark info` is the one in use",
		Evidence: strings.Join(over, "; ")})
}

// threads is how many threads of a test could issue I/O at once: psync runs one per queue slot
// of each job, io_uring one per job.
func threads(t record.Test) int {
	if t.Engine == "psync" {
		return t.QD * t.Jobs
	}
	return t.Jobs
}

// cpuBound: the CPU, not the drive, set the pace of a figure. The finding says what each
// such test used (engine, threads, cores busy, with the whole each share is of) and the fix
// names only what was not tried yet.
func cpuBound(r *record.Run) []record.Finding {
	cpus := 0
	governor := ""
	if r.Host != nil {
		cpus, governor = r.Host.CPUs, r.Host.Governor
	}
	var bound []string
	engines := map[string]bool{}
	fewerThreadsThanCPUs := false
	for _, t := range r.Tests {
		usable := threads(t)
		if cpus > 0 && (usable == 0 || usable > cpus) {
			usable = cpus
		}
		if usable <= 0 || t.CPUPct <= 0 {
			continue
		}
		if t.CPUPct < cpuBoundShare*100*float64(usable) {
			continue
		}
		eng := t.Engine
		if eng == "" {
			eng = "an unrecorded engine"
		}
		engines[eng] = true
		fewerThreadsThanCPUs = fewerThreadsThanCPUs || (cpus > 0 && threads(t) < cpus)
		desc := fmt.Sprintf("%s (%s, %s): %.2f CPU cores busy (%.0f%% of one core) of the %s it could use",
			t.Name, eng, plural(threads(t), "I/O thread"), t.CPUPct/100, t.CPUPct, plural(usable, "core"))
		if t.CPUPct > 100*float64(usable) {
			desc += ", the rest the kernel's work on its behalf"
		}
		bound = append(bound, desc)
	}
	if len(bound) == 0 {
		return nil
	}
	var fix []string
	if engines["psync"] {
		fix = append(fix, "use io_uring (`iomark run --engine io_uring`), which needs fewer system calls per I/O than the psync these tests used")
	}
	switch governor {
	case "performance":
	case "":
		fix = append(fix, "check that the CPU governor is performance (/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)")
	default:
		fix = append(fix, fmt.Sprintf("set the CPU governor to performance (it was %s)", governor))
	}
	fix = append(fix, "make sure the board is not throttled (`iomark info` reports it)")
	if fewerThreadsThanCPUs {
		fix = append(fix, "more jobs (`iomark job --jobs N`) spread the work over more cores")
	}
	msg := "the CPU limited " + strings.Join(bound, "; ") + ": the drive may be faster than this figure"
	if len(engines) == 1 && engines["io_uring"] {
		msg += " (io_uring was already used)"
	}
	return one(record.Finding{ID: "cpu-bound", Severity: record.SeverityWarn,
		Message:  msg,
		Fix:      strings.Join(fix, "; "),
		Evidence: strings.Join(bound, "; ")})
}

// plural is "1 core", "2 cores".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
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
func throttledDuringRun(r *record.Run) []record.Finding {
	var seen int64
	for _, s := range r.Sensors {
		if s.Throttled == "" {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(s.Throttled), "0x"), 16, 64)
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
	return one(record.Finding{ID: "throttled-during-run", Severity: record.SeverityBad,
		Message:  "the board was " + strings.Join(what, ", ") + " while measuring: these figures reflect the power supply or cooling, not the drive",
		Fix:      "use a proper power supply (5.1 V, enough amps for the drive) and cooling, then run again",
		Evidence: ev})
}

// noisy: a figure whose repetitions disagree more than the target interval allows.
// burst: a test's head ran faster than its figure — a write cache or SLC cache, read-ahead —
// and the warm-up outlasted it, so the figure is the rate after it. The burst is said, not
// hidden: a copy shorter than it sees the faster rate.
func burst(r *record.Run) []record.Finding {
	var seen []string
	for _, t := range r.Tests {
		if b := t.Burst; b != nil {
			seen = append(seen, fmt.Sprintf("%s: first %.1f s at %.1f× the sustained rate", t.Name, b.S, b.X))
		}
	}
	if len(seen) == 0 {
		return nil
	}
	return one(record.Finding{ID: "burst", Severity: record.SeverityInfo,
		Message:  strings.Join(seen, "; ") + ": a cache; each figure is the rate after it (the warm-up outlasted it)",
		Fix:      "expect the faster rate only for transfers that fit the burst; for larger copies the figure holds (the sustained profile measures a long copy)",
		Evidence: strings.Join(seen, "; ")})
}

func noisy(r *record.Run) []record.Finding {
	var names []string
	for _, t := range r.Tests {
		if t.Noisy {
			names = append(names, fmt.Sprintf("%s (±%.1f%%)", t.Name, t.CI95Pct))
		}
	}
	if len(names) == 0 {
		return nil
	}
	return one(record.Finding{ID: "noisy", Severity: record.SeverityInfo,
		Message:  "some figures varied between repetitions more than ±5%: " + strings.Join(names, ", "),
		Fix:      "close other programs using the drive or CPU, let the board cool, and run again; compare these figures with care",
		Evidence: strings.Join(names, "; ")})
}
