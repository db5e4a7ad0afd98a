package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// On this bench the device is CPU work: the loop driver's kernel worker copies every request
// on the same cores the tools run on, so by default a row measures, besides the engine, how
// the scheduler places the tool's threads and the device's worker on those cores. Two options
// place them instead; both put the machine back when the bench ends, also on Ctrl-C.
//
// -split-cpus gives the device a CPU of its own. A real SSD does the device's work on its own
// controller. The kernel's unbound workqueues (the loop driver's among them) run only on the
// last CPU the bench may use, and the bench and both tools (which inherit its CPU mask) only
// on the others, so a row asks how well each tool keeps a device that works beside it busy.
//
// -one-cpu puts the tools and the device's workers on the first CPU the bench may use, as on a
// one-core board (a Raspberry Pi Zero or 1). Shared cores let the scheduler decide, run by
// run, whether a tool's thread and the device's worker share a core or wake each other across
// two; on a virtual machine a wake-up of the other, halted core goes through the hypervisor,
// and at QD1 that decides the row: 93-98k IOPS on one core, about 20k across two, and either
// on shared cores (docs/decisions.md, "The verdict places both tools alike"). On one core
// every tool gets the same placement, and a row measures what the tool costs beside what the
// device costs.

// workqueueMaskPath is where the kernel takes the CPUs its unbound workqueues may use.
const workqueueMaskPath = "/sys/devices/virtual/workqueue/cpumask"

// splitCPUs moves unbound workqueues (maskPath) onto the last CPU this process may run on and
// this process, with every thread it has and will have, onto the rest. It returns how to undo
// both and what the report says.
func splitCPUs(maskPath string) (restore func() error, state string, err error) {
	all, cpus, err := allowedCPUs("-split-cpus")
	if err != nil {
		return nil, "", err
	}
	if len(cpus) < 2 {
		return nil, "", fmt.Errorf("-split-cpus needs at least 2 CPUs, this process may use %d", len(cpus))
	}
	device, tools := cpus[len(cpus)-1], cpus[:len(cpus)-1]
	if restore, err = placeCPUs("-split-cpus", maskPath, all, device, tools); err != nil {
		return nil, "", err
	}
	return restore, fmt.Sprintf("device workers on CPU %d, the tools on CPU %s (-split-cpus)", device, cpuList(tools)), nil
}

// oneCPU moves unbound workqueues (maskPath) and this process, with every thread it has and
// will have, onto the first CPU this process may run on. It returns how to undo both and what
// the report says.
func oneCPU(maskPath string) (restore func() error, state string, err error) {
	all, cpus, err := allowedCPUs("-one-cpu")
	if err != nil {
		return nil, "", err
	}
	if restore, err = placeCPUs("-one-cpu", maskPath, all, cpus[0], cpus[:1]); err != nil {
		return nil, "", err
	}
	return restore, fmt.Sprintf("the tools and the device workers on CPU %d (-one-cpu)", cpus[0]), nil
}

// allowedCPUs is the CPU mask this process may use, and its CPUs in order.
func allowedCPUs(option string) (all unix.CPUSet, cpus []int, err error) {
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return all, nil, fmt.Errorf("%s: read this process's CPUs: %w", option, err)
	}
	for c := 0; c < len(all)*64; c++ {
		if all.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return all, cpus, nil
}

// placeCPUs puts unbound workqueues (maskPath) on device and this process's threads on tools,
// and returns how to put both back to maskPath's old content and all.
func placeCPUs(option, maskPath string, all unix.CPUSet, device int, tools []int) (restore func() error, err error) {
	var set unix.CPUSet
	for _, c := range tools {
		set.Set(c)
	}
	was, err := os.ReadFile(maskPath)
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w (run as root)", option, maskPath, err)
	}
	if err := os.WriteFile(maskPath, []byte(cpuMask(device)+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("%s: put the kernel's unbound workqueues on CPU %d (%s): %w", option, device, maskPath, err)
	}
	undoMask := restoreTo(maskPath, string(was), "the workqueue CPUs")
	if err := setThreadsAffinity(&set); err != nil {
		return nil, errors.Join(fmt.Errorf("%s: %w", option, err), undoMask())
	}
	return func() error { return errors.Join(setThreadsAffinity(&all), undoMask()) }, nil
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
