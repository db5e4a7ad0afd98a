package server

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/record"
)

// TestPowerHealthNetworkShown: a result with power figures, drive health and a network copy
// shows them, small, on its page; one without shows none of the three sections.
func TestPowerHealthNetworkShown(t *testing.T) {
	ts := startUnlimited(t)
	rec := sampleRecord("pwr", "Samsung", "T7", "Pi 5", 300)
	w, j, local := 6.08, 20.3, 410.0
	rec.Power = &record.Power{Source: "pi5-pmic", Sensor: "Raspberry Pi 5 PMIC ADC", Scope: "the PMIC's rails"}
	rec.Tests[0].PowerW, rec.Tests[0].EnergyJPerGB = &w, &j
	used := 7
	rec.Health = &health.Health{Source: health.SourceNVMe, PercentageUsed: &used, CriticalWarnings: []string{}}
	rec.Tests[0].Network = &record.Network{ReceivedBytes: 10e9, MBPerS: 112.4, DriveMBPerS: 380, Limit: "network", Ended: "complete", LocalSustainedMBPerS: &local}
	ts.mustPost(t, rec)
	_, body := ts.get(t, "/result/pwr")
	for _, want := range []string{"Power", "pi5-pmic", "covers the PMIC&#39;s rails", "6.1", "20.3", "Drive health", "7% used",
		"Network copy", "112.4 MB/s over the network", "limited by the network", "410.0 MB/s"} {
		if !strings.Contains(body, want) {
			t.Errorf("result page lacks %q", want)
		}
	}
	plain := sampleRecord("plain", "Samsung", "T7", "Pi 5", 300)
	ts.mustPost(t, plain)
	_, body = ts.get(t, "/result/plain")
	for _, absent := range []string{`class="power"`, `class="health"`, `class="network"`} {
		if strings.Contains(body, absent) {
			t.Errorf("a result without it shows %s", absent)
		}
	}
}
