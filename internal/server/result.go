package server

import (
	"net/http"

	"github.com/iomark/iomark/internal/record"
)

// ResultData is the result page: the whole record, its flags, and the published source when it
// is a reference result.
type ResultData struct {
	Summary   RunSummary  `json:"summary"`
	RawURL    string      `json:"raw_url"`
	Flags     []Flag      `json:"flags"`
	Published *Published  `json:"published,omitempty"`
	Record    *record.Run `json:"record"`
	// Series is the per-interval throughput of the sustained test (or the longest series).
	SeriesTest string       `json:"series_test,omitempty"`
	Series     [][2]float64 `json:"series,omitempty"` // [seconds, MB/s]
}

func (s *Server) resultPage(w http.ResponseWriter, r *http.Request) {
	s.asPage(w, r, "result", s.resultData)
}
func (s *Server) resultAPI(w http.ResponseWriter, r *http.Request) { s.asAPI(w, r, s.resultData) }

func (s *Server) resultData(r *http.Request) (any, error) {
	id := r.PathValue("id")
	run, _, err := s.st.GetRun(r.Context(), id)
	if err != nil {
		if isNotFound(err) {
			return nil, notFound("no result has id " + id)
		}
		return nil, err
	}
	rec, pub := decodeStored(run.Record)
	if rec == nil {
		return nil, errorf("stored record %s does not decode", id)
	}
	d := ResultData{Summary: summarize(run), RawURL: "/result/" + run.ID + "/raw", Flags: flags(rec), Published: pub, Record: rec}
	if d.Flags == nil {
		d.Flags = []Flag{}
	}
	var best *record.Test
	for i := range rec.Tests {
		t := &rec.Tests[i]
		if len(t.Series) == 0 {
			continue
		}
		if best == nil || t.Sustained != nil && best.Sustained == nil || (t.Sustained != nil) == (best.Sustained != nil) && len(t.Series) > len(best.Series) {
			best = t
		}
	}
	if best != nil {
		d.SeriesTest = best.Name
		for _, p := range best.Series {
			d.Series = append(d.Series, [2]float64{p.TS, p.MBPerS})
		}
	}
	return d, nil
}
