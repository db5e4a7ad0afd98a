package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/iomark/iomark/internal/store"
)

// SearchData is the search page: results and drives whose brand or model match q, optionally
// narrowed to a class, board or source.
type SearchData struct {
	Q      string       `json:"q"`
	Class  string       `json:"class,omitempty"`
	Board  string       `json:"board,omitempty"`
	Source string       `json:"source,omitempty"`
	Link   string       `json:"link,omitempty"`        // bus the drive is attached by: sd, usb, pcie…
	CapGB  float64      `json:"capacity_gb,omitempty"` // labelled capacity, GB (10^9 bytes)
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

func (s *Server) searchData(r *http.Request) (any, error) {
	q := r.URL.Query()
	d := SearchData{Q: q.Get("q"), Class: q.Get("class"), Board: q.Get("board"), Source: q.Get("source"),
		Link: q.Get("link"), Drives: []DriveRef{}, List: []RunSummary{}}
	narrow := store.Narrow{LinkBus: d.Link}
	if v := q.Get("capacity_gb"); v != "" {
		gb, err := strconv.ParseFloat(v, 64)
		if err != nil || gb <= 0 || gb > 1e6 {
			return nil, badInput(errorf("capacity_gb must be a positive number of GB, as on the label"))
		}
		d.CapGB = gb
		// A drive labelled N GB holds a little less than N·10^9 bytes (spare area, and cards
		// round up): 85 % to 102 % of the label finds it without finding the next size.
		narrow.MinCapacityBytes, narrow.MaxCapacityBytes = int64(gb*1e9*0.85), int64(gb*1e9*1.02)
	}
	lp, err := parseList(q, store.RunSorts, "date", "desc")
	if err != nil {
		return nil, badInput(err)
	}
	f := store.Filter{Text: d.Q, DeviceClass: d.Class, Board: d.Board, Source: d.Source}
	agg, err := s.searchAggregates(r.Context(), f, narrow)
	if err != nil {
		return nil, err
	}
	lp.sortable(agg.total)
	lf := lp.filter(f)
	lf.Matched, lf.MatchedKeys = agg.total, agg.keys
	var runs []store.Run
	if agg.total > 0 || !agg.fresh { // a kept count may be behind: look
		if runs, err = s.st.SortedRuns(r.Context(), lf, lp.Sort, lp.Order == "desc", narrow); err != nil {
			return nil, err
		}
	}
	for _, run := range runs {
		d.List = append(d.List, summarize(run))
	}
	if err := s.withSpeeds(r.Context(), d.List); err != nil {
		return nil, err
	}
	d.Pager = newPager("/search", q, lp, agg.total, store.RunSorts)
	if lp.Page > 1 {
		return d, nil // drives are listed on the first page only
	}
	d.Drives = agg.drives
	return d, nil
}

// searchAggregates is the part of a search that reads every match: how many results match and
// which drives lead. A word in most names ("samsung") matches a large share of all results, so
// these are kept like the rankings (cache.go), per query and filters; the result list itself is
// always read fresh.
//
// keys (Summary.Keys) lets SortedRuns read a rare combination of filters by drive; it is given
// only when computed for this request, since runs of a drive new to the query since then would
// be missed.
type searchAggregates struct {
	total  int
	keys   []string
	drives []DriveRef
	fresh  bool // computed for this request
}

func (s *Server) searchAggregates(ctx context.Context, f store.Filter, narrow store.Narrow) (searchAggregates, error) {
	key := fmt.Sprintf("%q\x00%q\x00%q\x00%q\x00%+v", strings.ToLower(strings.TrimSpace(f.Text)), f.DeviceClass, f.Board, f.Source, narrow)
	var computed atomic.Pointer[searchAggregates]
	v, err := s.searches.get(ctx, key, func(ctx context.Context) (any, error) {
		sm, err := s.st.Summarize(ctx, f, narrow)
		if err != nil {
			return nil, err
		}
		a := &searchAggregates{total: sm.Runs, keys: sm.Keys(), drives: []DriveRef{}}
		defer computed.Store(a)
		for _, g := range sm.Drives[:min(len(sm.Drives), searchDrives)] {
			a.drives = append(a.drives, DriveRef{DeviceKey: g.Key, URL: drivePath(g.Key), Class: g.DeviceClass, Vendor: g.Vendor, Model: g.Model, Results: g.Runs})
		}
		return a, nil
	})
	if err != nil {
		return searchAggregates{}, err
	}
	a := *v.(*searchAggregates)
	a.fresh = v == any(computed.Load())
	if !a.fresh {
		a.keys = nil
	}
	return a, nil
}
