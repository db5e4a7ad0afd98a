package advice

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/record"
)

func findingIDs(fs []record.Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.ID+"/"+string(f.Severity))
	}
	return strings.Join(s, " ")
}

func TestHealthRules(t *testing.T) {
	n := func(v int) *int { return &v }
	u := func(v uint64) *uint64 { return &v }
	for name, tc := range map[string]struct {
		h    *health.Health
		want string
	}{
		"nothing reported":    {&health.Health{Source: health.SourceNone, Note: "SD cards report no health data"}, ""},
		"new nvme":            {&health.Health{Source: health.SourceNVMe, PercentageUsed: n(0), MediaErrors: u(0), CriticalWarnings: []string{}}, ""},
		"79% is not worn":     {&health.Health{Source: health.SourceATA, PercentageUsed: n(79)}, ""},
		"80% worn":            {&health.Health{Source: health.SourceATA, PercentageUsed: n(80)}, "health-worn/warn"},
		"spent":               {&health.Health{Source: health.SourceNVMe, PercentageUsed: n(104), CriticalWarnings: []string{}}, "health-worn/bad"},
		"emmc pre-EOL warn":   {&health.Health{Source: health.SourceEMMC, PercentageUsed: n(30), PreEOL: "warning"}, "health-worn/warn"},
		"emmc pre-EOL urgent": {&health.Health{Source: health.SourceEMMC, PreEOL: "urgent"}, "health-worn/bad"},
		"media errors":        {&health.Health{Source: health.SourceNVMe, MediaErrors: u(3), CriticalWarnings: []string{}}, "media-errors/warn"},
		"pending sectors":     {&health.Health{Source: health.SourceATA, PendingSectors: u(8), ReallocatedSectors: u(0)}, "media-errors/warn"},
		// smartmontools#537: a Samsung NVMe at 100% used raises reliability-degraded.
		"critical and worn": {&health.Health{Source: health.SourceNVMe, PercentageUsed: n(100), CriticalWarnings: []string{"reliability-degraded"}}, "health-critical/bad health-worn/bad"},
	} {
		got := findingIDs(EvaluateHealth(tc.h))
		if got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
	if f := EvaluateHealth(nil); f == nil || len(f) != 0 {
		t.Errorf("nil health: %v", f)
	}
	// A run's health is judged with its figures.
	r := &record.Run{Health: &health.Health{Source: health.SourceATA, CriticalWarnings: []string{"attribute-failing:Reallocated_Sector_Ct"}}}
	if got := findingIDs(EvaluateRun(r)); got != "health-critical/bad" {
		t.Errorf("run findings %q", got)
	}
	f := EvaluateHealth(&health.Health{Source: health.SourceATA, MediaErrors: u(2), ReallocatedSectors: u(5)})[0]
	if !strings.Contains(f.Evidence, "2 media errors") || !strings.Contains(f.Evidence, "5 reallocated") || f.Fix == "" {
		t.Errorf("media-errors evidence %q fix %q", f.Evidence, f.Fix)
	}
}
