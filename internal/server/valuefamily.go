package server

import (
	"context"
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/refdata"
)

// FamilyValue is the value page's answer for a board family and class (?family=&class=, else
// Pi 5 NVMe): every ranked drive with a known price, by what a dollar buys of the ranking's
// figure, with the best-value frontier and "what should I buy" in a sentence.
type FamilyValue struct {
	Family   string         `json:"family"`
	Class    string         `json:"class"`
	Families []string       `json:"families"`
	Classes  []string       `json:"classes"`
	Advice   string         `json:"advice,omitempty"`
	Settings []ValueSetting `json:"settings"`
	// NoPrice says why nothing is priced, and how to add a price.
	NoPrice string `json:"no_price,omitempty"`
}

// ValueSetting is one ranking (link setting) of the family and class, priced.
type ValueSetting struct {
	Setting  string     `json:"setting,omitempty"`
	Basis    string     `json:"basis"` // the ranking figure, with its unit
	Unit     string     `json:"unit"`
	Advice   string     `json:"advice,omitempty"`
	Rows     []ValueBuy `json:"rows"`
	Unpriced int        `json:"unpriced"` // ranked drives without a known price
	// Unranked are drives with a known price but without the ranking's figure: listed with the
	// figures they have, never given a value.
	Unranked []ValueUnranked `json:"priced_unranked"`
	Chart    trustedHTML     `json:"-"`
}

// ValueUnranked is a priced drive the ranking does not place.
type ValueUnranked struct {
	Name         string        `json:"name"`
	URL          string        `json:"url"`
	PriceUSD     float64       `json:"price_usd"`
	Prices       int           `json:"prices"`
	PriceSources []string      `json:"price_sources"`
	Figures      []ValueFigure `json:"figures"` // the medians it has, in the rankings' order
}

// ValueFigure is one median figure of a drive.
type ValueFigure struct {
	Figure string  `json:"figure"` // its label, with the unit
	Value  float64 `json:"value"`
}

// ValueBuy is one priced drive.
type ValueBuy struct {
	Name         string   `json:"name"`
	URL          string   `json:"url"`
	Rank         int      `json:"rank"`
	Figure       float64  `json:"figure"`
	PriceUSD     float64  `json:"price_usd"`
	Prices       int      `json:"prices"`
	PriceSources []string `json:"price_sources"`
	PerDollar    float64  `json:"per_dollar"`
	Frontier     bool     `json:"frontier"`
}

const (
	defaultValueFamily = refdata.FamilyPi5
	defaultValueClass  = "nvme"
)

func (s *Server) familyValue(ctx context.Context, family, class string) (*FamilyValue, error) {
	if family == "" {
		family = defaultValueFamily
		if class == "" {
			class = defaultValueClass
		}
	}
	if !oneOfStr(family, refdata.Families()) {
		return nil, badInput(errorf("unknown board family %q: one of %s", family, strings.Join(refdata.Families(), ", ")))
	}
	v, err := s.cache.get(ctx, popKey("value", family, class, ""), func(ctx context.Context) (any, error) {
		return s.buildFamilyValue(ctx, family, class)
	})
	if err != nil {
		return nil, err
	}
	return v.(*FamilyValue), nil
}

// buildFamilyValue prices the ranking of one board family and class, from that family's
// results alone.
func (s *Server) buildFamilyValue(ctx context.Context, family, class string) (*FamilyValue, error) {
	entries, err := s.familyEntries(ctx, family)
	if err != nil {
		return nil, err
	}
	v := &FamilyValue{Family: family, Class: class, Families: refdata.Families(), Classes: []string{}, Settings: []ValueSetting{}}
	classes := map[string]bool{}
	for _, e := range entries {
		classes[e.Class] = true
	}
	for c := range classes {
		v.Classes = append(v.Classes, c)
	}
	compare.ClassOrder(v.Classes)
	if v.Class == "" && len(v.Classes) > 0 {
		v.Class = v.Classes[0]
	}
	var pop []compare.Entry
	for _, e := range entries {
		if e.Class == v.Class {
			pop = append(pop, e)
		}
	}
	unrankedPriced := 0
	var basis compare.Metric
	for _, rk := range compare.Rank(pop, family) {
		basis = rk.Basis
		buys, unpriced := compare.Value(rk)
		vs := ValueSetting{Setting: rk.Setting, Basis: rk.Basis.Label(), Unit: rk.Basis.Unit(), Advice: compare.Advice(rk, buys), Unpriced: unpriced, Rows: []ValueBuy{}}
		for _, b := range buys {
			vs.Rows = append(vs.Rows, ValueBuy{Name: b.Drive.Model.Name, URL: modelPath(b.Drive.Model.Key), Rank: b.Drive.Rank, Figure: b.Drive.Median,
				PriceUSD: b.Drive.PriceUSD, Prices: b.Drive.PriceN, PriceSources: b.Drive.PriceSources, PerDollar: b.PerDollar, Frontier: b.Frontier})
		}
		vs.Unranked = []ValueUnranked{}
		for _, u := range compare.PricedUnranked(rk) {
			vu := ValueUnranked{Name: u.Model.Name, URL: modelPath(u.Model.Key), PriceUSD: u.PriceUSD, Prices: u.PriceN,
				PriceSources: u.PriceSources, Figures: []ValueFigure{}}
			for _, m := range compare.Metrics() {
				if v, ok := u.Medians[m]; ok {
					vu.Figures = append(vu.Figures, ValueFigure{Figure: m.Label(), Value: v})
				}
			}
			vs.Unranked = append(vs.Unranked, vu)
			unrankedPriced++
		}
		if len(buys) > 1 {
			vs.Chart = valueChart(buys, rk.Basis)
		}
		if v.Advice == "" {
			v.Advice = vs.Advice
		}
		v.Settings = append(v.Settings, vs)
	}
	if v.Advice == "" {
		v.NoPrice = fmt.Sprintf("No ranked %s drive on %s has a known price yet. ", compare.ClassWords(v.Class), family)
		if unrankedPriced > 0 {
			v.NoPrice += fmt.Sprintf("%s with a price %s no %s, so no value on it (listed below). ", plural(unrankedPriced, "drive"), hasHave(unrankedPriced), basis.Words())
		}
		v.NoPrice += "Prices come from results: “iomark run --price 12.50” (what you paid, in US dollars) sends one with your result, and a published source's stated price counts; or type prices for drives you pick in the form below."
	}
	return v, nil
}

// valueChart draws performance against price (log-scaled price), the frontier joined: an
// inline SVG, readable without scripts.
func valueChart(buys []compare.Buy, m compare.Metric) trustedHTML {
	const w, h, pad = 360.0, 200.0, 34.0
	minP, maxP, maxF := math.Inf(1), 0.0, 0.0
	for _, b := range buys {
		minP, maxP, maxF = math.Min(minP, b.Drive.PriceUSD), math.Max(maxP, b.Drive.PriceUSD), math.Max(maxF, b.Drive.Median)
	}
	if maxP <= minP {
		maxP = minP * 2
	}
	x := func(p float64) float64 {
		return pad + (math.Log(p)-math.Log(minP))/(math.Log(maxP)-math.Log(minP))*(w-pad-10)
	}
	y := func(f float64) float64 { return h - pad - f/maxF*(h-pad-10) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="valuechart" viewBox="0 0 %.0f %.0f" width="100%%" role="img" aria-label="%s against price for %d drives; the line joins the best value at each price">`, w, h, html.EscapeString(m.Words()), len(buys))
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#888"></line><line x1="%.0f" y1="10" x2="%.0f" y2="%.0f" stroke="#888"></line>`, pad, h-pad, w-10, h-pad, pad, pad, h-pad)
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="10" text-anchor="middle">price, US dollars (log scale): $%s to $%s</text>`, (w+pad)/2, h-8, fmtFig(minP), fmtFig(maxP))
	fmt.Fprintf(&b, `<text x="10" y="%.0f" font-size="10" transform="rotate(-90 10 %.0f)" text-anchor="middle">%s (%s)</text>`, (h-pad)/2, (h-pad)/2, html.EscapeString(m.Words()), m.Unit())
	var front []compare.Buy
	for _, bu := range buys {
		if bu.Frontier {
			front = append(front, bu)
		}
	}
	for i := 1; i < len(front); i++ {
		for j := i; j > 0 && front[j].Drive.PriceUSD < front[j-1].Drive.PriceUSD; j-- {
			front[j], front[j-1] = front[j-1], front[j]
		}
	}
	if len(front) > 1 {
		b.WriteString(`<polyline fill="none" stroke="#c30" stroke-width="1.5" points="`)
		for _, f := range front {
			fmt.Fprintf(&b, "%.1f,%.1f ", x(f.Drive.PriceUSD), y(f.Drive.Median))
		}
		b.WriteString(`"></polyline>`)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="9" text-anchor="end">0</text><text x="%.0f" y="14" font-size="9" text-anchor="end">%s</text>`, pad-3, h-pad, pad-3, fmtFig(maxF))
	for i, bu := range buys {
		color := "#468"
		if bu.Frontier {
			color = "#c30"
		}
		cx, cy := x(bu.Drive.PriceUSD), y(bu.Drive.Median)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: $%s, %s %s</title></circle>`, cx, cy, color,
			html.EscapeString(bu.Drive.Model.Name), fmtFig(bu.Drive.PriceUSD), fmtFig(bu.Drive.Median), m.Unit())
		if i < 8 { // the best values, named; the table has the rest
			anchor, dx := "start", 5.0
			if cx > w-90 {
				anchor, dx = "end", -5
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="8" text-anchor="%s" fill="#333">%s</text>`, cx+dx, cy-4, anchor, html.EscapeString(shortName(bu.Drive.Model.Name, 24)))
		}
	}
	b.WriteString(`</svg>`)
	return trustedHTML(b.String())
}

func shortName(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// valueFigures lists a drive's medians: "sequential read (MB/s) 412; 4K random read (MB/s) 45.2".
func valueFigures(fs []ValueFigure) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Figure + " " + fig(&f.Value)
	}
	return strings.Join(parts, "; ")
}
