package server

import (
	"net/http"

	"github.com/iomark/iomark/internal/store"
)

// SearchData is the search page: results and drives whose brand or model match q, optionally
// narrowed to a class, board or source.
type SearchData struct {
	Q      string       `json:"q"`
	Class  string       `json:"class,omitempty"`
	Board  string       `json:"board,omitempty"`
	Source string       `json:"source,omitempty"`
	Drives []DriveRef   `json:"drives"`
	List   []RunSummary `json:"results"`
	Pager  Pager        `json:"pager"`
}

// DriveRef names a drive and how many results it has.
type DriveRef struct {
	DeviceKey string `json:"device_key"`
	URL       string `json:"url"`
	Class     string `json:"class"`
	Vendor    string `json:"vendor"`
	Model     string `json:"model"`
	Results   int    `json:"results"`
}

const searchDrives = 20

func (s *Server) searchPage(w http.ResponseWriter, r *http.Request) {
	s.asPage(w, r, "search", s.searchData)
}
func (s *Server) searchAPI(w http.ResponseWriter, r *http.Request) { s.asAPI(w, r, s.searchData) }

func (s *Server) searchData(r *http.Request) (any, error) {
	q := r.URL.Query()
	d := SearchData{Q: q.Get("q"), Class: q.Get("class"), Board: q.Get("board"), Source: q.Get("source"),
		Drives: []DriveRef{}, List: []RunSummary{}}
	for name, v := range map[string]string{"q": d.Q, "class": d.Class, "board": d.Board, "source": d.Source} {
		if err := checkParam(name, v); err != nil {
			return nil, badInput(err)
		}
	}
	lp, err := parseList(q, store.RunSorts, "date", "desc")
	if err != nil {
		return nil, badInput(err)
	}
	f := store.Filter{Text: d.Q, DeviceClass: d.Class, Board: d.Board, Source: d.Source}
	total, err := s.st.CountRuns(r.Context(), f)
	if err != nil {
		return nil, err
	}
	runs, err := s.st.SortedRuns(r.Context(), lp.filter(f), lp.Sort, lp.Order == "desc")
	if err != nil {
		return nil, err
	}
	for _, run := range runs {
		d.List = append(d.List, summarize(run))
	}
	d.Pager = newPager("/search", q, lp, total, store.RunSorts)
	f.Limit = searchDrives
	drives, err := s.st.Drives(r.Context(), f)
	if err != nil {
		return nil, err
	}
	for _, g := range drives {
		d.Drives = append(d.Drives, DriveRef{DeviceKey: g.Key, URL: drivePath(g.Key), Class: g.DeviceClass, Vendor: g.Vendor, Model: g.Model, Results: g.Runs})
	}
	return d, nil
}
