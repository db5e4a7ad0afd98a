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
	switch {
	case p.SeqRead != nil && long:
		out = append(out, fmt.Sprintf("%s per MB/s of sequential read (%s, %s MB/s)", fmtUSD(p.USDPerMBPerS), p.SeqRead.Name, fmtRate(p.SeqRead.MBPerS)))
	case p.SeqRead != nil:
		out = append(out, fmtUSD(p.USDPerMBPerS)+"/MB/s")
	case long:
		out = append(out, "no sequential read measured for a price per MB/s")
	}
	switch {
	case p.RandRead != nil && long:
		out = append(out, fmt.Sprintf("%s per IOPS of 4K random read (%s, %s IOPS)", fmtUSD(p.USDPerIOPS), p.RandRead.Name, fmtIOPS(p.RandRead.IOPS)))
	case p.RandRead != nil:
		out = append(out, fmtUSD(p.USDPerIOPS)+"/IOPS")
	case long:
		out = append(out, "no 4K random read measured for a price per IOPS")
	}
	if len(out) == 0 {
		out = append(out, "nothing measured to divide it by")
	}
	return out
}
