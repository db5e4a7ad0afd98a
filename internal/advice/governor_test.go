package advice

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestGovernorPowersave(t *testing.T) {
	g := func(gov, drv string) *probe.Report {
		return &probe.Report{Board: &probe.Board{Governor: gov, CPUFreqDriver: drv}}
	}
	check(t, "powersave on a Pi", governorPowersave, g("powersave", "cpufreq-dt"), "governor-powersave:warn")
	check(t, "powersave with acpi-cpufreq", governorPowersave, g("powersave", "acpi-cpufreq"), "governor-powersave:warn")
	check(t, "intel_pstate powersave is dynamic", governorPowersave, g("powersave", "intel_pstate"))
	check(t, "ondemand", governorPowersave, g("ondemand", "cpufreq-dt"))
	check(t, "no cpufreq", governorPowersave, g("", ""))
	check(t, "no board", governorPowersave, &probe.Report{})
}
