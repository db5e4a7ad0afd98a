package engine

import (
	"math"
	"testing"
	"time"
)

// A window cuts the I/O in flight at each edge: the part inside it counts, so a drive of
// constant rate measures its rate whatever the phase of its I/O against the window.
func TestWindowEdgesCountTheirShare(t *testing.T) {
	const period = 52 * time.Millisecond // 1 MiB at about 20 MB/s, one at a time
	for _, phase := range []time.Duration{0, 13 * time.Millisecond, 40 * time.Millisecond, 51 * time.Millisecond} {
		r := &run{}
		m := newMeter(Write)
		t0, t1 := 250*time.Millisecond, 2250*time.Millisecond // a 2 s window after a 0.25 s ramp
		r.t0.Store(int64(t0))
		r.t1.Store(int64(t1))
		for start := phase; start < 3*time.Second; start += period {
			end := start + period
			switch {
			case end <= t0:
				r.phase.Store(phaseRamp)
			case end <= t1:
				r.phase.Store(phaseMeasure)
			default:
				r.phase.Store(phaseDone)
			}
			m.record(r, false, 1<<20, start, period)
		}
		got := float64(m.writeIOs) + m.writeEdge
		want := float64(t1-t0) / float64(period)
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("phase %v: %.4f I/Os in the window (%d whole), want %.4f", phase, got, m.writeIOs, want)
		}
	}
}
