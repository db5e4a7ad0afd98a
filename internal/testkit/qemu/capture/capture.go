package capture

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// maxFileBytes bounds one copied attribute: sysfs attributes are at most a page, binary ones
// (descriptors, ATA IDENTIFY) a few KiB.
const maxFileBytes = 64 << 10

// systemFiles are read by probe for every report (board.go, sensors.go, mounts.go, usb.go).
var systemFiles = []string{
	"/proc/cpuinfo", "/proc/meminfo", "/proc/version", "/proc/sys/kernel/osrelease", "/proc/sys/kernel/arch",
	"/etc/os-release", "/usr/lib/os-release",
	"/sys/firmware/devicetree/base/model", "/sys/firmware/devicetree/base/compatible",
	"/sys/firmware/devicetree/base/system/linux,revision",
	"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name",
	"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	"/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
	"/sys/module/usb_storage/parameters/quirks",
	"/sys/devices/platform/soc/soc:firmware/get_throttled",
}

// systemGlobs are families of the same (thermal zones, hwmon chips, CPUs).
var systemGlobs = []string{
	"/sys/class/thermal/thermal_zone*/type", "/sys/class/thermal/thermal_zone*/temp",
	"/sys/class/hwmon/hwmon*/name", "/sys/class/hwmon/hwmon*/in0_lcrit_alarm",
	"/sys/devices/system/cpu/cpu[0-9]*/uevent",
	"/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor",
	"/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_driver",
}

// skipFiles are attributes never read by probe that are large, binary or have side effects on
// some drivers when read.
var skipFiles = map[string]bool{
	"config": true, "rom": true, "vpd": true, "remove": true, "rescan": true, "reset": true,
	"new_id": true, "remove_id": true, "bind": true, "unbind": true, "uevent": true,
	"modalias": true, "trigger": true, "delete": true,
}

var (
	reResource = regexp.MustCompile(`^resource[0-9]*(_wc)?$`)
	reUSBRoot  = regexp.MustCompile(`^usb[0-9]+$`)
	reHwmon    = regexp.MustCompile(`^hwmon[0-9]*$`)
	reNVMeCtrl = regexp.MustCompile(`^nvme[0-9]+$`)
	reATAPort  = regexp.MustCompile(`^ata[0-9]+$`)
	reMMCHost  = regexp.MustCompile(`^mmc[0-9]+$`)
)

// Tree is one capture in progress.
type Tree struct {
	src, dst string
	done     map[string]bool
	// Files counts the attributes copied; Skipped lists what could not be read, for SOURCES.md.
	Files   int
	Skipped []string
}

// Capture copies what probe reads from the system under src ("/" for the live one) into dst.
func Capture(src, dst string) (*Tree, error) {
	if src == "" {
		src = "/"
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, fmt.Errorf("capture: create %s: %w", dst, err)
	}
	t := &Tree{src: filepath.Clean(src), dst: dst, done: map[string]bool{}}
	if _, err := os.Stat(t.in("/sys/block")); err != nil {
		return nil, fmt.Errorf("capture: %s has no /sys/block (is sysfs mounted?): %w", src, err)
	}
	for _, f := range systemFiles {
		t.copyPath(f)
	}
	// /proc/self is a link to the capturing process: keep the table, not the pid.
	t.copyFileAs("/proc/self/mountinfo", "/proc/self/mountinfo")
	for _, g := range systemGlobs {
		ms, _ := filepath.Glob(t.in(g))
		for _, m := range ms {
			t.copyPath(t.out(m))
		}
	}
	if err := t.blocks(); err != nil {
		return nil, err
	}
	return t, nil
}

// in maps a system path into the source tree, out maps it back.
func (t *Tree) in(abs string) string { return filepath.Join(t.src, abs) }
func (t *Tree) out(p string) string {
	rel, err := filepath.Rel(t.src, p)
	if err != nil {
		return p
	}
	return "/" + rel
}

// blocks copies every block device, its partitions and its walk up to /sys/devices.
func (t *Tree) blocks() error {
	ents, err := os.ReadDir(t.in("/sys/class/block"))
	if err != nil {
		return fmt.Errorf("capture: list %s: %w", t.in("/sys/class/block"), err)
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, "ram") {
			continue
		}
		t.copyPath("/sys/class/block/" + name)
		if _, err := os.Lstat(t.in("/sys/block/" + name)); err == nil {
			t.copyPath("/sys/block/" + name)
		}
		real, err := filepath.EvalSymlinks(t.in("/sys/class/block/" + name))
		if err != nil {
			continue
		}
		dir := t.out(real)
		t.copyDir(dir + "/queue")
		t.copyDir(dir + "/loop")
		t.copyDir(dir + "/dm")
		t.copyDir(dir + "/slaves")
		t.copyDir(dir + "/holders")
		if dev := readTrim(filepath.Join(real, "dev")); dev != "" {
			t.copyPath("/sys/dev/block/" + dev)
		}
		if card, err := filepath.EvalSymlinks(filepath.Join(real, "device")); err == nil {
			t.copyPath(dir + "/device")
			t.walkUp(t.out(card))
		}
		t.walkUp(dir)
	}
	return nil
}

// walkUp copies the attributes of dir and of each parent up to /sys/devices, with the
// neighbours probe looks at: driver links, of_node, hwmon chips, root hubs beside a USB
// device, libata's link and device objects, NVMe controllers of a subsystem, mmc debugfs.
func (t *Tree) walkUp(dir string) {
	for d := dir; strings.HasPrefix(d, "/sys/devices/"); d = filepath.Dir(d) {
		if t.done["up:"+d] {
			return
		}
		t.done["up:"+d] = true
		t.copyDir(d)
		base := filepath.Base(d)
		ents, _ := os.ReadDir(t.in(d))
		for _, e := range ents {
			n := e.Name()
			switch {
			case n == "driver" || n == "of_node" || n == "device" && !strings.HasPrefix(d, "/sys/devices/virtual/"):
				if n == "driver" {
					t.copyLinkOnly(d + "/driver")
				} else {
					t.copyPath(d + "/" + n)
					if n == "of_node" {
						if r, err := filepath.EvalSymlinks(t.in(d + "/of_node")); err == nil {
							t.copyDir(t.out(r))
						}
					}
				}
			case reHwmon.MatchString(n) || n == "hwmon":
				t.copyTree(d+"/"+n, 2)
			case reUSBRoot.MatchString(n) && e.IsDir():
				t.copyPath(d + "/" + n + "/speed")
			case reATAPort.MatchString(base) && strings.HasPrefix(n, "link") && e.IsDir():
				t.copyTree(d+"/"+n, 5)
			case reATAPort.MatchString(base) && n == "ata_port":
				t.copyTree(d+"/"+n, 2)
			case strings.HasPrefix(base, "nvme-subsys") && reNVMeCtrl.MatchString(n):
				t.copyPath(d + "/" + n)
				if r, err := filepath.EvalSymlinks(t.in(d + "/" + n)); err == nil {
					t.walkUp(t.out(r))
				}
			}
		}
		if base == "mmc_host" {
			continue
		}
		if reMMCHost.MatchString(base) && filepath.Base(filepath.Dir(d)) == "mmc_host" {
			t.copyPath("/sys/kernel/debug/" + base + "/ios")
		}
	}
}

// copyPath copies one path, recreating each symlink met on the way (relative targets kept)
// and following it, so the copy resolves as the source does.
func (t *Tree) copyPath(abs string) {
	abs = filepath.Clean(abs)
	if t.done[abs] {
		return
	}
	t.done[abs] = true
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	cur := "/"
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		fi, err := os.Lstat(t.in(cur))
		if err != nil {
			return
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(t.in(cur))
			if err != nil {
				return
			}
			if filepath.IsAbs(target) { // /proc/device-tree -> /sys/firmware/devicetree/base
				if r, err := filepath.Rel(filepath.Dir(cur), target); err == nil {
					target = r
				}
			}
			t.link(cur, target)
			resolved := filepath.Join(filepath.Dir(cur), target)
			rest := append([]string{resolved}, parts[i+1:]...)
			t.copyPath(filepath.Join(rest...))
			return
		}
		if i == len(parts)-1 {
			if fi.IsDir() {
				os.MkdirAll(filepath.Join(t.dst, cur), 0o755)
			} else if fi.Mode().IsRegular() {
				t.copyFile(cur)
			}
		}
	}
}

// copyLinkOnly keeps a link (a driver link names the driver by its last element) without
// copying what it points at.
func (t *Tree) copyLinkOnly(abs string) {
	if target, err := os.Readlink(t.in(abs)); err == nil {
		t.link(abs, target)
	}
}

// copyDir copies the regular files directly in dir and recreates its symlinks to directories
// that are already part of the walk (slaves, holders).
func (t *Tree) copyDir(dir string) {
	ents, err := os.ReadDir(t.in(dir))
	if err != nil {
		return
	}
	os.MkdirAll(filepath.Join(t.dst, dir), 0o755)
	for _, e := range ents {
		p := dir + "/" + e.Name()
		switch {
		case e.Type().IsRegular():
			if !skipFiles[e.Name()] && !reResource.MatchString(e.Name()) {
				t.copyPath(p)
			}
		case e.Type()&fs.ModeSymlink != 0 && (filepath.Base(dir) == "slaves" || filepath.Base(dir) == "holders"):
			t.copyPath(p)
		}
	}
}

// copyTree copies dir and its subdirectories to depth levels, files only plus driver links.
func (t *Tree) copyTree(dir string, depth int) {
	real, err := filepath.EvalSymlinks(t.in(dir))
	if err != nil {
		return
	}
	if real != t.in(dir) {
		t.copyPath(dir)
		dir = t.out(real)
	}
	t.copyDir(dir)
	if depth == 0 {
		return
	}
	ents, _ := os.ReadDir(t.in(dir))
	for _, e := range ents {
		if e.IsDir() && e.Name() != "power" && e.Name() != "subsystem" {
			t.copyTree(dir+"/"+e.Name(), depth-1)
		}
	}
}

func (t *Tree) link(abs, target string) {
	p := filepath.Join(t.dst, abs)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if cur, err := os.Readlink(p); err == nil && cur == target {
		return
	}
	os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		t.Skipped = append(t.Skipped, abs+": "+err.Error())
	}
}

// copyFile reads an attribute (a short read is how sysfs ends a file) and writes it under dst.
func (t *Tree) copyFile(abs string) { t.copyFileAs(abs, abs) }

func (t *Tree) copyFileAs(abs, as string) {
	f, err := os.Open(t.in(abs))
	if err != nil {
		t.Skipped = append(t.Skipped, abs)
		return
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
	if err != nil && !errors.Is(err, io.EOF) {
		t.Skipped = append(t.Skipped, abs)
		return
	}
	p := filepath.Join(t.dst, as)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Skipped = append(t.Skipped, abs+": "+err.Error())
		return
	}
	t.Files++
}

func readTrim(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
