package compare

import "testing"

// A Pi 4 microSD run's panels: one per headline figure, none twice, at most 12 bars each, the
// run among them once, beside the best and the median drive of the Pi 4 microSD results.
func TestPanels(t *testing.T) {
	ps := Panels(sampleRun(), loadPublished(t))
	seen := map[Metric]bool{}
	for _, p := range ps {
		if seen[p.Metric] {
			t.Errorf("panel %s twice", p.Metric)
		}
		seen[p.Metric] = true
		runs, best, median := 0, 0, 0
		for i, b := range p.Bars {
			if i > 0 && b.Value > p.Bars[i-1].Value {
				t.Errorf("%s: bars not sorted", p.Metric)
			}
			if b.Run {
				runs++
			}
			if b.Best {
				best++
			}
			if b.Median {
				median++
			}
		}
		if len(p.Bars) > MaxPanelBars || runs != 1 || p.Drives > 0 && (best != 1 || median != 1) {
			t.Errorf("%s: %d bars, run %d, best %d, median %d of %d drives", p.Metric, len(p.Bars), runs, best, median, p.Drives)
		}
	}
	// The sample has the four speeds and no score; 4K random write pools with the 24 Pi 4
	// microSD cards that have one (TestBasis).
	if len(ps) != 4 || !seen[MetricRandWrite] || seen[MetricScore] {
		t.Errorf("panels %v", seen)
	}
	for _, p := range ps {
		if p.Metric == MetricRandWrite && (p.Drives < 20 || len(p.Bars) != MaxPanelBars) {
			t.Errorf("4K random write panel: %d drives, %d bars", p.Drives, len(p.Bars))
		}
	}
}
