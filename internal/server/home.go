package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"

	"github.com/iomark/iomark/internal/store"
)

// HomeData is the home page: the leaderboard (leaderboard.go) of one board family, filtered by
// ?family=, ?board=, ?class= and ?link=, and the latest results.
type HomeData struct {
	Leaderboard Leaderboard  `json:"leaderboard"`
	Latest      []RunSummary `json:"latest"`
	Total       int          `json:"total_results"`
}

// BoardBest ranks the drives of one board by the median MB/s of one test, best first per class.
type BoardBest struct {
	Board   string      `json:"board"`
	URL     string      `json:"url"`
	Runs    int         `json:"runs"`
	Test    string      `json:"test"` // the test most results of the board have
	Classes []ClassBest `json:"classes"`
}

// ClassBest is the leading drives of one class on one board.
type ClassBest struct {
	Class  string        `json:"class"`
	Drives []DriveMedian `json:"drives"`
}

// DriveMedian is one drive's median on a test.
type DriveMedian struct {
	DeviceKey    string  `json:"device_key"`
	URL          string  `json:"url"`
	Vendor       string  `json:"vendor"`
	Model        string  `json:"model"`
	MedianMBPerS float64 `json:"median_mb_per_s"`
	Results      int     `json:"results"`
}

const (
	homeLatest     = 10
	rankingFigures = 20000 // figures read per board to rank its drives
)

func (s *Server) homePage(w http.ResponseWriter, r *http.Request) { s.asPage(w, r, "home", s.homeData) }
func (s *Server) homeAPI(w http.ResponseWriter, r *http.Request)  { s.asAPI(w, r, s.homeData) }

func (s *Server) homeData(r *http.Request) (any, error) {
	v, err := s.cache.get(r.Context(), "home", s.buildHome)
	if err != nil {
		return nil, err
	}
	base, err := s.leaderBase(r.Context())
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	d := v.(HomeData)
	d.Leaderboard = rankLeaders(base, leaderFilter{family: q.Get("family"), board: q.Get("board"), class: q.Get("class"), link: q.Get("link")})
	return d, nil
}

// Warm computes the home page's rankings (the most popular boards') so the first visitor after a
// start does not wait for them; serve calls it in the background once listening.
func (s *Server) Warm(ctx context.Context) error {
	if _, err := s.cache.get(ctx, "home", s.buildHome); err != nil {
		return err
	}
	_, err := s.leaderBase(ctx)
	return err
}

func (s *Server) buildHome(ctx context.Context) (any, error) {
	latest, err := s.st.SortedRuns(ctx, store.Filter{Limit: homeLatest}, "date", true)
	if err != nil {
		return nil, err
	}
	d := HomeData{Latest: []RunSummary{}}
	for _, run := range latest {
		d.Latest = append(d.Latest, summarize(run))
	}
	if d.Total, err = s.st.CountRuns(ctx, store.Filter{}); err != nil {
		return nil, err
	}
	return d, nil
}

// boardBest ranks a board's drives per class on the board's most common test (cached).
func (s *Server) boardBest(ctx context.Context, b store.Group, perClass int) (BoardBest, error) {
	v, err := s.cache.get(ctx, fmt.Sprintf("board\x00%s\x00%d", b.Key, perClass), func(ctx context.Context) (any, error) {
		return s.rankBoard(ctx, b, perClass)
	})
	if err != nil {
		return BoardBest{}, err
	}
	return v.(BoardBest), nil
}

func (s *Server) rankBoard(ctx context.Context, b store.Group, perClass int) (BoardBest, error) {
	bb := BoardBest{Board: b.Key, URL: boardPath(b.Key), Runs: b.Runs, Classes: []ClassBest{}}
	type acc struct {
		DriveMedian
		class  string
		values []float64
	}
	perTest := map[string]map[string]*acc{} // test, then device key
	counts := map[string]int{}
	err := s.st.EachFigure(ctx, store.Filter{Board: b.Key, Limit: rankingFigures}, func(f *store.Figure) error {
		counts[f.Test]++
		if f.DeviceKey == "" {
			return nil
		}
		drives := perTest[f.Test]
		if drives == nil {
			drives = map[string]*acc{}
			perTest[f.Test] = drives
		}
		a := drives[f.DeviceKey]
		if a == nil {
			a = &acc{DriveMedian: DriveMedian{DeviceKey: f.DeviceKey, URL: drivePath(f.DeviceKey), Vendor: f.Vendor, Model: f.Model}, class: f.DeviceClass}
			drives[f.DeviceKey] = a
		}
		a.values = append(a.values, f.MBPerS)
		return nil
	})
	if err != nil {
		return bb, err
	}
	if names := byCount(counts); len(names) > 0 {
		bb.Test = names[0]
	}
	drives := perTest[bb.Test]
	byClass := map[string][]DriveMedian{}
	for _, a := range drives {
		a.MedianMBPerS = statsOf(a.values).Median
		a.Results = len(a.values)
		byClass[a.class] = append(byClass[a.class], a.DriveMedian)
	}
	for class, ds := range byClass {
		sort.Slice(ds, func(i, j int) bool {
			if ds[i].MedianMBPerS != ds[j].MedianMBPerS {
				return ds[i].MedianMBPerS > ds[j].MedianMBPerS
			}
			return ds[i].DeviceKey < ds[j].DeviceKey
		})
		if perClass > 0 && len(ds) > perClass {
			ds = ds[:perClass]
		}
		bb.Classes = append(bb.Classes, ClassBest{Class: class, Drives: ds})
	}
	sort.Slice(bb.Classes, func(i, j int) bool { return bb.Classes[i].Class < bb.Classes[j].Class })
	return bb, nil
}
