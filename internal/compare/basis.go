package compare

import (
	"fmt"
	"math"
	"sort"
)

// Basis is what results of a class are ranked by, with its reason.
type Basis struct {
	Classes  []string
	Metric   Metric
	Fallback Metric // when no result of the board and class has Metric
	Reason   string // why, completed by Sentence with the board's ceiling
}

// bases is the ranking basis table: the first row whose classes hold the class decides.
var bases = []Basis{
	{[]string{"microsd", "emmc", "usb-flash"}, MetricRandWrite, MetricScore,
		"flash cards and sticks differ most in small random writes, the I/O an operating system and its logs make (the seeds' iozone 4K columns; the PiBenchmarks score weights 4K random I/O the same way), while their sequential reads meet the bus's limit"},
	{[]string{"usb-ssd", "nvme", "sata", "sata-ssd", "sata-hdd", "usb-hdd"}, MetricScore, MetricRandWrite,
		"SSDs reach the ceiling of a board's bus in sequential transfers, so they are ranked by the PiBenchmarks score, which weights 4K random I/O heavily and is published for most drives"},
}

// BasisFor is the ranking basis of a class (any class the table lacks ranks as an SSD does).
func BasisFor(class string) Basis {
	for _, b := range bases {
		if oneOf(class, b.Classes) {
			return b
		}
	}
	return bases[1]
}

// Choose is the metric a group of results ranks by: the basis's own, or its fallback when no
// result of the group has the first.
func (b Basis) Choose(have func(Metric) bool) Metric {
	if have(b.Metric) || !have(b.Fallback) {
		return b.Metric
	}
	return b.Fallback
}

// Sentence says in one sentence why a page ranks by metric: "The Pi 4's SD bus (SD DDR50)
// caps sequential transfers at ~45 MB/s, so cards are ranked by 4K random write."
func (b Basis) Sentence(metric Metric, s Setting) string {
	what := "drives"
	if b.Metric == MetricRandWrite {
		what = "cards and sticks"
	}
	cap := s.Sentence()
	if cap == "" {
		cap = "Sequential figures meet the limit of the bus more than the drive's"
	}
	out := fmt.Sprintf("%s, so %s are ranked by %s", upperFirst(cap), what, metric.Words())
	if metric != b.Metric {
		out += fmt.Sprintf(" (no result here has a %s)", b.Metric.Words())
	}
	return out + "."
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// MinPlace is the fewest results a figure is placed among: below it a percentile says more
// about the few results than about the drive.
const MinPlace = 5

// Place is where one figure stands in a population of figures measured the same way.
type Place struct {
	Percentile int // share of the population below the figure (ties count half), 0-100
	N          int // results in the population
	Median     float64
	Population string // "published Pi 4 microSD results"
}

// PlaceAmong places value among pop. Percentile is meaningless when N < MinPlace (TooFew).
func PlaceAmong(value float64, pop []float64, population string) Place {
	p := Place{N: len(pop), Population: population}
	if len(pop) == 0 {
		return p
	}
	below := 0.0
	for _, v := range pop {
		switch {
		case v < value:
			below++
		case v == value:
			below += 0.5
		}
	}
	p.Percentile = int(math.Round(100 * below / float64(len(pop))))
	s := append([]float64(nil), pop...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		p.Median = s[n/2]
	} else {
		p.Median = (s[n/2-1] + s[n/2]) / 2
	}
	return p
}

// TooFew reports whether the population is too small to place a figure in.
func (p Place) TooFew() bool { return p.N < MinPlace }

// Sentence says where the figure stands: "42nd percentile of 36 published Pi 4 microSD
// results (median 2.1 MB/s)", or "too few to place (n=3)".
func (p Place) Sentence(unit string) string {
	if p.N == 0 {
		return fmt.Sprintf("no %s measured the same way", p.Population)
	}
	if p.TooFew() {
		return fmt.Sprintf("too few %s to place it (n=%d; %d needed)", p.Population, p.N, MinPlace)
	}
	return fmt.Sprintf("%s percentile of %d %s (median %s %s)", ordinal(p.Percentile), p.N, p.Population, fmtNum(p.Median), unit)
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// fmtNum prints a figure with three significant digits at most, as the site's lists do.
func fmtNum(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.0f", v)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
