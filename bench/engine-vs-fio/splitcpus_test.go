package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestCPUMask(t *testing.T) {
	for cpu, want := range map[int]string{0: "00000001", 1: "00000002", 31: "80000000", 33: "00000002,00000000"} {
		if got := cpuMask(cpu); got != want {
			t.Errorf("cpuMask(%d) = %q, want %q", cpu, got, want)
		}
	}
}

// placementFixture is this test process's CPUs and a stand-in workqueue mask file, for the
// placement options to change and put back.
func placementFixture(t *testing.T) (all unix.CPUSet, cpus []int, mask string) {
	t.Helper()
	all, cpus, err := allowedCPUs("test")
	if err != nil {
		t.Fatal(err)
	}
	return all, cpus, writeSetting(t, t.TempDir(), "cpumask", "ffffffff\n")
}

// newThreadCPUs is the CPU mask a goroutine sees, on whichever thread of the process runs it:
// the mask the bench's tools will inherit.
func newThreadCPUs() unix.CPUSet {
	got := make(chan unix.CPUSet)
	go func() {
		var s unix.CPUSet
		unix.SchedGetaffinity(0, &s)
		got <- s
	}()
	return <-got
}

// checkPutBack runs restore and checks that the mask file and this thread's CPUs are as they
// were before the option changed them.
func checkPutBack(t *testing.T, restore func() error, mask string, all unix.CPUSet) {
	t.Helper()
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(mask); string(b) != "ffffffff\n" {
		t.Errorf("workqueue mask %q after the run, want it as it was", b)
	}
	var after unix.CPUSet
	if err := unix.SchedGetaffinity(0, &after); err != nil || after != all {
		t.Errorf("after restore this thread may use %d CPUs, want %d (%v)", after.Count(), all.Count(), err)
	}
}

// TestSplitCPUs moves this test process off its last CPU and a stand-in workqueue mask onto
// it, and checks that restore puts both back; a thread started meanwhile (as the bench starts
// the tools) must inherit the tools' CPUs.
func TestSplitCPUs(t *testing.T) {
	all, cpus, mask := placementFixture(t)
	restore, state, err := splitCPUs(mask)
	if len(cpus) < 2 {
		if err == nil || !strings.Contains(err.Error(), "at least 2 CPUs") {
			t.Fatalf("one CPU: err %v, want a refusal", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	last := cpus[len(cpus)-1]
	if b, _ := os.ReadFile(mask); strings.TrimSpace(string(b)) != cpuMask(last) {
		t.Errorf("workqueue mask %q during the run, want %q (CPU %d)", b, cpuMask(last), last)
	}
	if !strings.Contains(state, "device workers on CPU "+strconv.Itoa(last)) {
		t.Errorf("state %q does not name CPU %d", state, last)
	}
	if s := newThreadCPUs(); s.IsSet(last) || s.Count() != len(cpus)-1 {
		t.Errorf("a thread of the bench may run on %d CPUs including the device's (%v), want the %d others", s.Count(), s.IsSet(last), len(cpus)-1)
	}
	checkPutBack(t, restore, mask, all)
}

// TestOneCPU moves this test process and a stand-in workqueue mask onto the first CPU, and
// checks that restore puts both back; a thread started meanwhile must inherit the one CPU.
func TestOneCPU(t *testing.T) {
	all, cpus, mask := placementFixture(t)
	restore, state, err := oneCPU(mask)
	if err != nil {
		t.Fatal(err)
	}
	first := cpus[0]
	if b, _ := os.ReadFile(mask); strings.TrimSpace(string(b)) != cpuMask(first) {
		t.Errorf("workqueue mask %q during the run, want %q (CPU %d)", b, cpuMask(first), first)
	}
	if !strings.Contains(state, "on CPU "+strconv.Itoa(first)) {
		t.Errorf("state %q does not name CPU %d", state, first)
	}
	if s := newThreadCPUs(); !s.IsSet(first) || s.Count() != 1 {
		t.Errorf("a thread of the bench may run on %d CPUs (CPU %d among them: %v), want CPU %d alone", s.Count(), first, s.IsSet(first), first)
	}
	checkPutBack(t, restore, mask, all)
}
