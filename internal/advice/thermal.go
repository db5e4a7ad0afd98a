package advice

import (
	"fmt"
	"math"

	"github.com/iomark/iomark/internal/record"
)

// Thermal heuristics of the sustained write: its cliff is put down to heat when the drive
// (else the SoC) is this hot at the cliff, or warmed this much since the write began. NVMe
// drives start throttling around 70-80 °C (their WCTEMP is commonly 70-85 °C).
const (
	thermalHotC  = 70
	thermalRiseC = 15
)

// thermalDrop: a sustained write fell off a cliff while the drive heated up.
func thermalDrop(r *record.Run) []record.Finding {
	for i := range r.Tests {
		t := &r.Tests[i]
		if !ThermalSuspect(r, t) {
			continue
		}
		s := t.Sustained
		ev := fmt.Sprintf("%s: rate fell %.0f%% after %.0f s", t.Name, s.DropPct, s.CliffAtS)
		if c := maxDriveTempC(r, t.Name); c > 0 {
			ev += fmt.Sprintf(", drive reached %.0f °C", c)
		}
		return one(record.Finding{ID: "thermal-drop", Severity: record.SeverityWarn,
			Message:  "the drive slowed down as it heated up during the sustained write: " + ev,
			Fix:      "give the drive airflow or a heatsink (thermal pad on the enclosure), or choose a drive with a metal body; long copies will run at the after-cliff rate",
			Evidence: ev})
	}
	return nil
}

// ThermalSuspect reports whether heat is a suspect for the cliff of test t's sustained write:
// the drive (else the SoC, when no drive temperature was read) was at least 70 °C, or had
// warmed at least 15 °C since the write began, by the cliff (2 s of slack for the sampling).
// Sensor samples count from the test's first one, which the runner takes within its
// one-second sampling interval of the write's start. False without a cliff or a temperature.
func ThermalSuspect(r *record.Run, t *record.Test) bool {
	if r == nil || t == nil || t.Sustained == nil || !t.Sustained.CliffFound {
		return false
	}
	temps := testTemps(r.Sensors, t.Name)
	if len(temps) == 0 {
		return false
	}
	first, near := temps[0].c, math.NaN()
	for _, s := range temps {
		if s.ts <= t.Sustained.CliffAtS+2 {
			near = s.c
		}
	}
	if math.IsNaN(near) {
		return false
	}
	return near >= thermalHotC || near-first >= thermalRiseC
}

// tempSample is a temperature (°C) at a time (seconds) since a test's first sensor sample.
type tempSample struct{ ts, c float64 }

// testTemps picks the drive temperature (else the SoC's) of test name's samples.
func testTemps(samples []record.SensorSample, name string) []tempSample {
	var drive, soc []tempSample
	start := math.NaN()
	for _, s := range samples {
		if s.Test != name {
			continue
		}
		if math.IsNaN(start) {
			start = s.TS
		}
		if s.DriveTempC != nil {
			drive = append(drive, tempSample{s.TS - start, *s.DriveTempC})
		}
		if s.SoCTempC != nil {
			soc = append(soc, tempSample{s.TS - start, *s.SoCTempC})
		}
	}
	if len(drive) > 0 {
		return drive
	}
	return soc
}

// maxDriveTempC is the hottest drive temperature sampled during test name; 0 when none was.
func maxDriveTempC(r *record.Run, name string) float64 {
	hottest := 0.0
	for _, s := range r.Sensors {
		if s.Test == name && s.DriveTempC != nil && *s.DriveTempC > hottest {
			hottest = *s.DriveTempC
		}
	}
	return hottest
}
