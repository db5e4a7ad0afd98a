package power

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe"
)

// monitors are the hwmon drivers that measure a supply rail, by the name their hwmon device
// carries, with how their figures are exported (Linux Documentation/hwmon/<driver>.rst). Only
// these are read: other hwmon devices with power attributes measure something else (a GPU's
// own draw, a CPU package estimate) and would be wrong as the board's power.
var monitors = map[string]monitorKind{
	// ina2xx.rst: in0 shunt voltage, in1 bus voltage (mV), curr1 (mA), power1 (µW).
	"ina219": powerAttr, "ina220": powerAttr, "ina226": powerAttr, "ina230": powerAttr,
	"ina231": powerAttr, "ina260": powerAttr,
	"ina209": powerAttr, // ina209.rst: power1_input (µW)
	"ina238": powerAttr, // ina238.rst: power1_input (µW)
	"ina233": powerAttr, // pmbus.rst / ina233: power1_input (µW)
	// ina3221.rst: three channels, in[1-3]_input bus voltage (mV), curr[1-3]_input (mA), no
	// power attribute: power is volts times amps per channel.
	"ina3221": channelsVI,
	// ltc2945.rst, ltc4215.rst, ltc4222.rst: hot-swap controllers with power1_input (µW).
	"ltc2945": powerAttr, "ltc4215": powerAttr, "ltc4222": powerAttr,
	// ltc4151.rst: in1 (bus, mV), curr1 (mA), no power attribute.
	"ltc4151": channelsVI,
	// pmbus.rst: PMBus hot-swap and power monitors export power1_input (µW).
	"adm1275": powerAttr, "adm1276": powerAttr, "adm1278": powerAttr, "lm25066": powerAttr,
	"tps25990": powerAttr,
}

type monitorKind int

const (
	powerAttr  monitorKind = iota // powerN_input in µW
	channelsVI                    // inN_input (mV) × currN_input (mA) per channel
)

// inputLabel marks a channel that measures the board's input, which already includes every
// other rail (e.g. Jetson's INA3221 "VDD_IN"): when one is labelled so, it is read alone.
var inputLabel = regexp.MustCompile(`(?i)^(vdd_in|vin|v_in|input|board|sys_in|vbus|5v_in|total)$`)

// hwmonSampler reads one monitor's channels.
type hwmonSampler struct {
	o        probe.Options
	dir      string
	name     string
	kind     monitorKind
	channels []int
}

// findHwmon returns the first known power monitor that answers (by hwmon number), or nil.
func findHwmon(o probe.Options) Sampler {
	dirs, _ := filepath.Glob(o.Path("/sys/class/hwmon/hwmon*"))
	sort.Slice(dirs, func(i, j int) bool { return hwmonNum(dirs[i]) < hwmonNum(dirs[j]) })
	for _, d := range dirs {
		name := readTrim(filepath.Join(d, "name"))
		kind, ok := monitors[name]
		if !ok {
			continue
		}
		s := &hwmonSampler{o: o, dir: d, name: name, kind: kind, channels: channelsOf(d, kind)}
		if len(s.channels) == 0 {
			continue
		}
		if _, ok := s.Watts(); ok {
			return s
		}
	}
	return nil
}

func hwmonNum(dir string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "hwmon"))
	return n
}

// channelsOf lists the channels with a reading, or only the input channel when one is
// labelled as the board's input.
func channelsOf(dir string, kind monitorKind) []int {
	var chans []int
	for n := 1; n <= 8; n++ {
		var present bool
		switch kind {
		case powerAttr:
			present = exists(filepath.Join(dir, fmt.Sprintf("power%d_input", n)))
		case channelsVI:
			present = exists(filepath.Join(dir, fmt.Sprintf("curr%d_input", n))) && exists(filepath.Join(dir, fmt.Sprintf("in%d_input", n)))
			// ina3221: a disabled channel reads as absent or its enable file says 0.
			if v := readTrim(filepath.Join(dir, fmt.Sprintf("in%d_enable", n))); v == "0" {
				present = false
			}
		}
		if !present {
			continue
		}
		if inputLabel.MatchString(readTrim(filepath.Join(dir, labelFile(kind, n)))) {
			return []int{n}
		}
		chans = append(chans, n)
	}
	return chans
}

func labelFile(kind monitorKind, n int) string {
	if kind == powerAttr {
		return fmt.Sprintf("power%d_label", n)
	}
	return fmt.Sprintf("in%d_label", n)
}

// Watts sums the channels: powerN_input (µW), or inN_input (mV) × currN_input (mA). A read
// that blocks (an I2C bus in trouble) is abandoned at the probe timeout.
func (s *hwmonSampler) Watts() (float64, bool) {
	w, err := probe.WithTimeout(s.o.ProbeTimeout(), func() (float64, error) {
		total := 0.0
		for _, n := range s.channels {
			switch s.kind {
			case powerAttr:
				uw, ok := readNum(filepath.Join(s.dir, fmt.Sprintf("power%d_input", n)))
				if !ok {
					return 0, os.ErrNotExist
				}
				total += uw / 1e6
			case channelsVI:
				mv, okV := readNum(filepath.Join(s.dir, fmt.Sprintf("in%d_input", n)))
				ma, okI := readNum(filepath.Join(s.dir, fmt.Sprintf("curr%d_input", n)))
				if !okV || !okI {
					return 0, os.ErrNotExist
				}
				total += mv / 1e3 * ma / 1e3
			}
		}
		return total, nil
	})
	if err != nil || w < 0 || w > 10000 {
		return 0, false
	}
	return w, true
}

func (s *hwmonSampler) Info() Info {
	var chans []string
	for _, n := range s.channels {
		c := fmt.Sprintf("channel %d", n)
		if l := readTrim(filepath.Join(s.dir, labelFile(s.kind, n))); l != "" {
			c += " (" + l + ")"
		}
		chans = append(chans, c)
	}
	scope := "the rail the " + s.name + " is wired into"
	if len(s.channels) > 1 {
		scope = "the sum of the " + s.name + "'s channels (each a rail it is wired into; rails that feed one another would count twice)"
	}
	return Info{Source: "hwmon", Sensor: fmt.Sprintf("%s %s %s", s.name, filepath.Base(s.dir), strings.Join(chans, ", ")), Scope: scope}
}

func readTrim(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func readNum(p string) (float64, bool) {
	v, err := strconv.ParseFloat(readTrim(p), 64)
	return v, err == nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
