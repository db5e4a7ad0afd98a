package runner

import (
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestApplyPower(t *testing.T) {
	w := func(v float64) *float64 { return &v }
	rec := &record.Run{
		Power: &record.Power{Source: "hwmon", Scope: "test"},
		Tests: []record.Test{{Name: "seq-write-1m", MBPerS: 200}, {Name: "rand-read-4k-qd1", MBPerS: 0}, {Name: "quiet", MBPerS: 10}},
		Sensors: []record.SensorSample{
			{Test: "seq-write-1m", PowerW: w(5)}, {Test: "seq-write-1m", PowerW: w(7)},
			{Test: "", PowerW: w(3)}, // a rest between tests counts for none
			{Test: "rand-read-4k-qd1", PowerW: w(4)}, {Test: "rand-read-4k-qd1"},
		},
	}
	applyPower(rec)
	seq := rec.Tests[0]
	// 6 W at 200 MB/s = 0.2 GB/s: 30 J per GB.
	if seq.PowerW == nil || *seq.PowerW != 6 || seq.EnergyJPerGB == nil || *seq.EnergyJPerGB != 30 {
		t.Errorf("seq = %v W, %v J/GB", seq.PowerW, seq.EnergyJPerGB)
	}
	if r := rec.Tests[1]; r.PowerW == nil || *r.PowerW != 4 || r.EnergyJPerGB != nil {
		t.Errorf("a test that moved nothing has watts but no J/GB: %v, %v", r.PowerW, r.EnergyJPerGB)
	}
	if q := rec.Tests[2]; q.PowerW != nil {
		t.Errorf("a test without samples got %v W", *q.PowerW)
	}

	meter := 6.5
	rec = &record.Run{Power: &record.Power{Source: "meter", MeterWatts: &meter}, Tests: []record.Test{{Name: "a", MBPerS: 13}}}
	applyPower(rec)
	if a := rec.Tests[0]; *a.PowerW != 6.5 || *a.EnergyJPerGB != 500 {
		t.Errorf("meter: %v W, %v J/GB", *a.PowerW, *a.EnergyJPerGB)
	}
	rec = &record.Run{Tests: []record.Test{{Name: "a", MBPerS: 13}}, Sensors: []record.SensorSample{{Test: "a", PowerW: w(1)}}}
	applyPower(rec)
	if rec.Tests[0].PowerW != nil {
		t.Error("power without a source")
	}
}
