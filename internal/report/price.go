package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// PricePerformance is what the drive's price (`iomark run --price`) buys: US dollars per MB/s
// of sequential read and per IOPS of 4K random read (docs/compare.md, "Price per
// performance", says why these two figures). A figure the run did not measure is nil.
type PricePerformance struct {
	PriceUSD float64
	// SeqRead is the sequential read the price per MB/s divides by: the single-job sequential
	// read with the largest block, O_DIRECT before buffered, then the lowest queue depth.
	SeqRead      *record.Test
	USDPerMBPerS float64
	// RandRead is the 4 KiB random read the price per IOPS divides by: single job, lowest
	// queue depth (QD1 is what one program waiting on each read sees).
	RandRead   *record.Test
	USDPerIOPS float64
}

// PriceOf returns the price per performance of a run the user gave a price for; ok is false
// without a price.
func PriceOf(r *record.Run) (p PricePerformance, ok bool) {
	if r == nil || r.PriceUSD == nil || !(*r.PriceUSD > 0) || math.IsInf(*r.PriceUSD, 0) {
		return PricePerformance{}, false
	}
	p.PriceUSD = *r.PriceUSD
	if t := priceSeqRead(r); t != nil {
		p.SeqRead, p.USDPerMBPerS = t, p.PriceUSD/t.MBPerS
	}
	if t := priceRandRead(r); t != nil {
		p.RandRead, p.USDPerIOPS = t, p.PriceUSD/t.IOPS
	}
	return p, true
}

func priceSeqRead(r *record.Run) *record.Test {
	var best *record.Test
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Op != "read" || t.Jobs > 1 || t.Sustained != nil || !(t.MBPerS > 0) {
			continue
		}
		if best == nil || t.BS > best.BS ||
			t.BS == best.BS && t.Direct && !best.Direct ||
			t.BS == best.BS && t.Direct == best.Direct && t.QD < best.QD {
			best = t
		}
	}
	return best
}

func priceRandRead(r *record.Run) *record.Test {
	var best *record.Test
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Op != "randread" || t.BS != 4*kib || t.Jobs > 1 || !(t.IOPS > 0) {
			continue
		}
		if best == nil || t.QD < best.QD {
			best = t
		}
	}
	return best
}

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
	p, ok := PriceOf(r)
	if !ok {
		return ""
	}
	return "price " + fmtUSD(p.PriceUSD) + ": " + strings.Join(p.parts(true), ", ")
}

// PriceCell is the short form for a table cell (`iomark history`): "$12.50: $0.0184/MB/s,
// $0.00197/IOPS"; "-" without a price.
func PriceCell(r *record.Run) string {
	p, ok := PriceOf(r)
	if !ok {
		return "-"
	}
	return fmtUSD(p.PriceUSD) + ": " + strings.Join(p.parts(false), ", ")
}

func (p PricePerformance) parts(long bool) []string {
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
