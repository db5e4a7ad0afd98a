package compare

import (
	"fmt"
	"sort"
)

// Buy is one priced drive of a ranking: its ranking figure per dollar, and whether it is on
// the best-value frontier (no other drive is both cheaper and better on the figure).
type Buy struct {
	Drive     RankedDrive
	PerDollar float64 // ranking figure per US dollar
	USDPer    float64 // US dollars per unit of the ranking figure
	Frontier  bool
}

// Value orders a ranking's priced drives by what a dollar buys of its basis figure, best
// first, and marks the frontier. Drives without a price are left out (Unpriced counts them).
func Value(rk Ranking) (buys []Buy, unpriced int) {
	for _, d := range rk.Drives {
		if d.PriceN == 0 {
			unpriced++
			continue
		}
		usd, ok := PerUnit(d.PriceUSD, d.Median)
		if !ok {
			unpriced++
			continue
		}
		buys = append(buys, Buy{Drive: d, PerDollar: d.Median / d.PriceUSD, USDPer: usd})
	}
	// The frontier: cheapest first, a drive is on it when it beats every cheaper one.
	byPrice := make([]int, len(buys))
	for i := range byPrice {
		byPrice[i] = i
	}
	sort.SliceStable(byPrice, func(i, j int) bool {
		a, b := buys[byPrice[i]], buys[byPrice[j]]
		if a.Drive.PriceUSD != b.Drive.PriceUSD {
			return a.Drive.PriceUSD < b.Drive.PriceUSD
		}
		return a.Drive.Median > b.Drive.Median
	})
	best := -1.0
	for _, i := range byPrice {
		if buys[i].Drive.Median > best {
			buys[i].Frontier, best = true, buys[i].Drive.Median
		}
	}
	sort.SliceStable(buys, func(i, j int) bool { return buys[i].PerDollar > buys[j].PerDollar })
	return buys, unpriced
}

// PricedUnranked are a ranking's drives with a known price but without its basis figure:
// the value page lists them with what they have, never with a value.
func PricedUnranked(rk Ranking) []UnrankedDrive {
	var out []UnrankedDrive
	for _, u := range rk.NotRanked {
		if u.PriceN > 0 {
			out = append(out, u)
		}
	}
	return out
}

// Advice says in one sentence what to buy for a ranking: the best value and, when another, the
// fastest priced drive; empty without a priced drive.
func Advice(rk Ranking, buys []Buy) string {
	if len(buys) == 0 {
		return ""
	}
	unit := rk.Basis.Unit()
	fig := func(b Buy) string { return fmt.Sprintf("%s %s %s", fmtNum(b.Drive.Median), unit, rk.Basis.Words()) }
	scope := fmt.Sprintf("%s %s", familyShort(rk.Family), ClassWords(rk.Class))
	if rk.Setting != "" {
		scope += " at " + rk.Setting
	}
	out := fmt.Sprintf("Best value for %s: %s, $%s for %s.", scope, buys[0].Drive.Model.Name, fmtPrice(buys[0].Drive.PriceUSD), fig(buys[0]))
	fastest := buys[0]
	for _, b := range buys {
		if b.Drive.Median > fastest.Drive.Median {
			fastest = b
		}
	}
	if fastest.Drive.Model.Key != buys[0].Drive.Model.Key {
		out += fmt.Sprintf(" The fastest priced drive, %s, costs $%s for %s.", fastest.Drive.Model.Name, fmtPrice(fastest.Drive.PriceUSD), fig(fastest))
	}
	return out
}

func fmtPrice(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
