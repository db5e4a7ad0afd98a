package probe

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe/pirev"
	"golang.org/x/sys/unix"
)

// ReadBoard describes the machine: model, Pi revision, sensors, governor, kernel and OS.
func ReadBoard(o Options) *Board {
	b := &Board{}
	b.Model = readFirstExisting(o.path("/sys/firmware/devicetree/base/model"), o.path("/proc/device-tree/model"))
	if b.Model == "" { // PCs: DMI
		vendor := readString(o.path("/sys/class/dmi/id/sys_vendor"))
		product := readString(o.path("/sys/class/dmi/id/product_name"))
		b.Model = strings.TrimSpace(vendor + " " + product)
	}
	cpuinfo := readCPUInfo(o)
	if code, ok := piRevision(o, cpuinfo); ok {
		b.Revision = fmt.Sprintf("%x", code)
		if strings.Contains(b.Model, "Raspberry Pi") || b.Model == "" {
			if r, err := pirev.Decode(code); err == nil {
				b.Pi = &PiInfo{Type: r.Type, BoardRevision: r.BoardRevision, MemoryMB: r.MemoryMB,
					Manufacturer: r.Manufacturer, Processor: r.Processor}
				if b.Model == "" {
					b.Model = r.Model
				}
			}
		}
	}
	b.SoCTempC = socTemp(o)
	b.Throttled = readThrottle(o)
	b.Governor = readString(o.path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"))
	b.CPUFreqDriver = readString(o.path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver"))
	b.Kernel = kernelRelease(o)
	b.Arch = kernelArch(o)
	b.OS = osRelease(o)
	b.MemoryBytes = memTotal(o)
	b.CPUs = countCPUs(o)
	return b
}

// piRevision reads the revision code from the device tree (system/linux,revision, a big-endian
// u32 the firmware fills), else from the "Revision" line Pi kernels add to /proc/cpuinfo.
func piRevision(o Options, cpuinfo map[string]string) (uint32, bool) {
	for _, p := range []string{"/sys/firmware/devicetree/base/system/linux,revision", "/proc/device-tree/system/linux,revision"} {
		if b, err := os.ReadFile(o.path(p)); err == nil && len(b) == 4 {
			return binary.BigEndian.Uint32(b), true
		}
	}
	if s := cpuinfo["Revision"]; s != "" {
		v, err := strconv.ParseUint(s, 16, 32)
		if err == nil && v != 0 {
			return uint32(v), true
		}
	}
	return 0, false
}

// readCPUInfo returns the last value of each "key : value" line of /proc/cpuinfo.
func readCPUInfo(o Options) map[string]string {
	out := map[string]string{}
	f, err := os.Open(o.path("/proc/cpuinfo"))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// kernelRelease is /proc/sys/kernel/osrelease, else the release in /proc/version ("Linux
// version 6.1.0-56-amd64 (debian-kernel@…) …"), which is what a tree given to --root often
// carries instead.
func kernelRelease(o Options) string {
	if s := readString(o.path("/proc/sys/kernel/osrelease")); s != "" {
		return s
	}
	f := strings.Fields(readString(o.path("/proc/version")))
	if len(f) >= 3 && f[0] == "Linux" && f[1] == "version" {
		return f[2]
	}
	return ""
}

// kernelArch is the kernel's machine name, as uname -m prints it (x86_64, aarch64, armv7l,
// riscv64): the results server ranks a board it does not know by it, an x86 machine among PCs.
// It is the kernel's, not this program's: a 32-bit iomark on a 64-bit Pi still says aarch64.
// Kernels without the sysctl file (it is recent) leave it to uname on the live system.
func kernelArch(o Options) string {
	if s := readString(o.path("/proc/sys/kernel/arch")); s != "" {
		return s
	}
	if !o.live() {
		return ""
	}
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Machine[:])
}

// osRelease reads PRETTY_NAME from os-release (etc first, then usr/lib, as os-release(5) says).
func osRelease(o Options) string {
	for _, p := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		b, err := os.ReadFile(o.path(p))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				return strings.Trim(strings.TrimSpace(v), `"'`)
			}
		}
	}
	return ""
}

func memTotal(o Options) uint64 {
	b, err := os.ReadFile(o.path("/proc/meminfo"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(v)
			if len(f) >= 1 {
				kb, err := strconv.ParseUint(f[0], 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

var reCPU = regexp.MustCompile(`^cpu[0-9]+$`)

func countCPUs(o Options) int {
	ents, err := os.ReadDir(o.path("/sys/devices/system/cpu"))
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if reCPU.MatchString(e.Name()) {
			n++
		}
	}
	return n
}
