package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// dynamicPowersave are cpufreq drivers whose "powersave" policy still scales the frequency
// with load (intel_pstate and amd-pstate-epp in active mode), unlike the generic governor.
var dynamicPowersave = map[string]bool{"intel_pstate": true, "amd-pstate-epp": true}

// governorPowersave: the generic powersave governor pins the CPU at its lowest frequency,
// which caps fast drives (NVMe, USB 3 SSDs) and makes results incomparable.
func governorPowersave(r *probe.Report) []record.Finding {
	b := r.Board
	if b == nil || b.Governor != "powersave" || dynamicPowersave[b.CPUFreqDriver] {
		return nil
	}
	return one(record.Finding{
		ID:       "governor-powersave",
		Severity: record.SeverityWarn,
		Message:  "the CPU governor is powersave: the CPU stays at its lowest clock, which holds back fast drives",
		Fix:      "for the benchmark, switch to ondemand or performance: echo ondemand | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor",
		Evidence: fmt.Sprintf("scaling_governor=powersave, scaling_driver=%s", b.CPUFreqDriver),
	})
}
