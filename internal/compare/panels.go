package compare

import (
	"sort"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// MaxPanelBars is the most bars a chart panel draws: the run, the best and the median drive of
// its board family, class and link setting, and the fastest others.
const MaxPanelBars = 12

// Panel is one chart panel: one headline figure of a run beside the drives of its family, class
// and setting measured the same way, sorted best first.
type Panel struct {
	Metric Metric
	Unit   string
	Bars   []Bar
	Scope  string // "Pi 4 microSD results at SD DDR50"
	Drives int    // drives in the population (bars are at most MaxPanelBars)
}

// Bar is one bar of a panel.
type Bar struct {
	Label  string
	Value  float64
	Run    bool // the run itself: drawn highlighted
	Best   bool // the best drive of the population
	Median bool // the drive at the population's median
}

// Panels are a run's chart panels, one per headline figure it has, in Metrics' order. Each
// population is the published drives' medians (per drive model) at the run's family, class
// and setting, of the same method; a figure with no such drive is a panel of the run alone.
func Panels(r *record.Run, published []refdata.Result) []Panel {
	d := Decide(r)
	var entries []Entry
	if d.Ranked() {
		for _, p := range published {
			e := Entry{ID: PublishedID(p), Published: true, Decision: DecidePublished(p)}
			if e.Ranked() && e.Family == d.Family && e.Class == d.Class && e.Setting == d.Setting {
				entries = append(entries, e)
			}
		}
	}
	scope := d.Family + " " + ClassWords(d.Class) + " results"
	if d.Setting != "" {
		scope += " at " + d.Setting
	}
	var out []Panel
	for _, m := range Metrics() {
		f, ok := d.Figures[m]
		if !ok {
			continue
		}
		// One bar per drive model: the median of its results measured the same way.
		byModel := map[string][]float64{}
		names := map[string]string{}
		for _, e := range entries {
			if of, ok := e.Figures[m]; ok && of.Method == f.Method {
				byModel[e.Model.Key] = append(byModel[e.Model.Key], of.Value)
				names[e.Model.Key] = e.Model.Name
			}
		}
		var drives []Bar
		for k, vs := range byModel {
			drives = append(drives, Bar{Label: names[k], Value: quantile(vs, 0.5)})
		}
		sort.SliceStable(drives, func(i, j int) bool {
			if drives[i].Value != drives[j].Value {
				return drives[i].Value > drives[j].Value
			}
			return drives[i].Label < drives[j].Label
		})
		p := Panel{Metric: m, Unit: m.Unit(), Scope: scope, Drives: len(drives)}
		keep := map[int]bool{}
		if len(drives) > 0 {
			drives[0].Best = true
			mid := len(drives) / 2
			drives[mid].Median = true
			keep[0], keep[mid] = true, true
		}
		// The fastest others fill what the run, the best and the median leave.
		for i := range drives {
			if len(keep) >= MaxPanelBars-1 {
				break
			}
			keep[i] = true
		}
		bars := []Bar{{Label: "this run", Value: f.Value, Run: true}}
		for i, b := range drives {
			if keep[i] {
				bars = append(bars, b)
			}
		}
		sort.SliceStable(bars, func(i, j int) bool { return bars[i].Value > bars[j].Value })
		p.Bars = bars
		out = append(out, p)
	}
	return out
}
