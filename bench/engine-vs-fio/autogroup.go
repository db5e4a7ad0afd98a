package main

import (
	"fmt"
	"os"
)

// Linux's autogroup scheduling (kernel.sched_autogroup_enabled, on by default in Debian)
// shares CPU between sessions before it shares it between tasks. fio calls setsid() in every
// job process it forks, so each fio job is a session of its own, while iomark's jobs are
// threads of one session: with autogroup on, fio's 32 psync jobs held 32 shares of the CPU
// against one for iomark's 32 threads. On this bench the device itself is a kernel thread (the
// loop driver's worker) competing for the same cores, so those shares decide who waits: with
// autogroup on, iomark's psync threads waited on the run queue 74% of the time against fio's
// 38%, and its p99 was twice fio's; with it off, the two tools' p50 and p99 agreed within 5%
// (docs/decisions.md, "The kernel referees latency at depth"). So the bench turns autogroup
// off while it runs, and puts it back as it was.

// autogroupPath is the switch, under /proc.
const autogroupPath = "/proc/sys/kernel/sched_autogroup_enabled"

// levelScheduling turns autogroup off at path and returns how to put it back and what the
// report says about it. A kernel without autogroup (no file) needs nothing.
func levelScheduling(path string) (restore func() error, state string, err error) {
	nothing := func() error { return nil }
	was, here, err := readSetting(path)
	switch {
	case err != nil:
		return nothing, "", err
	case !here:
		return nothing, "not in this kernel", nil
	case was == "0":
		return nothing, "off", nil
	}
	if err := os.WriteFile(path, []byte("0\n"), 0o644); err != nil {
		return nothing, "", fmt.Errorf("turn autogroup scheduling off (%s): %w; run as root, or pass -keep-autogroup", path, err)
	}
	return restoreTo(path, was, "autogroup scheduling"), "off for the run (was " + was + ")", nil
}
