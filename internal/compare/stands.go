package compare

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// Stand is where one headline figure of a run stands: among results of its board family, class
// and link setting measured the same way, and among results of its drive model there.
type Stand struct {
	Metric Metric
	Value  float64
	Method string
	Among  Place // the family, class and setting
	Model  Place // the same drive model
}

// Position is what `iomark compare` and a result page say about a run: a place per headline
// figure, a sentence when a figure sits at the bus ceiling, and, when nothing compares, why.
type Position struct {
	Decision Decision
	Stands   []Stand
	Ceiling  string // the bus-ceiling sentence; empty when no figure is capped
	Why      string // why nothing compares, and what to do; empty when something does
}

// Where places a run among the published rows and the other runs given (a user's history),
// each pooled only with figures of the same metric and method, on the same family, class and
// link setting. The run itself and other virtual devices are never part of a population.
func Where(run *record.Run, published []refdata.Result, others []*record.Run) Position {
	d := Decide(run)
	st := Position{Decision: d}
	switch {
	case d.Virtual:
		st.Why = "the run measured a virtual device (loop, virtio or RAM disk), which says nothing about a drive anyone can buy: run iomark on the drive itself"
		return st
	case d.Class == "":
		st.Why = "the run does not say what kind of drive it measured: `iomark info` shows what iomark can read of it"
		return st
	case len(d.Figures) == 0:
		st.Why = "the run has none of the figures results are compared by (sequential and 4K random read and write, the PiBenchmarks score): run the quick or pibenchmarks profile"
		return st
	}
	var pop []Entry
	for _, p := range published {
		pop = append(pop, Entry{ID: PublishedID(p), Published: true, Decision: DecidePublished(p)})
	}
	seen := map[string]bool{run.ID: true}
	for _, o := range others {
		if o == nil || seen[o.ID] {
			continue
		}
		seen[o.ID] = true
		pop = append(pop, Entry{ID: o.ID, Decision: Decide(o)})
	}
	scope := fmt.Sprintf("%s %s", d.Family, ClassWords(d.Class))
	if d.Setting != "" {
		scope += " results at " + d.Setting
	} else {
		scope += " results"
	}
	for _, m := range Metrics() {
		f, ok := d.Figures[m]
		if !ok {
			continue
		}
		var among, model []float64
		for _, e := range pop {
			of, ok := e.Figures[m]
			if !ok || !e.Ranked() || of.Method != f.Method || e.Family != d.Family || e.Class != d.Class || e.Setting != d.Setting {
				continue
			}
			among = append(among, of.Value)
			if e.Model.Key == d.Model.Key && d.Model.Key != "" {
				model = append(model, of.Value)
			}
		}
		st.Stands = append(st.Stands, Stand{Metric: m, Value: f.Value, Method: f.Method,
			Among: PlaceAmong(f.Value, among, scope), Model: PlaceAmong(f.Value, model, "results of this drive model there")})
	}
	if len(d.Capped) > 0 {
		s, _ := findSetting(d.Family, d.Class, d.Setting)
		words := make([]string, len(d.Capped))
		for i, m := range d.Capped {
			words[i] = m.Words()
		}
		st.Ceiling = fmt.Sprintf("The %s sits at the bus ceiling (%s): faster drives will not do better on this board at this setting; %s is where they differ.",
			strings.Join(words, " and "), s.Sentence(), BasisFor(d.Class).Metric.Words())
	}
	any := false
	for _, s := range st.Stands {
		any = any || s.Among.N > 0
	}
	if !any {
		st.Why = fmt.Sprintf("no published result or earlier run of yours is a %s result measured the same way; `iomark submit` adds yours to the site, where others' are", scope)
		if _, ok := Board(boardModel(run)); !ok {
			st.Why = fmt.Sprintf("its board (%s) is not one iomark knows, so it is compared only with results of the same unknown family (%s)", orNone(boardModel(run)), d.Family)
		}
	}
	return st
}

// ClassWords names a device class in a sentence ("microSD", "USB SSD").
func ClassWords(c string) string {
	switch c {
	case "microsd":
		return "microSD"
	case "emmc":
		return "eMMC"
	case "usb-flash":
		return "USB flash"
	case "usb-ssd":
		return "USB SSD"
	case "nvme":
		return "NVMe"
	case "sata":
		return "SATA"
	}
	return c
}
