package advice

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestPowerRules(t *testing.T) {
	b := func(th *probe.Throttle) *probe.Report {
		return &probe.Report{Board: &probe.Board{Throttled: th}}
	}
	src := "/sys/devices/platform/soc/soc:firmware/get_throttled"
	check(t, "under-voltage now", underVoltage, b(&probe.Throttle{Raw: "50005", Source: src, UnderVoltageNow: true, UnderVoltageOccurred: true}), "undervoltage:bad")
	check(t, "under-voltage since boot", underVoltage, b(&probe.Throttle{Raw: "50000", Source: src, UnderVoltageOccurred: true}), "undervoltage:warn")
	check(t, "rpi_volt alarm", underVoltage, b(&probe.Throttle{Source: "/sys/class/hwmon/hwmon1/in0_lcrit_alarm", UnderVoltageNow: true}), "undervoltage:bad")
	check(t, "all clear", underVoltage, b(&probe.Throttle{Raw: "0", Source: src}))
	check(t, "only throttled", underVoltage, b(&probe.Throttle{Raw: "40000", Source: src, ThrottledOccurred: true}))
	check(t, "not exposed", underVoltage, b(nil))
	check(t, "no board", underVoltage, &probe.Report{})

	check(t, "throttled now", throttled, b(&probe.Throttle{Raw: "4", Source: src, ThrottledNow: true}), "throttled:bad")
	check(t, "soft temperature limit now", throttled, b(&probe.Throttle{Raw: "8", Source: src, SoftTempLimitNow: true}), "throttled:bad")
	check(t, "capped since boot", throttled, b(&probe.Throttle{Raw: "20000", Source: src, FreqCappedOccurred: true}), "throttled:warn")
	check(t, "only under-voltage", throttled, b(&probe.Throttle{Raw: "10000", Source: src, UnderVoltageOccurred: true}))
	check(t, "all clear", throttled, b(&probe.Throttle{Raw: "0", Source: src}))
	check(t, "not exposed", throttled, b(nil))
}
