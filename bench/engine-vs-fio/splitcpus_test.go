package main

import (
	"os"
	"path/filepath"
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

// TestSplitCPUs moves this test process off its last CPU and a stand-in workqueue mask onto
// it, and checks that restore puts both back; a thread started meanwhile (as the bench starts
// the tools) must inherit the tools' CPUs.
func TestSplitCPUs(t *testing.T) {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	mask := filepath.Join(t.TempDir(), "cpumask")
	if err := os.WriteFile(mask, []byte("ffffffff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	restore, state, err := splitCPUs(mask)
	if all.Count() < 2 {
		if err == nil || !strings.Contains(err.Error(), "at least 2 CPUs") {
			t.Fatalf("one CPU: err %v, want a refusal", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for c := 0; c < len(all)*64; c++ {
		if all.IsSet(c) {
			last = c
		}
	}
	if b, _ := os.ReadFile(mask); strings.TrimSpace(string(b)) != cpuMask(last) {
		t.Errorf("workqueue mask %q during the run, want %q (CPU %d)", b, cpuMask(last), last)
	}
	if !strings.Contains(state, "device workers on CPU "+strconv.Itoa(last)) {
		t.Errorf("state %q does not name CPU %d", state, last)
	}
	// A goroutine, on whichever thread of the process runs it, must not be allowed on the
	// device's CPU.
	got := make(chan unix.CPUSet)
	go func() {
		var s unix.CPUSet
		unix.SchedGetaffinity(0, &s)
		got <- s
	}()
	if s := <-got; s.IsSet(last) || s.Count() != all.Count()-1 {
		t.Errorf("a thread of the bench may run on %d CPUs including the device's (%v), want the %d others", s.Count(), s.IsSet(last), all.Count()-1)
	}
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

// TestOneCPU moves this test process and a stand-in workqueue mask onto the first CPU, and
// checks that restore puts both back; a thread started meanwhile must inherit the one CPU.
func TestOneCPU(t *testing.T) {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	first := -1
	for c := 0; c < len(all)*64 && first < 0; c++ {
		if all.IsSet(c) {
			first = c
		}
	}
	mask := filepath.Join(t.TempDir(), "cpumask")
	if err := os.WriteFile(mask, []byte("ffffffff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	restore, state, err := oneCPU(mask)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(mask); strings.TrimSpace(string(b)) != cpuMask(first) {
		t.Errorf("workqueue mask %q during the run, want %q (CPU %d)", b, cpuMask(first), first)
	}
	if !strings.Contains(state, "on CPU "+strconv.Itoa(first)) {
		t.Errorf("state %q does not name CPU %d", state, first)
	}
	got := make(chan unix.CPUSet)
	go func() {
		var s unix.CPUSet
		unix.SchedGetaffinity(0, &s)
		got <- s
	}()
	if s := <-got; !s.IsSet(first) || s.Count() != 1 {
		t.Errorf("a thread of the bench may run on %d CPUs (CPU %d among them: %v), want CPU %d alone", s.Count(), first, s.IsSet(first), first)
	}
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
