package compare

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// sourceUnitNotes flags sources whose tables print no unit (SOURCES.md): their figures are
// compared under the unit refdata files them in, and the comparison says so.
var sourceUnitNotes = map[string]string{
	"geerling-2020-usb":     "the source's table prints no units; refdata files its figures as MB/s",
	"chambers-storage-2019": "the source prints dd in MB/s and the other columns as bare numbers read as iozone kB/s",
}

// publishedBoardFamily is the family of a published row's board: a row measured with the
// board or its SD bus overclocked is not comparable with a stock run and belongs to no family.
func publishedBoardFamily(p refdata.Result) string {
	if p.Overclocked {
		return ""
	}
	return KnownFamily(p.Board)
}

// storageClasses maps iomark's device class to refdata's storage classes. A USB SSD splits by
// the bridge kind when linkdb named it; native NVMe, eMMC and SATA map to refdata's classes of
// the same name.
func storageClasses(r *record.Run) []string {
	if r.Device == nil {
		return nil
	}
	switch r.Device.Class {
	case probe.ClassMicroSD:
		return []string{"microsd"}
	case probe.ClassUSBFlash:
		return []string{"usb-flash"}
	case probe.ClassNVMe:
		return []string{"nvme"}
	case probe.ClassEMMC:
		return []string{"emmc"}
	case probe.ClassSATA, probe.ClassSATASSD, probe.ClassSATAHDD:
		// refdata's sata rows do not split SSDs from HDDs.
		return []string{"sata"}
	case probe.ClassUSBSSD:
		if r.USB != nil && r.USB.Bridge != nil {
			switch r.USB.Bridge.Kind {
			case "usb-nvme":
				return []string{"usb-ssd-nvme"}
			case "usb-sata":
				return []string{"usb-ssd-sata", "msata-usb"}
			}
		}
		// Bridge unknown: every USB SSD class, with the published rows whose source did not
		// state the bridge either (refdata's usb-ssd).
		return []string{"usb-ssd-sata", "usb-ssd-nvme", "msata-usb", "usb-ssd"}
	}
	return nil
}

// PeerSet is the published rows comparable with a run, and why.
type PeerSet struct {
	Family  string // board family of the run; empty when unknown
	Classes []string
	Rows    []refdata.Result
}

// Scope describes the set for people: "Raspberry Pi 4, microsd"; what the run does not say
// is named as missing ("board family unknown"), never left blank.
func (p PeerSet) Scope() string {
	fam, classes := p.Family, strings.Join(p.Classes, "/")
	if fam == "" {
		fam = "board family unknown"
	}
	if classes == "" {
		classes = "drive class unknown"
	}
	return fam + ", " + classes
}

// missing says why a run has no published peers to be compared with: what it lacks (a board
// the published rows are matched on, a kind of drive they cover), or that none were published
// for its board and drive. Empty when it has peers.
func (p PeerSet) Missing(r *record.Run) string {
	var why []string
	switch {
	case p.Family != "":
	case r.Host == nil || strings.TrimSpace(r.Host.Model) == "":
		why = append(why, "the run does not name its board (none was read from the device tree or DMI), and published results are matched by board family")
	default:
		why = append(why, fmt.Sprintf("its board, %s, is not one iomark knows (docs/compare.md lists the boards published results are matched on)", r.Host.Model))
	}
	switch {
	case len(p.Classes) > 0:
	case r.Device == nil || r.Device.Class == "":
		why = append(why, "the run does not say what kind of drive it measured")
	default:
		why = append(why, fmt.Sprintf("no published results for %s drives (they cover microSD, USB flash, USB SSD, NVMe, eMMC and SATA)", r.Device.Class))
	}
	if len(why) == 0 && len(p.Rows) == 0 {
		why = append(why, "no published results for "+p.Scope())
	}
	return strings.Join(why, "; ")
}

// SourceIDs lists the sources of the rows, in first-seen order.
func (p PeerSet) SourceIDs() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range p.Rows {
		if !seen[r.SourceID] {
			seen[r.SourceID] = true
			out = append(out, r.SourceID)
		}
	}
	return out
}

// comparablePublished keeps the published rows of the run's board family and storage class
// that print at least one figure of pubColumns (a row with only, say, a maker's IOPS or a
// PiBenchmarks score has nothing to set beside the run).
func Peers(r *record.Run, published []refdata.Result) PeerSet {
	ps := PeerSet{Classes: storageClasses(r)}
	if r.Host != nil {
		ps.Family = KnownFamily(r.Host.Model)
	}
	if ps.Family == "" || len(ps.Classes) == 0 {
		return ps
	}
	for _, p := range published {
		if publishedBoardFamily(p) != ps.Family || !hasPubColumnFigure(p) {
			continue
		}
		for _, c := range ps.Classes {
			if p.StorageClass == c {
				ps.Rows = append(ps.Rows, p)
				break
			}
		}
	}
	return ps
}

// hasPubColumnFigure reports whether the row prints a figure in one of pubColumns.
func hasPubColumnFigure(p refdata.Result) bool {
	for _, col := range pubColumns {
		if f, _ := p.FigureIn(col.column); f.Value != nil {
			return true
		}
	}
	return false
}

// pubFigure is one published column set against the run.
type pubFigure struct {
	col       pubColumn
	ours      ours
	cand      candidate
	oursValue float64 // in col.unit
	drives    []pubDrive
	converted int // rows whose figure rowFactor changed
}

type pubDrive struct {
	row   refdata.Result
	value float64 // in col.unit
}

// matchColumn is what the run sets beside col: the first candidate it has.
func matchColumn(r *record.Run, col pubColumn) (ours, candidate, bool) {
	for _, c := range col.candidates {
		if o, ok := c.find(r); ok {
			return o, c, true
		}
	}
	return ours{}, candidate{}, false
}

// publishedFigures pairs every mapped column that the run and at least one peer have.
func publishedFigures(r *record.Run, ps PeerSet) []pubFigure {
	var out []pubFigure
	for _, col := range pubColumns {
		o, cand, ok := matchColumn(r, col)
		if !ok {
			continue
		}
		f := pubFigure{col: col, ours: o, cand: cand, oursValue: o.in(col.unit, r)}
		for _, row := range ps.Rows {
			if col.skip != nil && col.skip(row) {
				continue
			}
			fig, _ := row.FigureIn(col.column)
			if fig.Value == nil {
				continue
			}
			v := *fig.Value
			if col.rowFactor != nil {
				if k := col.rowFactor(row); k != 1 {
					v *= k
					f.converted++
				}
			}
			f.drives = append(f.drives, pubDrive{row: row, value: v})
		}
		if len(f.drives) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// ColumnFigure is one published column set against the run's matching test, for a chart: the
// run's figure and each comparable published drive's, all in Unit.
type ColumnFigure struct {
	Column    string // refdata CSV column
	Label     string // what the published figure measured
	Unit      string
	Test      string  // the iomark test set beside it
	Same      bool    // the same method, or not (the comparison's notes say how it differs)
	Value     float64 // the run's figure in Unit
	Drives    []ColumnDrive
	Converted int // published figures converted into Unit (ConvertedNote says how)
}

// ColumnDrive is one published row's figure in its column's unit.
type ColumnDrive struct {
	Row   refdata.Result
	Value float64
}

// ColumnFigures pairs every mapped published column that the run and at least one of its peers
// have, with the peers it was drawn from.
func ColumnFigures(r *record.Run, published []refdata.Result) (PeerSet, []ColumnFigure) {
	ps := Peers(r, published)
	var out []ColumnFigure
	for _, f := range publishedFigures(r, ps) {
		cf := ColumnFigure{Column: f.col.column, Label: f.col.label, Unit: f.col.unit, Test: f.ours.name,
			Same: f.cand.same, Value: f.oursValue, Converted: f.converted}
		for _, d := range f.drives {
			cf.Drives = append(cf.Drives, ColumnDrive{Row: d.row, Value: d.value})
		}
		out = append(out, cf)
	}
	return ps, out
}
