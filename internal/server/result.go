package server

import (
	"encoding/json"
	"net/http"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// storedFlags are the doubts the server stored with a run (never nil).
func storedFlags(run store.Run) []Flag {
	out := []Flag{}
	if len(run.Flags) > 0 {
		_ = json.Unmarshal(run.Flags, &out) // written by this server (results.go); a bad one shows none
	}
	return out
}

// ResultData is the result page: the whole record, its flags, and the published source when it
// is a reference result.
type ResultData struct {
	Summary RunSummary `json:"summary"`
	RawURL  string     `json:"raw_url"`
	// Listed is false when the result counts nowhere (the server doubts it, or the operator hid
	// it): it is shown here only, marked. Moderation is the operator's word, if any.
	Listed     bool   `json:"listed"`
	Moderation string `json:"moderation,omitempty"`
	// Flags are the server's doubts (stored when the result was uploaded) and notes.
	Flags     []Flag      `json:"flags"`
	Published *Published  `json:"published,omitempty"`
	Record    *record.Run `json:"record"`
	// Series is the per-interval throughput of the sustained test (or the longest series).
	SeriesTest string       `json:"series_test,omitempty"`
	Series     [][2]float64 `json:"series,omitempty"` // [seconds, MB/s]
	// Grid is the CrystalDiskMark-style grid filled from the run's tests of those shapes.
	Grid []CDMRow `json:"grid"`
	// Held is true while the result waits for review (an outlier, a burst): shown here, ranked
	// nowhere until the operator approves it.
	Held bool `json:"held,omitempty"`
	// Standing is where the result stands among the site's results (standing.go).
	Standing *ResultStanding `json:"standing,omitempty"`
}

func (s *Server) resultData(r *http.Request) (any, error) {
	id := r.PathValue("id")
	run, _, err := s.st.GetRun(r.Context(), id)
	if err != nil {
		if isNotFound(err) {
			return nil, notFound("no result has id " + id)
		}
		return nil, err
	}
	if run.Moderation == store.ModerationHidden {
		return nil, gone(id)
	}
	rec, pub := decodeStored(run.Record)
	if rec == nil {
		return nil, errorf("stored record %s does not decode", id)
	}
	d := ResultData{Summary: summarize(run), RawURL: "/result/" + run.ID + "/raw", Listed: run.Listed,
		Moderation: run.Moderation, Flags: append(storedFlags(run), notes(rec)...), Published: pub, Record: rec, Grid: cdmGrid(rec.Tests)}
	one := []RunSummary{d.Summary}
	if err := s.withSpeeds(r.Context(), one); err != nil {
		return nil, err
	}
	d.Summary = one[0]
	if d.Standing, err = s.standing(r.Context(), run.ID); err != nil {
		return nil, err
	}
	if run.Listed && run.Source != store.SourcePublished {
		dec := compare.Decide(rec)
		if entries, err := s.modelEntries(r.Context(), dec.Model.Key); err == nil {
			others := entries[:0:0]
			for _, e := range entries {
				if e.ID != run.ID {
					others = append(others, e)
				}
			}
			if n := farBelow(others, dec); n != nil {
				d.Flags = append(d.Flags, *n)
			}
		}
	}
	for _, f := range d.Flags {
		d.Held = d.Held || heldFlags[f.ID]
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
