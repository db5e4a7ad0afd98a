package advice

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// sustainedRun is a sustained write whose rate fell 60% at cliffAtS, with one sensor sample
// a second from runStartS (seconds into the run) holding the given drive temperatures.
func sustainedRun(cliff bool, cliffAtS, runStartS float64, driveC ...float64) *record.Run {
	r := &record.Run{Tests: []record.Test{{Name: "sustained-write-1m",
		Sustained: &record.Sustained{CliffFound: cliff, CliffAtS: cliffAtS, DropPct: 60}}}}
	// A sample of another test before it must not count.
	hot := 99.0
	r.Sensors = append(r.Sensors, record.SensorSample{TS: runStartS - 1, Test: "seq-read-1m", DriveTempC: &hot})
	for i := range driveC {
		r.Sensors = append(r.Sensors, record.SensorSample{TS: runStartS + float64(i), Test: "sustained-write-1m", DriveTempC: &driveC[i]})
	}
	return r
}

func TestThermalDrop(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *record.Run
		want string
	}{
		{"hot at the cliff", sustainedRun(true, 3, 100, 40, 55, 65, 72, 75), "thermal-drop/warn"},
		{"warmed 15 °C by the cliff", sustainedRun(true, 2, 100, 30, 38, 46, 50), "thermal-drop/warn"},
		{"cool at the cliff, hot long after", sustainedRun(true, 1, 100, 40, 41, 42, 43, 44, 45, 46, 80), ""},
		{"hot but no cliff", sustainedRun(false, 0, 100, 80, 85), ""},
		{"no temperature", sustainedRun(true, 3, 100), ""},
	} {
		got := findingIDs(EvaluateRun(c.r))
		if got != c.want {
			t.Errorf("%s: findings %q, want %q", c.name, got, c.want)
		}
	}
	f := thermalDrop(sustainedRun(true, 3, 100, 40, 55, 65, 72, 75))
	if len(f) != 1 || !strings.Contains(f[0].Evidence, "75 °C") || !strings.Contains(f[0].Evidence, "60%") {
		t.Errorf("evidence should name the drop and the hottest reading: %+v", f)
	}
}

func TestThermalSuspectFallsBackToTheSoC(t *testing.T) {
	r := sustainedRun(true, 2, 10)
	for i, c := range []float64{50, 62, 71} {
		r.Sensors = append(r.Sensors, record.SensorSample{TS: 10 + float64(i), Test: "sustained-write-1m", SoCTempC: &c})
	}
	if !ThermalSuspect(r, &r.Tests[0]) {
		t.Error("a SoC at 71 °C by the cliff, with no drive temperature, is not suspected")
	}
	if ThermalSuspect(r, nil) || ThermalSuspect(nil, &r.Tests[0]) {
		t.Error("nil run or test suspected")
	}
}
