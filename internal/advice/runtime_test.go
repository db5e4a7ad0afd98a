package advice

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// runOf is a run of the given tests on a host with cpus CPUs (0: unknown) behind a link of
// ceilingMBPerS (0: unknown).
func runOf(ceilingMBPerS float64, cpus int, tests ...record.Test) *record.Run {
	r := &record.Run{CeilingMBPerS: ceilingMBPerS, Tests: tests}
	if cpus > 0 {
		r.Host = &probe.Board{CPUs: cpus}
	}
	return r
}

func throttledRun(words ...string) *record.Run {
	r := &record.Run{}
	for _, w := range words {
		r.Sensors = append(r.Sensors, record.SensorSample{Throttled: w})
	}
	return r
}

func TestRunTimeFindings(t *testing.T) {
	psync := func(name string, qd int, cpuPct float64) record.Test {
		return record.Test{Name: name, Engine: "psync", QD: qd, Jobs: 1, CPUPct: cpuPct}
	}
	for _, c := range []struct {
		name string
		r    *record.Run
		want string
	}{
		{"nothing", runOf(40, 4, record.Test{Name: "seq-read-1m", MBPerS: 39, CPUPct: 10, Jobs: 1}), ""},
		{"above ceiling", runOf(40, 0, record.Test{Name: "seq-read-1m", MBPerS: 900}), "above-ceiling/bad"},
		{"at the ceiling is fine", runOf(40, 0, record.Test{Name: "seq-read-1m", MBPerS: 41.9}), ""},
		{"unknown ceiling", runOf(0, 0, record.Test{Name: "seq-read-1m", MBPerS: 900}), ""},
		{"cpu bound", runOf(0, 4, psync("rand-read-4k-qd1", 1, 97)), "cpu-bound/warn"},
		{"cpu bound capped by cpus", runOf(0, 2, psync("rand-read-4k-qd32", 32, 190)), "cpu-bound/warn"},
		{"cpu busy but not bound", runOf(0, 2, psync("rand-read-4k-qd32", 32, 90)), ""},
		{"io_uring: one thread per job", runOf(0, 4, record.Test{Name: "rand-read-4k-qd32", Engine: "io_uring", QD: 32, Jobs: 1, CPUPct: 90}), "cpu-bound/warn"},
		{"throttled now", throttledRun("0x0", "0x50005"), "throttled-during-run/bad"},
		{"throttled only in the past", throttledRun("0x50000", "0x50000"), ""},
		{"bad sensor text", throttledRun("garbage", ""), ""},
		{"noisy", runOf(0, 0, record.Test{Name: "rand-write-4k-qd1", Noisy: true, CI95Pct: 12}), "noisy/info"},
		{"a burst the warm-up outlasted", runOf(0, 0, record.Test{Name: "seq-write-1m", MBPerS: 20, Burst: &record.Burst{S: 0.84, X: 3}}), "burst/info"},
		{"worst first", runOf(40, 0, record.Test{Name: "a", Noisy: true}, record.Test{Name: "b", MBPerS: 100}), "above-ceiling/bad noisy/info"},
	} {
		got := EvaluateRun(c.r)
		if got == nil {
			t.Fatalf("%s: nil findings; want an empty list", c.name)
		}
		if findingIDs(got) != c.want {
			t.Errorf("%s: findings %q, want %q", c.name, findingIDs(got), c.want)
		}
		for _, f := range got {
			if f.Message == "" || f.Fix == "" {
				t.Errorf("%s: finding %s lacks a message or a fix", c.name, f.ID)
			}
		}
	}
	if got := EvaluateRun(nil); got == nil || len(got) != 0 {
		t.Errorf("EvaluateRun(nil) = %#v, want an empty list", got)
	}
}

// TestCPUBoundSaysWhatWasUsed: the finding names each test's engine and threads, gives every
// share with its whole (cores, and one core), and suggests only what was not used: no
// "use io_uring" after io_uring, no governor change when it was performance.
func TestCPUBoundSaysWhatWasUsed(t *testing.T) {
	uring := runOf(0, 4, record.Test{Name: "rand-read-4k-qd32", Engine: "io_uring", QD: 32, Jobs: 1, CPUPct: 123})
	uring.Host.Governor = "performance"
	psync := runOf(0, 4, record.Test{Name: "rand-read-4k-qd1", Engine: "psync", QD: 1, Jobs: 1, CPUPct: 97})
	psync.Host.Governor = "ondemand"
	for _, c := range []struct {
		name          string
		r             *record.Run
		want, notWant []string
	}{
		{"io_uring, performance", uring,
			[]string{"rand-read-4k-qd32 (io_uring, 1 I/O thread): 1.23 CPU cores busy (123% of one core) of the 1 core it could use, the rest the kernel's work on its behalf", "io_uring was already used", "--jobs N"},
			[]string{"use io_uring", "governor", "of 100"}},
		{"psync, ondemand", psync,
			[]string{"rand-read-4k-qd1 (psync, 1 I/O thread): 0.97 CPU cores busy (97% of one core) of the 1 core it could use", "use io_uring", "(it was ondemand)"},
			[]string{"already used", "kernel's work"}},
	} {
		fs := cpuBound(c.r)
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings", c.name, len(fs))
		}
		text := fs[0].Message + " | " + fs[0].Fix
		t.Logf("%s:\n  %s\n  fix: %s", c.name, fs[0].Message, fs[0].Fix)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: lacks %q:\n%s", c.name, w, text)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(text, w) {
				t.Errorf("%s: says %q:\n%s", c.name, w, text)
			}
		}
	}
}
