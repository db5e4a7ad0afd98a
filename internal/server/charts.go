package server

import (
	"context"
	"fmt"
	"sort"

	"github.com/iomark/iomark/internal/store"
)

// BarChart is one bar chart of a page: a bar per label and series, drawn by static/charts.js
// from its JSON beside the canvas, and listed as a table for readers without JavaScript.
type BarChart struct {
	ID         string      `json:"id"` // the canvas id, unique on the page
	Title      string      `json:"title"`
	Unit       string      `json:"unit"`
	Horizontal bool        `json:"horizontal"`
	Labels     []string    `json:"labels"`
	Series     []BarSeries `json:"series"`
}

// BarSeries is one colour of bars; a nil value is a bar the label has no figure for.
type BarSeries struct {
	Label  string     `json:"label"`
	Values []*float64 `json:"values"`
}

// Rows pairs each label with its values, for the table a page shows without JavaScript.
func (c BarChart) Rows() []BarRow {
	out := make([]BarRow, len(c.Labels))
	for i, l := range c.Labels {
		out[i].Label = l
		for _, s := range c.Series {
			var v *float64
			if i < len(s.Values) {
				v = s.Values[i]
			}
			out[i].Values = append(out[i].Values, v)
		}
	}
	return out
}

// BarRow is one label's values.
type BarRow struct {
	Label  string
	Values []*float64
}

func fp(v float64) *float64 { return &v }

// The tests a board's bars show: sequential read and 4K random read, each the first of these
// names a drive has (the quick and sbc-reviews profiles, then PiBenchmarks' and published rows'
// names), in MB/s.
var (
	seqReadTests  = []string{"seq-read-1m", "hdparm-read"}
	randReadTests = []string{"rand-read-4k-qd1", "rand-read-4k", "iozone-rand-read-4k"}
)

const (
	boardBarsMax     = 15    // drives on a board's chart, best sequential read first
	boardBarsFigures = 20000 // newest figures of those tests read per board for its chart
)

// boardBars is a board's chart: each drive's median sequential and 4K random read (kept).
func (s *Server) boardBars(ctx context.Context, board string) (BarChart, error) {
	v, err := s.cache.get(ctx, "boardbars\x00"+board, func(ctx context.Context) (any, error) {
		return s.computeBoardBars(ctx, board)
	})
	if err != nil {
		return BarChart{}, err
	}
	return v.(BarChart), nil
}

func (s *Server) computeBoardBars(ctx context.Context, board string) (BarChart, error) {
	type acc struct {
		name string
		figs map[string][]float64
	}
	drives := map[string]*acc{}
	names := append(append([]string{}, seqReadTests...), randReadTests...)
	err := s.st.EachFigure(ctx, store.Filter{Board: board, Limit: boardBarsFigures}, func(f *store.Figure) error {
		if f.DeviceKey == "" || f.MBPerS <= 0 {
			return nil
		}
		a := drives[f.DeviceKey]
		if a == nil {
			a = &acc{name: label(f.Vendor, f.Model, f.DeviceKey), figs: map[string][]float64{}}
			drives[f.DeviceKey] = a
		}
		a.figs[f.Test] = append(a.figs[f.Test], f.MBPerS)
		return nil
	}, names...)
	if err != nil {
		return BarChart{}, err
	}
	first := func(a *acc, tests []string) *float64 {
		for _, t := range tests {
			if v := a.figs[t]; len(v) > 0 {
				return fp(statsOf(v).Median)
			}
		}
		return nil
	}
	type row struct {
		key, name string
		seq, rnd  *float64
	}
	var rows []row
	for key, a := range drives {
		rows = append(rows, row{key, a.name, first(a, seqReadTests), first(a, randReadTests)})
	}
	val := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	sort.Slice(rows, func(i, j int) bool {
		if val(rows[i].seq) != val(rows[j].seq) {
			return val(rows[i].seq) > val(rows[j].seq)
		}
		return rows[i].key < rows[j].key
	})
	if len(rows) > boardBarsMax {
		rows = rows[:boardBarsMax]
	}
	c := BarChart{ID: "board-bars", Title: fmt.Sprintf("Sequential and 4K random read per drive (median MB/s, best %d by sequential read)", boardBarsMax),
		Unit: "MB/s", Horizontal: true, Labels: []string{},
		Series: []BarSeries{{Label: "sequential read", Values: []*float64{}}, {Label: "4K random read", Values: []*float64{}}}}
	for _, r := range rows {
		c.Labels = append(c.Labels, r.name)
		c.Series[0].Values = append(c.Series[0].Values, r.seq)
		c.Series[1].Values = append(c.Series[1].Values, r.rnd)
	}
	return c, nil
}
