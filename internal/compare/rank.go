package compare

import (
	"sort"
	"strings"
)

// Entry is one stored result as rankings read it: its decisions and what the site links to.
type Entry struct {
	ID        string
	Published bool
	Decision
}

// Ranking is one board family's (or board's) ranking of one class at one link setting, on one
// basis.
type Ranking struct {
	Family    string
	Class     string
	Setting   string
	Basis     Metric
	Sentence  string // why this basis, in one sentence
	Results   int    // results behind the ranking, ranked or not
	Drives    []RankedDrive
	NotRanked []UnrankedDrive // drives without the basis figure: listed, never given a place
}

// RankedDrive is one drive model's place: the median of its results' basis figures.
type RankedDrive struct {
	Rank    int
	Model   Model
	Median  float64
	P10     float64
	P90     float64
	Results int // results with the basis figure
	// Medians are the drive's median headline figures (those its results have), for lists.
	Medians map[Metric]float64
	Boards  []string
	// PriceUSD is the median of the prices its results state, PriceN how many do, and
	// PriceSources where they come from ("sent by its uploader (iomark run --price)", a published source and date).
	PriceUSD     float64
	PriceN       int
	PriceSources []string
}

// MedianOf is the drive's median of metric, nil when its results have none.
func (d RankedDrive) MedianOf(m Metric) *float64 {
	if v, ok := d.Medians[m]; ok {
		return &v
	}
	return nil
}

// UnrankedDrive is a drive listed under "not ranked": the figures it has instead.
type UnrankedDrive struct {
	Model   Model
	Only    []Metric
	Results int
	// Medians, PriceUSD, PriceN and PriceSources are as RankedDrive's: the value page lists
	// a priced drive without the basis figure with what it has.
	Medians      map[Metric]float64
	PriceUSD     float64
	PriceN       int
	PriceSources []string
}

// Rank builds the rankings of one family from its entries: one per class and link setting,
// classes in probe's order. Entries of other families, virtual devices and results without a
// drive model are left out.
func Rank(entries []Entry, family string) []Ranking {
	type groupKey struct{ class, setting string }
	groups := map[groupKey][]Entry{}
	for _, e := range entries {
		if e.Family != family || !e.Ranked() {
			continue
		}
		k := groupKey{e.Class, e.Setting}
		groups[k] = append(groups[k], e)
	}
	var keys []groupKey
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ci, cj := classRank(keys[i].class), classRank(keys[j].class)
		if ci != cj {
			return ci < cj
		}
		di, dj := settingIsDefault(family, keys[i]), settingIsDefault(family, keys[j])
		if di != dj {
			return di
		}
		return keys[i].setting < keys[j].setting
	})
	var out []Ranking
	for _, k := range keys {
		out = append(out, rankGroup(family, k.class, k.setting, groups[k]))
	}
	return out
}

func settingIsDefault(family string, k struct{ class, setting string }) bool {
	s, ok := findSetting(family, k.class, k.setting)
	return ok && s.Default
}

// classOrder is probe's order of device classes; others sort after it by name.
var classOrder = []string{"microsd", "emmc", "usb-flash", "usb-ssd", "nvme", "sata", "usb-hdd"}

func classRank(c string) int {
	for i, v := range classOrder {
		if v == c {
			return i
		}
	}
	return len(classOrder)
}

// ClassOrder sorts classes as rankings list them.
func ClassOrder(classes []string) {
	sort.SliceStable(classes, func(i, j int) bool {
		ri, rj := classRank(classes[i]), classRank(classes[j])
		if ri != rj {
			return ri < rj
		}
		return classes[i] < classes[j]
	})
}

// rankGroup ranks one group's entries (a board family, class and link setting) by drive model,
// on the basis metric the class chooses among the figures the entries carry; a drive with no
// figure on it is listed as not ranked.
func rankGroup(family, class, setting string, es []Entry) Ranking {
	b := BasisFor(class)
	metric := b.Choose(func(m Metric) bool {
		for _, e := range es {
			if _, ok := e.Figures[m]; ok {
				return true
			}
		}
		return false
	})
	s, _ := findSetting(family, class, setting)
	rk := Ranking{Family: family, Class: class, Setting: setting, Basis: metric, Sentence: b.Sentence(metric, s), Results: len(es)}
	for _, a := range byDrive(es, metric) {
		if len(a.basis) == 0 {
			rk.NotRanked = append(rk.NotRanked, a.unranked())
		} else {
			rk.Drives = append(rk.Drives, a.ranked())
		}
	}
	sort.SliceStable(rk.Drives, func(i, j int) bool {
		if rk.Drives[i].Median != rk.Drives[j].Median {
			return rk.Drives[i].Median > rk.Drives[j].Median
		}
		return rk.Drives[i].Model.Key < rk.Drives[j].Model.Key
	})
	for i := range rk.Drives {
		rk.Drives[i].Rank = i + 1
	}
	sort.SliceStable(rk.NotRanked, func(i, j int) bool { return rk.NotRanked[i].Model.Name < rk.NotRanked[j].Model.Name })
	return rk
}

// driveResults is what one drive model's entries in a group hold: the figures on the basis
// metric, every metric's figures, the boards, the prices and where they come from.
type driveResults struct {
	model   Model
	basis   []float64
	all     map[Metric][]float64
	n       int
	boards  map[string]bool
	prices  []float64
	sources map[string]bool
}

// byDrive gathers es by drive model, in the order each model first appears.
func byDrive(es []Entry, metric Metric) []*driveResults {
	drives := map[string]*driveResults{}
	var order []*driveResults
	for _, e := range es {
		a := drives[e.Model.Key]
		if a == nil {
			a = &driveResults{model: e.Model, all: map[Metric][]float64{}, boards: map[string]bool{}, sources: map[string]bool{}}
			drives[e.Model.Key] = a
			order = append(order, a)
		}
		a.n++
		if e.Board != "" {
			a.boards[e.Board] = true
		}
		for m, f := range e.Figures {
			a.all[m] = append(a.all[m], f.Value)
		}
		if f, ok := e.Figures[metric]; ok {
			a.basis = append(a.basis, f.Value)
		}
		if e.PriceUSD != nil {
			a.prices = append(a.prices, *e.PriceUSD)
			a.sources[e.PriceSource] = true
		}
		// A published label is a better name than an uploaded drive's model number.
		if e.Published && !strings.HasPrefix(a.model.Key, "sd:") {
			a.model.Name = e.Model.Name
		}
	}
	return order
}

// ranked is a drive with figures on the basis: its median and spread there.
func (a *driveResults) ranked() RankedDrive {
	d := RankedDrive{Model: a.model, Median: quantile(a.basis, 0.5), P10: quantile(a.basis, 0.1), P90: quantile(a.basis, 0.9),
		Results: len(a.basis), Medians: medians(a.all)}
	for b := range a.boards {
		d.Boards = append(d.Boards, b)
	}
	sort.Strings(d.Boards)
	d.PriceUSD, d.PriceN, d.PriceSources = priced(a.prices, a.sources)
	return d
}

// unranked is a drive with no figure on the basis: what it was measured on instead.
func (a *driveResults) unranked() UnrankedDrive {
	var only []Metric
	for _, m := range Metrics() {
		if len(a.all[m]) > 0 {
			only = append(only, m)
		}
	}
	u := UnrankedDrive{Model: a.model, Only: only, Results: a.n, Medians: medians(a.all)}
	u.PriceUSD, u.PriceN, u.PriceSources = priced(a.prices, a.sources)
	return u
}

// quantile is the q-quantile of vs by linear interpolation between order statistics.
func quantile(vs []float64, q float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}

// PublishedEntries decides every published row.
func PublishedEntries(rows []refdataResult) []Entry {
	out := make([]Entry, 0, len(rows))
	for _, p := range rows {
		out = append(out, Entry{ID: PublishedID(p), Published: true, Decision: DecidePublished(p)})
	}
	return out
}

// medians is the median of each metric's figures.
func medians(all map[Metric][]float64) map[Metric]float64 {
	out := make(map[Metric]float64, len(all))
	for m, v := range all {
		out[m] = quantile(v, 0.5)
	}
	return out
}

// priced is the median of a drive's stated prices, how many there are and their sources,
// sorted; zeros without a price.
func priced(prices []float64, sources map[string]bool) (usd float64, n int, from []string) {
	if len(prices) == 0 {
		return 0, 0, nil
	}
	for src := range sources {
		from = append(from, src)
	}
	sort.Strings(from)
	return quantile(prices, 0.5), len(prices), from
}
