package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Where the machine's CPU went during a run, a second witness beside the device's counters
// and read over the same window. On the RAM-backed loop device a request costs CPU in three
// places: the tool's threads (preparing, submitting, reaping), the loop driver's worker (a
// kworker that copies the data) and the block softirq that completes the request (raised by
// the worker, so run by that CPU's ksoftirqd). On a machine with few cores the three compete
// for the same CPUs, so a tool's IOPS depend on how much of the machine it leaves idle as well
// as on its own cost per I/O. The table shows both; before it, such counts were taken by hand
// (docs/decisions.md, "The kernel referees latency at depth").
//
// The kernel accounts, per thread, the time it ran and the time it waited on a run queue
// (/proc/PID/task/TID/schedstat, Documentation/scheduler/sched-stats.rst), and, per machine,
// the time every CPU spent idle or in iowait (/proc/stat). Both are read at each end of the
// window. A thread born inside the window counts with its whole life; one that ends inside it
// is lost with its time (the kernel keeps no per-thread account of it).

// Thread classes, by who the thread is.
const (
	classTool    = "tool"    // the tool's processes: descendants of this bench
	classWorker  = "workers" // kernel workqueue threads (kworker/…), the loop driver's among them
	classSoftirq = "softirq" // ksoftirqd/N: softirqs raised outside interrupts, block completions among them
	classOther   = "other"   // everything else, this bench included
)

// threadTime is one thread's schedstat reading, ns.
type threadTime struct {
	class         string
	runNS, waitNS int64
}

// cpuReading is one reading of every thread's schedstat and of the machine's CPU time.
type cpuReading struct {
	threads map[string]threadTime // by "PID/TID"
	busy    int64                 // /proc/stat jiffies not idle or iowait, all CPUs
	idle    int64                 // idle + iowait jiffies, all CPUs
}

// readCPU reads every thread under procRoot (normally "/proc"), classed against the bench's
// own process bench: its descendants are the tool. A process or thread that exits while it
// is read is skipped.
func readCPU(procRoot string, bench int) (cpuReading, error) {
	r := cpuReading{threads: map[string]threadTime{}}
	var err error
	if r.busy, r.idle, err = readProcStat(filepath.Join(procRoot, "stat")); err != nil {
		return r, err
	}
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return r, err
	}
	type proc struct {
		comm string
		ppid int
	}
	procs := map[int]proc{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, ppid, err := readProcStatLine(filepath.Join(procRoot, e.Name(), "stat"))
		if err != nil {
			continue // gone
		}
		procs[pid] = proc{comm, ppid}
	}
	classOf := func(pid int) string {
		p := procs[pid]
		switch {
		case pid == bench:
			return classOther
		case p.ppid == 2 && strings.HasPrefix(p.comm, "ksoftirqd/"):
			return classSoftirq
		case p.ppid == 2 && strings.HasPrefix(p.comm, "kworker/"):
			return classWorker
		}
		// Walk up to the bench; the chain is short, and a cycle (a PID reused while read) ends
		// after as many steps as there are processes.
		for up, steps := p.ppid, 0; up > 1 && steps < len(procs); steps++ {
			if up == bench {
				return classTool
			}
			up = procs[up].ppid
		}
		return classOther
	}
	for pid := range procs {
		class := classOf(pid)
		tasks, err := os.ReadDir(filepath.Join(procRoot, strconv.Itoa(pid), "task"))
		if err != nil {
			continue
		}
		for _, t := range tasks {
			run, wait, err := readSchedstat(filepath.Join(procRoot, strconv.Itoa(pid), "task", t.Name(), "schedstat"))
			if err != nil {
				continue
			}
			r.threads[strconv.Itoa(pid)+"/"+t.Name()] = threadTime{class: class, runNS: run, waitNS: wait}
		}
	}
	if len(r.threads) == 0 {
		return r, fmt.Errorf("%s: no thread's schedstat could be read (a kernel without CONFIG_SCHED_INFO?)", procRoot)
	}
	return r, nil
}

// readProcStatLine reads a process's command name and parent from /proc/PID/stat. The name
// is in parentheses and may itself hold spaces and parentheses: the fields resume after the
// last ")".
func readProcStatLine(path string) (comm string, ppid int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", 0, err
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", 0, fmt.Errorf("%s: no command name in %.80q", path, s)
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 2 {
		return "", 0, fmt.Errorf("%s: too few fields in %.80q", path, s)
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return "", 0, fmt.Errorf("%s: parent: %w", path, err)
	}
	return s[open+1 : end], ppid, nil
}

// readSchedstat reads a thread's time on the CPU and waiting on a run queue, ns.
func readSchedstat(path string) (run, wait int64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, 0, fmt.Errorf("%s: %q is not \"run wait slices\"", path, b)
	}
	if run, err = strconv.ParseInt(f[0], 10, 64); err == nil {
		wait, err = strconv.ParseInt(f[1], 10, 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	return run, wait, nil
}

// readProcStat reads the all-CPUs line of /proc/stat: busy is user, nice, system, irq,
// softirq and steal; idle is idle and iowait (a CPU in iowait runs nothing either).
func readProcStat(path string) (busy, idle int64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, fmt.Errorf("%s: first line %.80q is not the all-CPUs line", path, line)
	}
	var v [8]int64
	for i := range v {
		if v[i], err = strconv.ParseInt(f[i+1], 10, 64); err != nil {
			return 0, 0, fmt.Errorf("%s: field %d: %w", path, i+1, err)
		}
	}
	const user, nice, system, idleF, iowait, irq, softirq, steal = 0, 1, 2, 3, 4, 5, 6, 7
	return v[user] + v[nice] + v[system] + v[irq] + v[softirq] + v[steal], v[idleF] + v[iowait], nil
}

// cpuWindow is where the CPU went between two readings, per request the device completed
// in the same window.
type cpuWindow struct {
	// ToolUS, WorkersUS, SoftirqUS and OtherUS are the CPU time each class of thread ran,
	// µs per request.
	ToolUS    float64 `json:"tool_us"`
	WorkersUS float64 `json:"workers_us"`
	SoftirqUS float64 `json:"softirq_us"`
	OtherUS   float64 `json:"other_us"`
	// DeviceWaitUS is the time the device's threads (workers and softirq) were ready to run
	// but waited for a CPU, µs per request, summed over threads.
	DeviceWaitUS float64 `json:"device_wait_us"`
	// IdleShare is the share of all CPUs' time spent idle or in iowait.
	IdleShare float64 `json:"idle_share"`
}

// cpuBetween is the window from a to b, for ios requests completed in it.
func cpuBetween(a, b cpuReading, ios int64) (cpuWindow, bool) {
	total := (b.busy - a.busy) + (b.idle - a.idle)
	if ios <= 0 || total <= 0 {
		return cpuWindow{}, false
	}
	run := map[string]int64{}
	var deviceWait int64
	for id, tb := range b.threads {
		ta, ok := a.threads[id]
		if !ok || ta.class != tb.class || tb.runNS < ta.runNS {
			// Born inside the window (or under a reused ID): its whole life lies in the
			// window. io_uring's workers (iou-wrk, threads of the tool's process) and the
			// kernel's kworkers are started on demand, so leaving them out would drop CPU
			// the run caused.
			ta = threadTime{}
		}
		run[tb.class] += tb.runNS - ta.runNS
		if tb.class == classWorker || tb.class == classSoftirq {
			deviceWait += tb.waitNS - ta.waitNS
		}
	}
	per := func(ns int64) float64 { return float64(ns) / 1e3 / float64(ios) }
	return cpuWindow{
		ToolUS: per(run[classTool]), WorkersUS: per(run[classWorker]), SoftirqUS: per(run[classSoftirq]),
		OtherUS: per(run[classOther]), DeviceWaitUS: per(deviceWait),
		IdleShare: float64(b.idle-a.idle) / float64(total),
	}, true
}
