package server

import (
	"context"
	"net/http"

	"github.com/iomark/iomark/internal/store"
)

// HomeData is the home page: the leaderboard (leaderboard.go) of one board family, filtered by
// ?family=, ?board=, ?class= and ?link=, and the latest results.
type HomeData struct {
	Leaderboard Leaderboard  `json:"leaderboard"`
	Latest      []RunSummary `json:"latest"`
	Total       int          `json:"total_results"`
}

const homeLatest = 10

func (s *Server) homeData(r *http.Request) (any, error) {
	v, err := s.cache.get(r.Context(), "home", s.buildHome)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	d := v.(HomeData)
	d.Leaderboard, err = s.leaders(r.Context(), leaderFilter{family: q.Get("family"), board: q.Get("board"), class: q.Get("class"), link: q.Get("link")})
	return d, err
}

// Warm computes the home page's rankings (the most popular boards') so the first visitor after a
// start does not wait for them; serve calls it in the background once listening.
func (s *Server) Warm(ctx context.Context) error {
	if _, err := s.cache.get(ctx, "home", s.buildHome); err != nil {
		return err
	}
	_, err := s.leaders(ctx, leaderFilter{})
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
	if err := s.withSpeeds(ctx, d.Latest); err != nil {
		return nil, err
	}
	if d.Total, err = s.st.CountRuns(ctx, store.Filter{}); err != nil {
		return nil, err
	}
	return d, nil
}
