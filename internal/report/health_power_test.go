package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/record"
)

// TestTerminalHealthAndPower: a run with health and power prints a health line, the power
// source with what it covers, and each test's watts and J/GB; a run without them prints none.
func TestTerminalHealthAndPower(t *testing.T) {
	run := sampleRun()
	used, hours := 12, uint64(3100)
	run.Health = &health.Health{Source: health.SourceNVMe, PercentageUsed: &used, PowerOnHours: &hours, CriticalWarnings: []string{}}
	run.Power = &record.Power{Source: "pi5-pmic", Sensor: "Raspberry Pi 5 PMIC ADC", Scope: "the PMIC's rails, not the 5 V of USB"}
	w, j := 6.08, 30.4
	run.Tests[0].PowerW, run.Tests[0].EnergyJPerGB = &w, &j
	var b bytes.Buffer
	if err := Terminal(&b, run, TermOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"health:  12% used, 3100 h on (nvme-smart-log)", "power:   pi5-pmic: Raspberry Pi 5 PMIC ADC",
		"covers the PMIC's rails, not the 5 V of USB", "6.1 W, 30 J/GB"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	b.Reset()
	if err := Terminal(&b, sampleRun(), TermOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "power") || strings.Contains(b.String(), "health:") {
		t.Errorf("a run without health or power mentions them:\n%s", b.String())
	}
}
