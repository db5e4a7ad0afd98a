package probe

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// hwmonTemp reads temp1_input (millidegrees Celsius) of the first hwmon under dir. The nvme and
// drivetemp hwmons ask the drive (a log page, SCT status), so the read is bounded by the timeout.
func hwmonTemp(o Options, dir string) *float64 {
	matches, _ := filepath.Glob(filepath.Join(dir, "hwmon", "hwmon*", "temp1_input"))
	more, _ := filepath.Glob(filepath.Join(dir, "hwmon*", "temp1_input"))
	for _, m := range append(matches, more...) {
		v, err := withTimeout(o.timeout(), func() (int64, error) {
			v, ok := readInt(m)
			if !ok {
				return 0, os.ErrNotExist
			}
			return v, nil
		})
		if err == nil {
			c := float64(v) / 1000
			return &c
		}
	}
	return nil
}

// socTemp reads the SoC temperature from the thermal zone the kernel names for the CPU
// (cpu-thermal on the Pi, x86_pkg_temp on Intel), else the first zone.
func socTemp(o Options) *float64 {
	zones, _ := filepath.Glob(o.path("/sys/class/thermal/thermal_zone*"))
	sort.Strings(zones)
	pick := ""
	for _, z := range zones {
		t := readString(filepath.Join(z, "type"))
		if t == "cpu-thermal" || t == "x86_pkg_temp" || t == "soc_thermal" || t == "cpu_thermal" {
			pick = z
			break
		}
	}
	if pick == "" && len(zones) > 0 {
		pick = zones[0]
	}
	if pick == "" {
		return nil
	}
	v, ok := readInt(filepath.Join(pick, "temp"))
	if !ok {
		return nil
	}
	c := float64(v) / 1000
	return &c
}

// throttledPaths are where Raspberry Pi kernels publish the firmware's get_throttled word
// (drivers/firmware/raspberrypi.c adds it to the firmware device).
var throttledPaths = []string{
	"/sys/devices/platform/soc/soc:firmware/get_throttled",
	"/sys/devices/platform/*firmware*/get_throttled",
	"/sys/devices/platform/*/*firmware*/get_throttled",
}

// readThrottle decodes get_throttled (bits documented for `vcgencmd get_throttled`):
// 0 under-voltage now, 1 ARM frequency capped now, 2 throttled now, 3 soft temperature limit
// now; bits 16-19 the same conditions since boot. Falls back to the rpi_volt hwmon alarm.
func readThrottle(o Options) *Throttle {
	for _, pat := range throttledPaths {
		ms, _ := filepath.Glob(o.path(pat))
		for _, m := range ms {
			raw := readString(m)
			v, err := strconv.ParseUint(strings.TrimPrefix(raw, "0x"), 16, 32)
			if raw == "" || err != nil {
				continue
			}
			bit := func(n uint) bool { return v&(1<<n) != 0 }
			return &Throttle{
				Raw: raw, Source: o.unroot(m),
				UnderVoltageNow: bit(0), FreqCappedNow: bit(1), ThrottledNow: bit(2), SoftTempLimitNow: bit(3),
				UnderVoltageOccurred: bit(16), FreqCappedOccurred: bit(17), ThrottledOccurred: bit(18), SoftTempLimitOccurred: bit(19),
			}
		}
	}
	hw, _ := filepath.Glob(o.path("/sys/class/hwmon/hwmon*"))
	for _, h := range hw {
		if readString(filepath.Join(h, "name")) != "rpi_volt" {
			continue
		}
		if v, ok := readInt(filepath.Join(h, "in0_lcrit_alarm")); ok {
			return &Throttle{Source: o.unroot(filepath.Join(h, "in0_lcrit_alarm")), UnderVoltageNow: v == 1}
		}
	}
	return nil
}

// readFirstExisting returns the content of the first readable path.
func readFirstExisting(paths ...string) string {
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			return strings.TrimSpace(strings.TrimRight(string(b), "\x00"))
		}
	}
	return ""
}
