package compare

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// Version numbers the rules below. The results server stores each result's Decision with the
// version that made it, and re-decides stored results when the version moves (a new alias, a
// new board, a changed basis).
const Version = 1

// Decision is everything the comparison model decides about one result, made once when the
// result is stored so the site can filter and rank by it.
type Decision struct {
	Model   Model
	Board   string // canonical board name; "" when the table does not know it
	Family  string // refdata family (unknown boards: Other SBCs or PCs)
	Class   string // iomark device class (a published storage class mapped to it)
	Virtual bool   // a loop, virtio or RAM device: never ranked
	// Unstock: the source ran the board overclocked in a way no setting of the table covers
	// (a CPU overclock beside an NVMe drive): never ranked with stock boards.
	Unstock bool
	Setting string // the link setting it ran (Setting.Name); "" when unknown
	// SettingInferred says how Setting was inferred where the result does not state it.
	SettingInferred string
	Figures         Figures
	// PriceUSD is what the drive cost as the result states it (`iomark run --price`, or the
	// published source's price), and PriceSource where it comes from; nil without one.
	PriceUSD    *float64
	PriceSource string
	// Capped lists the sequential figures at 90% or more of the setting's ceiling: the bus,
	// not the drive, set them.
	Capped []Metric
}

// Ranked reports whether the result can take a place in a ranking: a drive model on a board.
func (d Decision) Ranked() bool {
	return !d.Virtual && !d.Unstock && d.Model.Key != "" && d.Class != "" && len(d.Figures) > 0
}

// Decide makes the decisions for a measured run.
func Decide(r *record.Run) Decision {
	d := Decision{Figures: RecordFigures(r), Virtual: Virtual(r), Model: RecordModel(r)}
	if r.PriceUSD != nil && *r.PriceUSD > 0 && *r.PriceUSD < 1e6 {
		p := *r.PriceUSD
		d.PriceUSD, d.PriceSource = &p, "sent by its uploader (iomark run --price)"
	}
	var model, arch string
	if r.Host != nil {
		model, arch = r.Host.Model, r.Host.Arch
	}
	d.Board, _ = Board(model)
	d.Family = Family(model, arch)
	if r.Device != nil {
		d.Class = ClassOf(r.Device.Class)
	}
	if s, inferred, ok := RecordSetting(r, d.Family, d.Class); ok {
		d.Setting, d.SettingInferred = s.Name, inferred
		d.Capped = capped(d.Figures, s)
	}
	return d
}

// DecidePublished makes the decisions for a published row.
func DecidePublished(p refdata.Result) Decision {
	d := Decision{Figures: PublishedFigures(p), Model: PublishedModel(p), Board: p.Board,
		Family: Family(p.Board, ""), Class: ClassOf(p.StorageClass)}
	if v := p.PriceUSD.Value; v != nil && *v > 0 {
		price := *v
		d.PriceUSD, d.PriceSource = &price, p.SourceID
		if p.SourceDate != "" {
			d.PriceSource += " (" + p.SourceDate + ")"
		}
	}
	if s, inferred, ok := PublishedSetting(p, d.Family, d.Class); ok {
		d.Setting, d.SettingInferred = s.Name, inferred
		d.Capped = capped(d.Figures, s)
		d.Unstock = p.Overclocked && !strings.HasSuffix(s.Name, "overclocked")
	} else {
		d.Unstock = p.Overclocked
	}
	return d
}

// ClassOf is the iomark device class a result ranks in: a published storage class becomes
// iomark's (refdata.DeviceClass), SATA SSDs and HDDs rank with SATA drives, whose published
// rows do not tell them apart.
func ClassOf(c string) string {
	if d := refdata.DeviceClass(c); d != "" {
		return d
	}
	switch c {
	case "sata-ssd", "sata-hdd":
		return "sata"
	}
	return c
}

// SettingOf returns the table's setting by family, class and name.
func SettingOf(family, class, name string) (Setting, bool) { return findSetting(family, class, name) }

func capped(f Figures, s Setting) []Metric {
	if s.Ceiling.MBPerS <= 0 {
		return nil
	}
	var out []Metric
	for _, m := range []Metric{MetricSeqRead, MetricSeqWrite} {
		if v, ok := f[m]; ok && v.Value >= 0.9*s.Ceiling.MBPerS {
			out = append(out, m)
		}
	}
	return out
}

type refdataResult = refdata.Result

// PublishedID is the id the results server stores a published row under.
func PublishedID(p refdata.Result) string { return fmt.Sprintf("published-%s-%d", p.SourceID, p.Row) }
