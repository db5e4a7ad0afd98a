package stats

import (
	"math"
	"testing"
	"time"
)

func TestLatencyPercentiles(t *testing.T) {
	l := NewLatency()
	// 1..1000 µs, one each: p50 = 500 µs, p99 = 990 µs, max = 1000 µs.
	for i := 1; i <= 1000; i++ {
		l.Record(time.Duration(i) * time.Microsecond)
	}
	s := l.SummaryUS()
	check := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want)/want > 0.002 { // 3 significant digits
			t.Errorf("%s = %.2f µs, want %.2f µs", name, got, want)
		}
	}
	check("p50", s.P50, 500)
	check("p90", s.P90, 900)
	check("p99", s.P99, 990)
	check("p999", s.P999, 999)
	check("max", s.Max, 1000)
	check("min", s.Min, 1)
	check("mean", s.Mean, 500.5)
	if l.Count() != 1000 {
		t.Fatalf("count = %d, want 1000", l.Count())
	}
}

func TestLatencyMergeAndClamp(t *testing.T) {
	a, b := NewLatency(), NewLatency()
	a.Record(10 * time.Microsecond)
	b.Record(2 * time.Hour) // beyond the range: clamped, not lost
	b.Record(0)             // below the range: kept as the smallest value
	a.Merge(b)
	if a.Count() != 3 {
		t.Fatalf("count after merge = %d, want 3", a.Count())
	}
	if s := a.SummaryUS(); s.Max < float64(time.Hour/time.Microsecond)*0.999 {
		t.Errorf("max = %.0f µs, want about one hour", s.Max)
	}
	if s := NewLatency().SummaryUS(); s != (LatencySummaryUS{}) {
		t.Errorf("empty summary = %+v, want zeros", s)
	}
}
