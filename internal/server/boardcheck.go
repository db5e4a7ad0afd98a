package server

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/probe/linkdb"
	"github.com/iomark/iomark/internal/record"
)

// Plausibility from the board, not the claim: a record that names a board iomark knows is
// checked against what that board's own buses carry at the settings it documents (compare's
// board ceiling table, e.g. the Pi 5's PCIe connector at gen 3 with dtparam=pciex1_gen=3),
// whatever link the record claims. A board iomark does not know is checked against its
// claimed link (plausible.go) and ranks among PCs or other SBCs.
const (
	flagImpossibleLink    = "link-board-lacks"    // a USB or PCIe rate above the board's ports and lanes
	flagAboveBoardCeiling = "above-board-ceiling" // a figure above the board's fastest setting
	flagHeldOutlier       = "held-outlier"        // far above the drive model's results on its board: held for review
	flagHeldBurst         = "held-burst"          // one of many uploads of one drive model at once: held for review
	noteFarBelow          = "far-below-model"     // far below the drive model's results: listed, with a note
)

// heldFlags are the doubts that mean "held for review": the result is kept, shown on its own
// page so marked, and ranks nowhere until `iomark moderate approve ID`.
var heldFlags = map[string]bool{flagHeldOutlier: true, flagHeldBurst: true}

// boardLimits are what a known board's buses carry for one class: the fastest setting's
// ceiling, and the fastest USB and PCIe rates its ports and lanes have.
type boardLimits struct {
	ceiling     linkdb.Ceiling
	setting     compare.Setting
	maxUSBMbps  int
	maxPCIeGen  int
	maxPCIeLane int
}

func limitsOf(family, class string) (boardLimits, bool) {
	var l boardLimits
	found := false
	for _, s := range compare.Settings() {
		if s.Family != family {
			continue
		}
		for _, c := range s.Classes {
			if c == "usb-ssd" { // the USB settings: the ports the board has
				switch s.Name {
				case "USB 5 Gbps":
					l.maxUSBMbps = max(l.maxUSBMbps, 5000)
				case "USB 480 Mbps":
					l.maxUSBMbps = max(l.maxUSBMbps, 480)
				}
			}
			if c == "nvme" {
				var gen, lanes int
				if _, err := fmt.Sscanf(s.Name, "PCIe gen %d x%d", &gen, &lanes); err == nil {
					l.maxPCIeGen, l.maxPCIeLane = max(l.maxPCIeGen, gen), max(l.maxPCIeLane, lanes)
				}
			}
			if c != class {
				continue
			}
			found = true
			mb := s.Ceiling.MBPerS
			if mb == 0 { // an overclock: bounded by the class's fastest mode (plausible.go)
				mb = classBound(class).MBPerS
			}
			if mb > l.ceiling.MBPerS {
				l.ceiling, l.setting = s.Ceiling, s
				l.ceiling.MBPerS = mb
			}
		}
	}
	return l, found
}

func classBound(class string) linkdb.Ceiling {
	for _, b := range classBounds {
		if b.match(class) {
			return b.ceiling()
		}
	}
	return fastestLink()
}

// boardDoubts checks a record against its board: links it cannot have, figures above what its
// fastest documented setting carries.
func boardDoubts(r *record.Run) []Flag {
	d := compare.Decide(r)
	if d.Board == "" || d.Virtual {
		return nil
	}
	l, ok := limitsOf(d.Family, d.Class)
	var out []Flag
	for _, h := range r.Link {
		switch {
		case h.Bus == "usb" && l.maxUSBMbps > 0 && h.SpeedMbps > l.maxUSBMbps:
			out = append(out, Flag{ID: flagImpossibleLink, Message: fmt.Sprintf("the record claims a %d Mb/s USB link, but the %s's USB ports run at most %d Mb/s (%s)",
				h.SpeedMbps, d.Board, l.maxUSBMbps, srcOf(d.Family, "usb-ssd"))})
		case h.Bus == "pcie" && d.Class == "nvme" && l.maxPCIeGen > 0:
			var gen, width int
			if _, err := fmt.Sscanf(h.Detail, "PCIe gen%d x%d", &gen, &width); err == nil && (gen > l.maxPCIeGen || width > l.maxPCIeLane) {
				out = append(out, Flag{ID: flagImpossibleLink, Message: fmt.Sprintf("the record claims PCIe gen %d x%d, but the %s's PCIe connector is x%d and runs at most gen %d (%s)",
					gen, width, d.Board, l.maxPCIeLane, l.maxPCIeGen, srcOf(d.Family, "nvme"))})
			}
		}
	}
	if !ok || l.ceiling.MBPerS <= 0 {
		return out
	}
	limit := l.ceiling.MBPerS * (1 + ceilingSlackPct/100.0)
	how := "its default"
	if l.setting.How != "" {
		how = l.setting.How
	}
	for _, t := range r.Tests {
		v := math.Max(t.MBPerS, t.IOPS*float64(t.BS)/1e6)
		if v > limit {
			out = append(out, Flag{ID: flagAboveBoardCeiling, Test: t.Name, Message: fmt.Sprintf("%s: %.1f MB/s is above the %.0f MB/s the %s carries for a %s drive at its fastest setting, %s (%s; source: %s)",
				t.Name, v, l.ceiling.MBPerS, d.Board, d.Class, l.setting.Name, how, l.setting.Source)})
		}
	}
	return out
}

func srcOf(family, class string) string {
	for _, s := range compare.Settings() {
		if s.Family == family {
			for _, c := range s.Classes {
				if c == class {
					return s.Source
				}
			}
		}
	}
	return "compare's board table"
}

// Outliers are judged on a log scale with the median and the median absolute deviation of the
// drive model's listed results on the same family, class and link setting: a drive's results
// spread by factors, not by megabytes. Below outlierMinCount results nothing is judged.
const (
	outlierMinCount = 8
	outlierZ        = 3.5 // robust z (MAD × 1.4826 as the spread), Iglewicz and Hoaglin's cut
	outlierMinRatio = 1.5 // and at least this factor from the median, so a tight model is not over-judged
)

// outlier places a figure against a population: +1 far above, -1 far below, 0 otherwise.
func outlier(v float64, pop []float64) (int, float64) {
	if len(pop) < outlierMinCount || v <= 0 {
		return 0, 0
	}
	logs := make([]float64, 0, len(pop))
	for _, p := range pop {
		if p > 0 {
			logs = append(logs, math.Log(p))
		}
	}
	if len(logs) < outlierMinCount {
		return 0, 0
	}
	med := medianOf(logs)
	dev := make([]float64, len(logs))
	for i, x := range logs {
		dev[i] = math.Abs(x - med)
	}
	mad := medianOf(dev) * 1.4826
	mad = math.Max(mad, 0.02) // results of one model that agree to 2% still allow a few percent
	z := (math.Log(v) - med) / mad
	ratio := v / math.Exp(med)
	switch {
	case z > outlierZ && ratio > outlierMinRatio:
		return 1, math.Exp(med)
	case z < -outlierZ && ratio < 1/outlierMinRatio:
		return -1, math.Exp(med)
	}
	return 0, math.Exp(med)
}

func medianOf(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// modelPopulation is the basis figures of a drive model's listed results at the decision's
// family, class and setting.
func modelPopulation(entries []compare.Entry, d compare.Decision) (compare.Metric, []float64) {
	m := compare.BasisFor(d.Class).Metric
	var pop []float64
	for _, e := range entries {
		if e.Model.Key != d.Model.Key || e.Class != d.Class || e.Setting != d.Setting {
			continue
		}
		if f, ok := e.Figures[m]; ok {
			pop = append(pop, f.Value)
		}
	}
	return m, pop
}

// bursts counts recent uploads per drive model with the addresses they came from. It is kept
// per server instance: N instances behind a load balancer each see about 1/N of a burst, so the
// threshold there is per instance (docs/server-api.md).
type bursts struct {
	mu     sync.Mutex
	window time.Duration
	max    int // uploads of one model in window, from minAddrs addresses or more, before holding
	addrs  int
	seen   map[string][]burstHit
}

type burstHit struct {
	at   time.Time
	addr string
}

// Burst defaults: a product launch brings many honest uploads of one drive, spread over days
// and rarely dozens within an hour from as many addresses; a held upload costs its owner
// nothing but a wait for `iomark moderate approve`.
const (
	defaultBurstUploads = 30
	defaultBurstAddrs   = 10
	burstWindow         = time.Hour
)

// note records an upload and reports whether it is part of a burst.
func (b *bursts) note(model, addr string, now time.Time) bool {
	if b == nil || b.max <= 0 || model == "" {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	hits := b.seen[model]
	kept := hits[:0]
	for _, h := range hits {
		if now.Sub(h.at) < b.window {
			kept = append(kept, h)
		}
	}
	kept = append(kept, burstHit{now, addr})
	b.seen[model] = kept
	if len(b.seen) > 100_000 { // bounded: forget the quietest models
		for k, v := range b.seen {
			if len(v) < 2 {
				delete(b.seen, k)
			}
		}
	}
	if len(kept) <= b.max {
		return false
	}
	distinct := map[string]bool{}
	for _, h := range kept {
		distinct[h.addr] = true
	}
	return len(distinct) >= b.addrs
}

// holds are the reasons to hold a plausible upload for review: far above its drive model's
// results on its board, or one of a burst of uploads of one model.
func (s *Server) holds(ctx context.Context, run *record.Run, addr string) ([]Flag, error) {
	d := compare.Decide(run)
	if !d.Ranked() {
		return nil, nil
	}
	var out []Flag
	entries, err := s.modelEntries(ctx, d.Model.Key)
	if err != nil {
		return nil, err
	}
	m, pop := modelPopulation(entries, d)
	if f, ok := d.Figures[m]; ok {
		if dir, med := outlier(f.Value, pop); dir > 0 {
			out = append(out, Flag{ID: flagHeldOutlier, Message: fmt.Sprintf("held for review: its %s, %s, is %.1f× the median of %d results of this drive model on %s at %s (%s)",
				m.Words(), fmtFig(f.Value)+" "+m.Unit(), f.Value/med, len(pop), d.Family, orDash(d.Setting), fmtFig(med)+" "+m.Unit())})
		}
	}
	if s.bursts.note(d.Model.Key, addr, s.opts.now()) {
		out = append(out, Flag{ID: flagHeldBurst, Message: fmt.Sprintf("held for review: more than %d uploads of this drive model within %s from %d or more addresses",
			s.bursts.max, s.bursts.window, s.bursts.addrs)})
	}
	return out, nil
}

// modelEntries are a drive model's listed results as the comparison model reads them, fresh
// from the store (one indexed query): an upload is judged against what is stored now.
func (s *Server) modelEntries(ctx context.Context, modelKey string) ([]compare.Entry, error) {
	return entriesOf(s.st.ModelRows(ctx, modelKey, modelRuns))
}

// farBelow is the note a listed result far below its drive model's results gets.
func farBelow(entries []compare.Entry, d compare.Decision) *Flag {
	m, pop := modelPopulation(entries, d)
	f, ok := d.Figures[m]
	if !ok {
		return nil
	}
	if dir, med := outlier(f.Value, pop); dir < 0 {
		return &Flag{ID: noteFarBelow, Message: fmt.Sprintf("its %s is %.0f%% of the median of %d results of this drive model on %s: the card may be counterfeit or worn, or on a slower port; `iomark verify DISK --confirm DISK` checks its capacity",
			m.Words(), 100*f.Value/med, len(pop), d.Family)}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "an unstated setting"
	}
	return s
}
