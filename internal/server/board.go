package server

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/store"
)

// BoardData is the board page: its drives ranked per class and its results.
type BoardData struct {
	Board string   `json:"board"`
	Chart BarChart `json:"chart"` // sequential and 4K random read per drive
	// Leaders ranks the board's drives per class as the home page does (leaderboard.go).
	Leaders Leaderboard `json:"leaders"`
	// Charts are one bar chart per headline figure of each ranking: its drives' medians,
	// best first, at most boardChartBars bars.
	Charts []BarChart   `json:"charts"`
	List   []RunSummary `json:"list"`
	Pager  Pager        `json:"pager"`
}

func (s *Server) boardData(r *http.Request) (any, error) {
	q := r.URL.Query()
	name := q.Get("name")
	if name == "" {
		return nil, badInput(errorf("give the board: /board?name=…"))
	}
	list, pager, _, err := s.runPage(r, "/board", store.Filter{Board: name}, "no result was measured on board "+name)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	d := BoardData{Board: name, List: list, Pager: pager}
	if d.Leaders, err = s.leaders(ctx, leaderFilter{board: displayBoard(name), all: true}); err != nil {
		return nil, err
	}
	if d.Chart, err = s.boardBars(ctx, name); err != nil {
		return nil, err
	}
	d.Charts = metricCharts(d.Leaders)
	return d, nil
}

// runPage is the page of the runs f selects that the query asks for (sorted, newest first
// unless told), with their headline figures, the pager and the runs' total; none is the
// not-found message when f selects no run.
func (s *Server) runPage(r *http.Request, path string, f store.Filter, none string) ([]RunSummary, Pager, int, error) {
	q := r.URL.Query()
	lp, err := parseList(q, store.RunSorts, "date", "desc")
	if err != nil {
		return nil, Pager{}, 0, badInput(err)
	}
	ctx := r.Context()
	total, err := s.st.CountRuns(ctx, f)
	if err != nil {
		return nil, Pager{}, 0, err
	}
	if total == 0 {
		return nil, Pager{}, 0, notFound(none)
	}
	lp.sortable(total)
	runs, err := s.st.SortedRuns(ctx, lp.filter(f), lp.Sort, lp.Order == "desc")
	if err != nil {
		return nil, Pager{}, 0, err
	}
	list := []RunSummary{}
	for _, run := range runs {
		list = append(list, summarize(run))
	}
	if err := s.withSpeeds(ctx, list); err != nil {
		return nil, Pager{}, 0, err
	}
	return list, newPager(path, q, lp, total, store.RunSorts), total, nil
}

const boardChartBars = 12

// metricCharts draws, for each ranking of a leaderboard, one chart per headline figure that two
// or more of its drives have: their medians, best first.
func metricCharts(lb Leaderboard) []BarChart {
	out := []BarChart{}
	for i, sec := range lb.Sections {
		for _, m := range compare.Metrics() {
			type bar struct {
				name string
				v    float64
			}
			var bars []bar
			for _, d := range sec.Drives {
				if v := d.Medians.of(m); v != nil {
					bars = append(bars, bar{d.Name, *v})
				}
			}
			if len(bars) < 2 {
				continue
			}
			sort.SliceStable(bars, func(a, b int) bool { return bars[a].v > bars[b].v })
			bars = bars[:min(len(bars), boardChartBars)]
			title := fmt.Sprintf("%s%s: %s, median per drive (%s)", sec.Class, settingSuffix(sec.Setting), m.Words(), m.Unit())
			c := BarChart{ID: fmt.Sprintf("m%d-%s", i, m), Title: title, Unit: m.Unit(), Horizontal: true, Labels: []string{},
				Series: []BarSeries{{Label: m.Words(), Values: []*float64{}}}}
			for _, b := range bars {
				c.Labels = append(c.Labels, b.name)
				c.Series[0].Values = append(c.Series[0].Values, fp(b.v))
			}
			out = append(out, c)
		}
	}
	return out
}

func settingSuffix(s string) string {
	if s == "" {
		return ""
	}
	return " · " + s
}
