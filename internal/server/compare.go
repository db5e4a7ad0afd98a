package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/iomark/iomark/internal/store"
)

// CompareData sets up to 4 drives (?drive=KEY, medians of their results) and up to 4 results
// (?result=ID) side by side, one row per test.
type CompareData struct {
	Kind    string        `json:"kind"` // drive, result or mixed; empty for the empty form
	Columns []CompareItem `json:"columns"`
	Rows    []CompareRow  `json:"rows"`
	Chart   BarChart      `json:"chart"` // MB/s per test, a bar per column
	Found   []Found       `json:"found"` // drives matching each name typed instead of a key
}

// CompareItem is one column.
type CompareItem struct {
	Kind    string `json:"kind"` // drive or result
	Key     string `json:"key"`  // device key or result id
	URL     string `json:"url"`
	Label   string `json:"label"`
	Board   string `json:"board,omitempty"` // results only
	Results int    `json:"results"`
}

// CompareRow is one test across the columns; a nil cell means that column lacks the test.
type CompareRow struct {
	Test  string         `json:"test"`
	Cells []*CompareCell `json:"cells"`
}

// CompareCell holds the median figures (a result's own figures when comparing results).
type CompareCell struct {
	MBPerS float64 `json:"mb_per_s"`
	IOPS   float64 `json:"iops"`
	Count  int     `json:"count"`
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

func (s *Server) compareData(r *http.Request) (any, error) {
	q := r.URL.Query()
	drives, results := nonEmpty(q["drive"]), nonEmpty(q["result"]) // a form's blank fields say nothing
	d := CompareData{Columns: []CompareItem{}, Rows: []CompareRow{}, Found: []Found{}}
	keys := drives[:0:0]
	for i, v := range q["drive"] {
		if v == "" {
			continue
		}
		if !isDriveSearch(v) {
			keys = append(keys, v)
			continue
		}
		found, err := s.findDrives(r.Context(), v, func(key string) string { return replacing("/compare", q, "drive", i, key) })
		if err != nil {
			return nil, err
		}
		d.Found = append(d.Found, found)
	}
	drives = keys
	switch {
	case len(drives) == 0 && len(results) == 0:
		return d, nil // the empty form
	case len(results) == 0:
		d.Kind = "drive"
	case len(drives) == 0:
		d.Kind = "result"
	default:
		d.Kind = "mixed" // a result beside drives' medians: how one run compares with the usual
	}
	ctx := r.Context()
	var columns [][]store.Figure
	add := func(item CompareItem, figs []store.Figure, err error) error {
		if err == nil {
			d.Columns = append(d.Columns, item)
			columns = append(columns, figs)
		}
		return err
	}
	for _, key := range drives {
		if err := add(s.driveColumn(ctx, key)); err != nil {
			return nil, err
		}
	}
	for _, id := range results {
		if err := add(s.resultColumn(ctx, id)); err != nil {
			return nil, err
		}
	}
	d.Rows = compareRows(columns)
	d.Chart = compareChart(d)
	return d, nil
}

// driveColumn is a drive's column: its label, count of results and latest figures.
func (s *Server) driveColumn(ctx context.Context, key string) (CompareItem, []store.Figure, error) {
	item := CompareItem{Kind: "drive", Key: key, URL: drivePath(key), Label: key}
	figs, lbl, err := s.driveFigures(ctx, key)
	if err != nil {
		return CompareItem{}, nil, err
	}
	item.Label = lbl
	n, err := s.st.CountRuns(ctx, store.Filter{DeviceKey: key})
	if err != nil {
		return CompareItem{}, nil, err
	}
	if n == 0 {
		return CompareItem{}, nil, notFound("no result has drive key " + key)
	}
	item.Results = n
	if len(figs) == 0 {
		if runs, err := s.st.ListRuns(ctx, store.Filter{DeviceKey: key, Limit: 1}); err == nil && len(runs) == 1 {
			item.Label = label(runs[0].Vendor, runs[0].Model, key)
		}
	}
	return item, figs, nil
}

// resultColumn is one result's column: its figures as the run recorded them.
func (s *Server) resultColumn(ctx context.Context, id string) (CompareItem, []store.Figure, error) {
	run, tests, err := s.st.GetRun(ctx, id)
	if isNotFound(err) {
		return CompareItem{}, nil, notFound("no result has id " + id)
	}
	if err != nil {
		return CompareItem{}, nil, err
	}
	if run.Moderation == store.ModerationHidden {
		return CompareItem{}, nil, gone(id)
	}
	item := CompareItem{Kind: "result", Key: id, URL: resultPath(id), Label: label(run.Vendor, run.Model, id), Board: run.Board, Results: 1}
	var figs []store.Figure
	for _, t := range tests {
		figs = append(figs, store.Figure{RunID: id, Test: t.Name, MBPerS: t.MBPerS, IOPS: t.IOPS})
	}
	return item, figs, nil
}

// compareRows are a row per test any column has, each cell a column's medians (nil without one).
func compareRows(columns [][]store.Figure) []CompareRow {
	rows := []CompareRow{}
	var all []store.Figure
	for _, c := range columns {
		all = append(all, c...)
	}
	for _, name := range testNames(all) {
		row := CompareRow{Test: name}
		for _, c := range columns {
			var mb, iops []float64
			for _, f := range c {
				if f.Test == name {
					mb, iops = append(mb, f.MBPerS), append(iops, f.IOPS)
				}
			}
			if len(mb) == 0 {
				row.Cells = append(row.Cells, nil)
				continue
			}
			row.Cells = append(row.Cells, &CompareCell{MBPerS: statsOf(mb).Median, IOPS: statsOf(iops).Median, Count: len(mb)})
		}
		rows = append(rows, row)
	}
	return rows
}

// compareChart draws each column's median MB/s per test.
func compareChart(d CompareData) BarChart {
	c := BarChart{ID: "compare-bars", Title: "Median MB/s per test", Unit: "MB/s", Labels: []string{}, Series: []BarSeries{}}
	for _, col := range d.Columns {
		c.Series = append(c.Series, BarSeries{Label: col.Label, Values: []*float64{}})
	}
	for _, row := range d.Rows {
		c.Labels = append(c.Labels, row.Test)
		for i, cell := range row.Cells {
			var v *float64
			if cell != nil {
				v = fp(cell.MBPerS)
			}
			c.Series[i].Values = append(c.Series[i].Values, v)
		}
	}
	return c
}

// nonEmpty drops empty values.
func nonEmpty(vs []string) []string {
	var out []string
	for _, v := range vs {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// interner keeps one copy of each string (test names repeat in every figure of a drive).
type interner map[string]string

func (in interner) get(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

// label names a drive as reported, falling back to its key.
func label(vendor, model, fallback string) string {
	switch {
	case vendor != "" && model != "":
		return vendor + " " + model
	case model != "":
		return model
	case vendor != "":
		return vendor
	}
	return fallback
}

// driveFigures are the figures of a drive's latest runs (at most driveFigures of them), each
// test's name stored once, and the drive's label from its first figure (the key without one).
func (s *Server) driveFigures(ctx context.Context, key string) ([]store.Figure, string, error) {
	var figs []store.Figure
	lbl := key
	names := interner{}
	err := s.st.EachFigure(ctx, store.Filter{DeviceKey: key, Limit: driveFigures}, func(f *store.Figure) error {
		if len(figs) == 0 {
			lbl = label(f.Vendor, f.Model, key)
		}
		figs = append(figs, store.Figure{Test: names.get(f.Test), MBPerS: f.MBPerS, IOPS: f.IOPS})
		return nil
	})
	return figs, lbl, err
}
