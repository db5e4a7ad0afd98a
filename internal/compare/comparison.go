package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/stats"
)

// Standing is where a figure sits among others of the same unit: rank 1 is the best (highest)
// of Of figures including this one; Ratio is the figure over the median of the others.
type Standing struct {
	Value  float64
	Unit   string
	Rank   int
	Of     int
	Median float64 // of the others
	Ratio  float64 // Value / Median; 0 when the median is 0
}

func standing(value float64, unit string, others []float64) Standing {
	s := Standing{Value: value, Unit: unit, Rank: 1, Of: len(others) + 1}
	for _, o := range others {
		if o > value {
			s.Rank++
		}
	}
	s.Median = stats.Median(others)
	if s.Median > 0 {
		s.Ratio = value / s.Median
	}
	return s
}

// EarlierFigure is one test of the run against the same test in the user's earlier runs.
type EarlierFigure struct {
	Test string
	Standing
}

// PublishedFigure is one published column against the iomark test that maps to it.
type PublishedFigure struct {
	Column     string // refdata CSV column
	Label      string // what the published figure measured
	Method     string // the published method
	Test       string // the iomark test compared
	SameMethod bool   // false when iomark measured a different method (Note says how)
	Note       string
	Sources    []string // source ids of the published rows used
	Standing
}

// Comparison is the data behind `iomark compare`.
type Comparison struct {
	RunID     string
	DeviceKey string
	// Earlier runs of the same device key (the run itself excluded), oldest first.
	EarlierIDs []string
	Earlier    []EarlierFigure
	// PublishedScope names the board family and storage classes the published rows share
	// with the run; PublishedRows counts them.
	PublishedScope string
	PublishedRows  int
	Published      []PublishedFigure
	// SourceNotes are unit caveats of the sources used (SOURCES.md).
	SourceNotes []string
	// EarlierUnlike notes earlier runs made on another board or with other settings: they are
	// ranked with the rest, and the reader should know.
	EarlierUnlike []string
	// EarlierWhy and PublishedWhy explain an empty side ("no earlier runs of this drive", …).
	EarlierWhy   string
	PublishedWhy string
}

// BuildComparison ranks each figure of run against the user's earlier runs of the same device
// key and against the comparable published results. Figures are only ever compared in the
// same unit: a test's primary figure against the same test, a published column in its own unit.
func Build(run *record.Run, earlier []*record.Run, published []refdata.Result) Comparison {
	c := Comparison{RunID: run.ID, DeviceKey: run.DeviceKey()}
	var same []*record.Run
	for _, e := range earlier {
		if e == nil || e.ID == run.ID || c.DeviceKey == "" || e.DeviceKey() != c.DeviceKey {
			continue
		}
		same = append(same, e)
	}
	slices.SortStableFunc(same, func(a, b *record.Run) int { return a.CreatedAt.Compare(b.CreatedAt) })
	for _, e := range same {
		c.EarlierIDs = append(c.EarlierIDs, e.ID)
		var diffs []string
		if b, eb := boardModel(run), boardModel(e); b != eb {
			diffs = append(diffs, fmt.Sprintf("board %s", orNone(eb)))
		}
		if run.SettingsFingerprint != "" && e.SettingsFingerprint != "" && run.SettingsFingerprint != e.SettingsFingerprint {
			diffs = append(diffs, "other settings (governor, SD command queueing, PCIe gen, mount or scheduler)")
		}
		if len(diffs) > 0 {
			c.EarlierUnlike = append(c.EarlierUnlike, fmt.Sprintf("%s (%s): %s", e.ID, e.CreatedAt.UTC().Format("2006-01-02"), strings.Join(diffs, ", ")))
		}
	}
	switch {
	case c.DeviceKey == "":
		c.EarlierWhy = "the run does not identify its drive well enough to find earlier runs of it"
	case len(same) == 0:
		c.EarlierWhy = "no earlier runs of this drive (" + c.DeviceKey + ")"
	}
	for _, t := range run.Tests {
		v, unit := primaryFigure(t)
		var others []float64
		for _, e := range same {
			if et := e.TestByName(t.Name); et != nil && et.Primary == t.Primary {
				ov, _ := primaryFigure(*et)
				others = append(others, ov)
			}
		}
		if len(others) > 0 {
			c.Earlier = append(c.Earlier, EarlierFigure{Test: t.Name, Standing: standing(v, unit, others)})
		}
	}

	ps := Peers(run, published)
	c.PublishedScope, c.PublishedRows = ps.Scope(), len(ps.Rows)
	c.PublishedWhy = ps.Missing(run)
	usedSources := map[string]bool{}
	for _, f := range publishedFigures(run, ps) {
		vals := make([]float64, len(f.drives))
		var srcs []string
		for i, d := range f.drives {
			vals[i] = d.value
			if !slices.Contains(srcs, d.row.SourceID) {
				srcs = append(srcs, d.row.SourceID)
			}
			usedSources[d.row.SourceID] = true
		}
		note := f.cand.note
		if f.converted > 0 {
			note += fmt.Sprintf("; %d of the %d published figures converted: %s", f.converted, len(f.drives), f.col.rowNote)
		}
		c.Published = append(c.Published, PublishedFigure{
			Column: f.col.column, Label: f.col.label, Method: f.col.method, Test: f.ours.name,
			SameMethod: f.cand.same, Note: note, Sources: srcs,
			Standing: standing(f.oursValue, f.col.unit, vals),
		})
	}
	if len(ps.Rows) > 0 && len(c.Published) == 0 {
		c.PublishedWhy = "the run has no test that maps to a published figure"
	}
	for _, id := range ps.SourceIDs() {
		if n, ok := sourceUnitNotes[id]; ok && usedSources[id] {
			c.SourceNotes = append(c.SourceNotes, id+": "+n)
		}
	}
	return c
}

// primaryFigure is a test's headline figure and its unit: IOPS for the tests about IOPS, else
// MB/s.
func primaryFigure(t record.Test) (value float64, unit string) {
	if t.Primary == "iops" {
		return t.IOPS, "IOPS"
	}
	return t.MBPerS, "MB/s"
}

func boardModel(r *record.Run) string {
	if r.Host == nil {
		return ""
	}
	return r.Host.Model
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
