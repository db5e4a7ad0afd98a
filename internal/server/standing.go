package server

import (
	"context"
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/store"
)

// ResultStanding is where a result stands on the site: per headline figure, its place among the
// listed results of its board family, class and link setting measured the same way, and among
// its drive model's, with a small distribution to show "you are here".
type ResultStanding struct {
	Family     string      `json:"family"`
	Class      string      `json:"class"`
	Setting    string      `json:"setting,omitempty"`
	Inferred   string      `json:"setting_inferred,omitempty"`
	ModelName  string      `json:"model_name,omitempty"`
	ModelURL   string      `json:"model_url,omitempty"`
	RankingURL string      `json:"ranking_url,omitempty"`
	Stands     []StandView `json:"stands"`
	Ceiling    string      `json:"ceiling,omitempty"`
	Why        string      `json:"why,omitempty"` // why nothing compares, and what to do
	Basis      string      `json:"basis,omitempty"`
}

// StandView is one figure's place.
type StandView struct {
	Metric     string      `json:"metric"`
	Label      string      `json:"label"`
	Value      float64     `json:"value"`
	Unit       string      `json:"unit"`
	Percentile int         `json:"percentile"`
	N          int         `json:"n"`
	Median     float64     `json:"median"`
	Sentence   string      `json:"sentence"`
	ModelN     int         `json:"model_n"`
	ModelText  string      `json:"model_sentence"`
	Chart      trustedHTML `json:"-"`
}

// standing places a stored result among the site's results.
func (s *Server) standing(ctx context.Context, runID string) (*ResultStanding, error) {
	ds, err := s.st.Decisions(ctx, []string{runID})
	if err != nil {
		return nil, err
	}
	d, ok := ds[runID]
	if !ok {
		return nil, nil // stored before decisions existed and not re-decided yet
	}
	me := entryOf(store.RankRow{RunID: runID, Decision: d})
	st := &ResultStanding{Family: d.Family, Class: d.DeviceClass, Setting: d.LinkSetting, Inferred: d.SettingInferred, Stands: []StandView{}}
	if !d.Ranked {
		st.Why = "this result is not compared: it measured a virtual device (loop, virtio or RAM disk) or names no drive, so it says nothing about a drive anyone can buy"
		return st, nil
	}
	st.ModelName, st.ModelURL = d.ModelName, modelPath(d.ModelKey)
	st.RankingURL = leaderFilter{}.url(d.Family, d.DeviceClass, d.LinkSetting)
	st.Basis = compare.BasisFor(d.DeviceClass).Metric.Label()
	pop, err := s.population(ctx, d.Family, d.DeviceClass, d.LinkSetting)
	if err != nil {
		return nil, err
	}
	scope := d.Family + " " + compare.ClassWords(d.DeviceClass) + " results"
	if d.LinkSetting != "" {
		scope += " at " + d.LinkSetting
	}
	for _, m := range compare.Metrics() {
		f, ok := me.Figures[m]
		if !ok {
			continue
		}
		among, model := pop.among(m, f.Method, runID, d.ModelKey)
		p := compare.PlaceAmong(f.Value, among, scope)
		mp := compare.PlaceAmong(f.Value, model, "other results of this drive model there")
		v := StandView{Metric: string(m), Label: m.Words(), Value: f.Value, Unit: m.Unit(), Percentile: p.Percentile, N: p.N,
			Median: p.Median, Sentence: p.Sentence(m.Unit()), ModelN: mp.N, ModelText: mp.Sentence(m.Unit())}
		if !p.TooFew() {
			v.Chart = distribution(among, f.Value, m.Unit())
		}
		st.Stands = append(st.Stands, v)
	}
	if sset, ok := compare.SettingOf(d.Family, d.DeviceClass, d.LinkSetting); ok && sset.Ceiling.MBPerS > 0 {
		var capped []string
		for _, m := range []compare.Metric{compare.MetricSeqRead, compare.MetricSeqWrite} {
			if f, ok := me.Figures[m]; ok && f.Value >= 0.9*sset.Ceiling.MBPerS {
				capped = append(capped, m.Words())
			}
		}
		if len(capped) > 0 {
			st.Ceiling = fmt.Sprintf("The %s sits at the bus ceiling: %s, so faster drives will not do better on this board at this setting; %s is where they differ.",
				strings.Join(capped, " and "), sset.Sentence(), compare.BasisFor(d.DeviceClass).Metric.Words())
		}
	}
	any := false
	for _, v := range st.Stands {
		any = any || v.N > 0
	}
	if !any {
		st.Why = "no other listed result is a " + scope + " measured the same way yet: it will be placed when there are " + fmt.Sprint(compare.MinPlace)
	}
	return st, nil
}

// distribution draws a population as a 20-bin histogram with a marker at here: a small inline
// SVG, so the page shows it without scripts.
func distribution(values []float64, here float64, unit string) trustedHTML {
	const bins, w, h = 20, 300.0, 48.0
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	lo, hi := min(s[0], here), max(s[len(s)-1], here)
	if hi <= lo {
		hi = lo + 1
	}
	counts := make([]int, bins)
	for _, v := range s {
		i := int((v - lo) / (hi - lo) * bins)
		counts[min(i, bins-1)]++
	}
	peak := 1
	for _, c := range counts {
		peak = max(peak, c)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="dist" viewBox="0 0 %.0f %.0f" width="100%%" height="64" role="img" aria-label="distribution of %d results from %s to %s %s; a line marks this result">`,
		w, h+14, len(s), fmtFig(lo), fmtFig(hi), html.EscapeString(unit))
	bw := w / bins
	for i, c := range counts {
		bh := float64(c) / float64(peak) * h
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#9bb"></rect>`, float64(i)*bw+0.5, h-bh, bw-1, bh)
	}
	x := (here - lo) / (hi - lo) * w
	fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="0" y2="%.0f" stroke="#c30" stroke-width="2"></line>`, x, x, h)
	anchor := "middle"
	switch {
	case x < 40:
		anchor = "start"
	case x > w-40:
		anchor = "end"
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" font-size="10" text-anchor="%s" fill="#c30">you are here</text>`, x, h+11, anchor)
	if anchor != "start" {
		fmt.Fprintf(&b, `<text x="0" y="%.0f" font-size="9" fill="#555">%s</text>`, h+11, fmtFig(lo))
	}
	if anchor != "end" {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="9" text-anchor="end" fill="#555">%s %s</text>`, w, h+11, fmtFig(hi), html.EscapeString(unit))
	}
	b.WriteString(`</svg>`)
	return trustedHTML(b.String())
}

func fmtFig(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
