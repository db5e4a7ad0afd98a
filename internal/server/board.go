package server

import (
	"net/http"

	"github.com/iomark/iomark/internal/store"
)

// BoardData is the board page: its drives ranked per class and its results.
type BoardData struct {
	Board string   `json:"board"`
	Chart BarChart `json:"chart"` // sequential and 4K random read per drive
	// Leaders ranks the board's drives per class as the home page does (leaderboard.go).
	Leaders Leaderboard  `json:"leaders"`
	List    []RunSummary `json:"list"`
	Pager   Pager        `json:"pager"`
}

func (s *Server) boardPage(w http.ResponseWriter, r *http.Request) {
	s.asPage(w, r, "board", s.boardData)
}
func (s *Server) boardAPI(w http.ResponseWriter, r *http.Request) { s.asAPI(w, r, s.boardData) }

func (s *Server) boardData(r *http.Request) (any, error) {
	q := r.URL.Query()
	name := q.Get("name")
	if name == "" {
		return nil, badInput(errorf("give the board: /board?name=…"))
	}
	lp, err := parseList(q, store.RunSorts, "date", "desc")
	if err != nil {
		return nil, badInput(err)
	}
	ctx := r.Context()
	f := store.Filter{Board: name}
	total, err := s.st.CountRuns(ctx, f)
	if err != nil {
		return nil, err
	}
	if total == 0 {
		return nil, notFound("no result was measured on board " + name)
	}
	lp.sortable(total)
	d := BoardData{Board: name, List: []RunSummary{}}
	if d.Leaders, err = s.leaders(ctx, leaderFilter{board: displayBoard(name), all: true}); err != nil {
		return nil, err
	}
	if d.Chart, err = s.boardBars(ctx, name); err != nil {
		return nil, err
	}
	runs, err := s.st.SortedRuns(ctx, lp.filter(f), lp.Sort, lp.Order == "desc")
	if err != nil {
		return nil, err
	}
	for _, run := range runs {
		d.List = append(d.List, summarize(run))
	}
	if err := s.withSpeeds(ctx, d.List); err != nil {
		return nil, err
	}
	d.Pager = newPager("/board", q, lp, total, store.RunSorts)
	return d, nil
}
