package stats_test

import (
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/stats"
)

// A runner repeats a figure until the stop rule says enough, then reports the median, its
// interval and any warnings. The third run is disturbed (1620 IOPS): it keeps the t interval
// and then [min, max] wide until nine runs, where the median's interval is [x(2), x(8)] and
// leaves it out; it is still flagged.
func Example() {
	rule := stats.DefaultStopRule(60 * time.Second)
	runs := []float64{}
	measured := []float64{1510, 1490, 1620, 1505, 1500, 1498, 1502, 1495, 1508, 1503}
	for i, iops := range measured {
		runs = append(runs, iops)
		elapsed := time.Duration(i+1) * 5 * time.Second
		if done, reason := rule.Done(runs, elapsed, 5*time.Second); done {
			fmt.Println("stopped:", reason)
			break
		}
	}
	s := stats.Summarize(runs)
	fmt.Printf("%.0f IOPS ±%.1f%% (%d runs, %s interval)\n", s.Median, s.CI95Pct, s.N, s.CIMethod)
	for _, w := range stats.Warnings(s, rule.TargetCI95Pct) {
		fmt.Println(w.Code)
	}
	// Output:
	// stopped: ci
	// 1502 IOPS ±0.5% (9 runs, order-statistic interval)
	// outliers
}

func ExampleFindCliff() {
	// 40 s at 420 MB/s while the SLC cache lasts, then 95 MB/s.
	var mbPerS []float64
	for i := range 100 {
		rate := 420.0
		if i >= 40 {
			rate = 95
		}
		mbPerS = append(mbPerS, rate)
	}
	c := stats.FindCliff(mbPerS)
	fmt.Printf("cliff at %d s: %.0f → %.0f MB/s (-%.0f%%)\n", c.Index, c.Before, c.After, c.DropPct)
	// Output:
	// cliff at 40 s: 420 → 95 MB/s (-77%)
}
