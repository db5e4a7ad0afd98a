package runner

import (
	"github.com/iomark/iomark/internal/record"
)

// applyPower gives each test its mean power and energy per GB moved: the mean of the power
// samples taken while the test ran (warm-up and repetitions; the rests between tests are
// labelled with no test), or the meter reading the user typed. Energy per GB is that power
// divided by the test's rate in GB/s: the joules one 10^9 bytes cost at the reported rate.
func applyPower(rec *record.Run) {
	if rec.Power == nil {
		return
	}
	for i := range rec.Tests {
		t := &rec.Tests[i]
		var w float64
		switch {
		case rec.Power.MeterWatts != nil:
			w = *rec.Power.MeterWatts
		default:
			sum, n := 0.0, 0
			for _, s := range rec.Sensors {
				if s.Test == t.Name && s.PowerW != nil {
					sum += *s.PowerW
					n++
				}
			}
			if n == 0 {
				continue
			}
			w = sum / float64(n)
		}
		t.PowerW = &w
		if t.MBPerS > 0 {
			j := w / (t.MBPerS / 1000)
			t.EnergyJPerGB = &j
		}
	}
}
