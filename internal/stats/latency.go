package stats

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Latency range recorded exactly enough: 1 ns to 1 hour at 3 significant digits (0.1%).
// Slower I/O than an hour is clamped to the top rather than dropped.
const (
	latencyLowestNS  = 1
	latencyHighestNS = int64(time.Hour)
	latencySigFigs   = 3
)

// Latency is a latency histogram in nanoseconds. It is not safe for concurrent use: give each
// I/O goroutine its own and Merge them at the end, so the hot path takes no lock.
type Latency struct {
	h *hdr.Histogram
}

// NewLatency returns an empty histogram (about 270 KB).
func NewLatency() *Latency {
	return &Latency{h: hdr.New(latencyLowestNS, latencyHighestNS, latencySigFigs)}
}

// Record adds one latency.
func (l *Latency) Record(d time.Duration) {
	ns := int64(d)
	if ns < 1 {
		ns = 1
	}
	if ns > latencyHighestNS {
		ns = latencyHighestNS
	}
	_ = l.h.RecordValue(ns) // in range by construction
}

// Merge adds every value of o.
func (l *Latency) Merge(o *Latency) {
	if o != nil {
		l.h.Merge(o.h)
	}
}

// Reset empties the histogram.
func (l *Latency) Reset() { l.h.Reset() }

// Count is the number of values recorded.
func (l *Latency) Count() int64 { return l.h.TotalCount() }

// LatencySummaryUS is the summary iomark prints, in microseconds.
type LatencySummaryUS struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// SummaryUS summarises the histogram in microseconds; all zero when empty.
func (l *Latency) SummaryUS() LatencySummaryUS {
	if l.h.TotalCount() == 0 {
		return LatencySummaryUS{}
	}
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	return LatencySummaryUS{
		Min:  us(l.h.Min()),
		Mean: l.h.Mean() / 1e3,
		P50:  us(l.h.ValueAtQuantile(50)),
		P90:  us(l.h.ValueAtQuantile(90)),
		P99:  us(l.h.ValueAtQuantile(99)),
		P999: us(l.h.ValueAtQuantile(99.9)),
		Max:  us(l.h.Max()),
	}
}
