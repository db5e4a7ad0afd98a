package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The kernel's own account of a run, a witness that is neither tool: the block layer counts,
// for every request, the time from its creation to its end (/sys/block/DEV/stat, fields 4, 8
// and 11 of Documentation/admin-guide/iostats.rst, in ms summed over requests). Over a window
// inside the measured span that gives how many I/Os the device held on average and the mean
// time each spent there. A tool's mean latency minus the kernel's is the time its clock runs
// outside the device (preparing, submitting, waiting to be reaped); the device's average
// depth says how full the tool kept the queue the user asked for.

// devCounters is one reading of /sys/block/DEV/stat.
type devCounters struct {
	at        time.Time
	ios       int64 // reads + writes completed (requests)
	merged    int64 // reads + writes merged into a request already queued
	ticksMS   int64 // read ticks + write ticks: ms summed over completed requests
	inQueueMS int64 // time_in_queue: the same sum, flushes and discards included
}

// readDevCounters reads the stat file of the block device at dev (e.g. /dev/loop3), under
// sysRoot (normally "/sys").
func readDevCounters(sysRoot, dev string) (devCounters, error) {
	path := filepath.Join(sysRoot, "block", filepath.Base(dev), "stat")
	b, err := os.ReadFile(path)
	if err != nil {
		return devCounters{}, err
	}
	c, err := parseDevStat(string(b))
	if err != nil {
		return devCounters{}, fmt.Errorf("%s: %w", path, err)
	}
	c.at = time.Now()
	return c, nil
}

// parseDevStat reads the fields the witness needs from one stat line (11 fields on old
// kernels, 17 on 5.5+).
func parseDevStat(line string) (devCounters, error) {
	f := strings.Fields(line)
	if len(f) < 11 {
		return devCounters{}, fmt.Errorf("%d fields, want at least 11: %q", len(f), line)
	}
	var v [11]int64
	for i := range v {
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return devCounters{}, fmt.Errorf("field %d: %w", i+1, err)
		}
		v[i] = n
	}
	return devCounters{ios: v[0] + v[4], merged: v[1] + v[5], ticksMS: v[3] + v[7], inQueueMS: v[10]}, nil
}

// devWindow is what the kernel saw between two readings.
type devWindow struct {
	// IOPS is requests the device completed per second.
	IOPS float64 `json:"iops"`
	// HeldInDevice is how many requests the device held on average (iostat's aqu-sz).
	HeldInDevice float64 `json:"held_in_device"`
	// MeanUS is the mean time a completed request spent in the device, µs.
	MeanUS float64 `json:"mean_us"`
	// MergedShare is the share of the tools' I/Os the block layer merged into a request
	// already queued (adjacent sequential I/Os submitted together): those reach the device as
	// fewer, larger requests, so the per-request figures above no longer count the tool's I/Os.
	MergedShare float64 `json:"merged_share"`
	// WindowS is the length of the window, s.
	WindowS float64 `json:"window_s"`
}

// between is the window from a to b; ok is false when it is empty or the I/O count went
// back (the device was replaced).
func between(a, b devCounters) (w devWindow, ok bool) {
	dt := b.at.Sub(a.at)
	ios := b.ios - a.ios
	if dt <= 0 || ios <= 0 {
		return devWindow{}, false
	}
	// The kernel prints the ms sums as 32-bit unsigned integers, which wrap.
	ticks, inQueue := wrap32(b.ticksMS-a.ticksMS), wrap32(b.inQueueMS-a.inQueueMS)
	ms := float64(dt) / float64(time.Millisecond)
	return devWindow{
		IOPS:         float64(ios) / dt.Seconds(),
		MergedShare:  float64(b.merged-a.merged) / float64(ios+b.merged-a.merged),
		HeldInDevice: float64(inQueue) / ms,
		MeanUS:       float64(ticks) * 1e3 / float64(ios),
		WindowS:      dt.Seconds(),
	}, true
}

func wrap32(d int64) int64 { return d & (1<<32 - 1) }

// window is the part of a run both kernel witnesses read (the counters here, the trace with
// -trace), counted from the run's start: from half a second after the ramp (fio takes a few
// hundred ms to start its jobs) to 0.3 s before the end, so neither start-up nor drain is in
// it. Ramp and runtime are whole seconds, so both ends fall on the tracer's 100 ms ticks.
func window(o options) (from, to time.Duration) {
	return o.ramp + 500*time.Millisecond, o.ramp + o.runtime - 300*time.Millisecond
}

// devWatch reads the device's counters over the window of a run that starts now.
// With it, the same two instants read where the machine's CPU went (see cpustat.go); that
// second witness is optional: a kernel without per-thread schedstat leaves it out.
type devWatch struct {
	done chan struct{}
	stop chan struct{}
	w    devWindow
	cpu  *cpuWindow
	err  error
}

func watchDevice(dev string, o options) *devWatch {
	d := &devWatch{done: make(chan struct{}), stop: make(chan struct{})}
	from, to := window(o)
	go func() {
		defer close(d.done)
		start := time.Now()
		var cpuErr error
		read := func(at time.Duration) (devCounters, cpuReading, bool) {
			select {
			case <-time.After(time.Until(start.Add(at))):
			case <-d.stop:
				d.err = fmt.Errorf("the run ended before the device's counters were read")
				return devCounters{}, cpuReading{}, false
			}
			c, err := readDevCounters("/sys", dev)
			if err != nil {
				d.err = err
				return devCounters{}, cpuReading{}, false
			}
			cpu, err := readCPU("/proc", os.Getpid())
			if err != nil {
				cpuErr = err
			}
			return c, cpu, true
		}
		a, cpuA, ok := read(from)
		if !ok {
			return
		}
		b, cpuB, ok := read(to)
		if !ok {
			return
		}
		if d.w, ok = between(a, b); !ok {
			d.err = fmt.Errorf("%s: no I/O counted between %v and %v of the run", dev, from, to)
			return
		}
		if cpuErr != nil {
			cpuWarning.Do(func() { logf("where the CPU went is left out: %v", cpuErr) })
			return
		}
		if w, ok := cpuBetween(cpuA, cpuB, b.ios-a.ios); ok {
			d.cpu = &w
		}
	}()
	return d
}

// cpuWarning says once per bench that the CPU witness could not be read.
var cpuWarning sync.Once

// result waits for the readings (the run has ended: a reading still due is given up).
func (d *devWatch) result() (devWindow, *cpuWindow, error) {
	close(d.stop)
	<-d.done
	return d.w, d.cpu, d.err
}
