package report

import (
	"fmt"
	"github.com/iomark/iomark/internal/compare"
	"math"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// fmtUSD prints dollars with two decimals from one dollar up, else three significant digits
// (a price per IOPS is a fraction of a cent).
func fmtUSD(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("$%.2f", v)
	}
	if v <= 0 {
		return "$0"
	}
	digits := max(2-int(math.Floor(math.Log10(v))), 2)
	return fmt.Sprintf("$%.*f", digits, v)
}

// PriceLine says what the price buys, in one line for people: "price $12.50: $0.0184 per MB/s
// of sequential read (seq-read-1m, 681 MB/s), $0.00197 per IOPS of 4K random read
// (rand-read-4k-qd1, 6334 IOPS)". Empty without a price.
func PriceLine(r *record.Run) string {
	p, ok := compare.PriceOf(r)
	if !ok {
		return ""
	}
	return "price " + fmtUSD(p.PriceUSD) + ": " + strings.Join(priceParts(p, true), ", ")
}

// PriceCell is the short form for a table cell (`iomark history`): "$12.50: $0.0184/MB/s,
// $0.00197/IOPS"; "-" without a price.
func PriceCell(r *record.Run) string {
	p, ok := compare.PriceOf(r)
	if !ok {
		return "-"
	}
	return fmtUSD(p.PriceUSD) + ": " + strings.Join(priceParts(p, false), ", ")
}

func priceParts(p compare.PricePerformance, long bool) []string {
	var out []string
	// part is the price per unit of one figure: short ("$0.23/MB/s"), long (with the test and
	// its figure), or in the long form what was not measured.
	part := func(t *record.Test, usd float64, unit, figure, what string) {
		switch {
		case t != nil && long:
			out = append(out, fmt.Sprintf("%s per %s of %s (%s, %s %s)", fmtUSD(usd), unit, what, t.Name, figure, unit))
		case t != nil:
			out = append(out, fmtUSD(usd)+"/"+unit)
		case long:
			out = append(out, fmt.Sprintf("no %s measured for a price per %s", what, unit))
		}
	}
	var seq, rand string
	if p.SeqRead != nil {
		seq = fmtRate(p.SeqRead.MBPerS)
	}
	if p.RandRead != nil {
		rand = fmtIOPS(p.RandRead.IOPS)
	}
	part(p.SeqRead, p.USDPerMBPerS, "MB/s", seq, "sequential read")
	part(p.RandRead, p.USDPerIOPS, "IOPS", rand, "4K random read")
	if len(out) == 0 {
		out = append(out, "nothing measured to divide it by")
	}
	return out
}
