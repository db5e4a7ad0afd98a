package compare

import (
	"math"

	"github.com/iomark/iomark/internal/record"
)

// Price per performance has one home: a run's own (`iomark run --price`), the site's value page
// and `iomark history` divide here.

// PerUnit is what one unit of a figure costs: price / figure; ok is false when either is not a
// positive, finite number.
func PerUnit(price, figure float64) (float64, bool) {
	if !(price > 0) || !(figure > 0) || math.IsInf(price, 0) || math.IsInf(figure, 0) {
		return 0, false
	}
	return price / figure, true
}

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
		p.SeqRead = t
		p.USDPerMBPerS, _ = PerUnit(p.PriceUSD, t.MBPerS)
	}
	if t := priceRandRead(r); t != nil {
		p.RandRead = t
		p.USDPerIOPS, _ = PerUnit(p.PriceUSD, t.IOPS)
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
