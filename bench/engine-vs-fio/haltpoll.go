package main

import (
	"fmt"
	"os"
	"strconv"
)

// -halt-poll lets an idle virtual CPU poll for work before it halts. On a virtual machine
// whose guest halt-polling governor (haltpoll) is set to 0 ns, as on the lab VM, an idle
// vCPU halts at once, and waking it (a completion for a sleeping ring thread, a request for
// the device's sleeping worker) is a round trip through the hypervisor, which bare metal (a
// Pi, a PC) does not have. A tool whose threads sleep in their waits (iomark) pays that on
// every wake-up, one that rarely sleeps (fio) seldom does, so on such a VM a row measures the
// hypervisor besides the engine. The kernel's own default is to poll up to
// 200 µs (haltPollDefaultNS); -halt-poll sets that for the run and puts the old value back.
// On a machine without the driver (bare metal) there is nothing to set.

// haltPollPath is the driver's poll limit, ns.
const haltPollPath = "/sys/module/haltpoll/parameters/guest_halt_poll_ns"

// haltPollDefaultNS is the kernel's default poll limit (guest_halt_poll_ns in
// drivers/cpuidle/governors/haltpoll.c; Documentation/virt/guest-halt-polling.rst: while a
// vCPU polls, a wake-up needs no IPI and the vCPU no VM exit).
const haltPollDefaultNS = 200000

// pollBeforeHalt raises the guest halt-polling limit at path to the kernel's default for the
// run and returns how to put it back and what the report says. A limit already at or above
// the default is left alone; a machine without the driver needs nothing.
func pollBeforeHalt(path string) (restore func() error, state string, err error) {
	nothing := func() error { return nil }
	was, here, err := readSetting(path)
	if err != nil {
		return nothing, "", fmt.Errorf("-halt-poll: %w", err)
	}
	if !here {
		return nothing, "no guest halt-polling driver here (bare metal, or another cpuidle driver)", nil
	}
	ns, err := strconv.ParseInt(was, 10, 64)
	if err != nil {
		return nothing, "", fmt.Errorf("-halt-poll: %s holds %q, not a number of ns", path, was)
	}
	if ns >= haltPollDefaultNS {
		return nothing, fmt.Sprintf("idle vCPUs poll up to %d µs before they halt (as set)", ns/1000), nil
	}
	if err := os.WriteFile(path, []byte(strconv.Itoa(haltPollDefaultNS)+"\n"), 0o644); err != nil {
		return nothing, "", fmt.Errorf("-halt-poll: set %s to %d: %w (run as root)", path, haltPollDefaultNS, err)
	}
	return restoreTo(path, was, "guest halt polling"), fmt.Sprintf("idle vCPUs poll up to %d µs before they halt, the kernel's default, for the run (was %s ns; -halt-poll)",
		haltPollDefaultNS/1000, was), nil
}

// haltPollState is what the report says when the bench leaves the limit at path alone.
func haltPollState(path string) string {
	was, here, err := readSetting(path)
	if err == nil && !here {
		return "no guest halt-polling driver here"
	}
	ns, perr := strconv.ParseInt(was, 10, 64)
	if err != nil || perr != nil {
		return "unknown (" + path + " unreadable)"
	}
	return fmt.Sprintf("idle vCPUs poll up to %d µs before they halt, as the machine has it", ns/1000)
}
