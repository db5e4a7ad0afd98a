package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// -split-cpus gives the device a CPU of its own. On this bench the device is CPU work: the loop
// driver's kernel worker copies every request on the same cores the tools run on, so by
// default a row measures, besides the engine, how the scheduler shares those cores between
// the tool's threads and the device. A real SSD does that work on its own controller. With
// -split-cpus the kernel's unbound workqueues (the loop driver's among them) run only on the
// last CPU the bench may use, and the bench and both tools (which inherit its CPU mask) only
// on the others, so a row asks how well each tool keeps a device that works beside it busy.
// Both settings are put back when the bench ends, also on Ctrl-C.

// workqueueMaskPath is where the kernel takes the CPUs its unbound workqueues may use.
const workqueueMaskPath = "/sys/devices/virtual/workqueue/cpumask"

// splitCPUs moves unbound workqueues (maskPath) onto the last CPU this process may run on and
// this process, with every thread it has and will have, onto the rest. It returns how to undo
// both and what the report says.
func splitCPUs(maskPath string) (restore func() error, state string, err error) {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return nil, "", fmt.Errorf("-split-cpus: read this process's CPUs: %w", err)
	}
	var cpus []int
	for c := 0; c < len(all)*64; c++ {
		if all.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	if len(cpus) < 2 {
		return nil, "", fmt.Errorf("-split-cpus needs at least 2 CPUs, this process may use %d", len(cpus))
	}
	device := cpus[len(cpus)-1]
	var tools unix.CPUSet
	for _, c := range cpus[:len(cpus)-1] {
		tools.Set(c)
	}
	was, err := os.ReadFile(maskPath)
	if err != nil {
		return nil, "", fmt.Errorf("-split-cpus: read %s: %w (run as root)", maskPath, err)
	}
	if err := os.WriteFile(maskPath, []byte(cpuMask(device)+"\n"), 0o644); err != nil {
		return nil, "", fmt.Errorf("-split-cpus: put the kernel's unbound workqueues on CPU %d (%s): %w", device, maskPath, err)
	}
	undoMask := restoreTo(maskPath, string(was), "the workqueue CPUs")
	if err := setThreadsAffinity(&tools); err != nil {
		return nil, "", errors.Join(fmt.Errorf("-split-cpus: %w", err), undoMask())
	}
	restore = func() error { return errors.Join(setThreadsAffinity(&all), undoMask()) }
	return restore, fmt.Sprintf("device workers on CPU %d, the tools on CPU %s (-split-cpus)", device, cpuList(cpus[:len(cpus)-1])), nil
}

// setThreadsAffinity sets the CPU mask of every thread of this process. Threads and processes
// started later inherit the mask of the thread that starts them.
func setThreadsAffinity(set *unix.CPUSet) error {
	tids, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tids {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		// ESRCH: the thread has ended since the directory was read.
		if err := unix.SchedSetaffinity(tid, set); err != nil && !errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("set the CPUs of thread %d: %w", tid, err)
		}
	}
	return nil
}

// cpuMask is the kernel's hex CPU mask with only cpu set: 32-bit groups, most significant
// first, separated by commas.
func cpuMask(cpu int) string {
	groups := make([]string, cpu/32+1)
	for i := range groups {
		groups[i] = "00000000"
	}
	groups[0] = fmt.Sprintf("%08x", uint32(1)<<(cpu%32))
	return strings.Join(groups, ",")
}

// cpuList is cpus as the report names them: "0" or "0,1,2".
func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}
