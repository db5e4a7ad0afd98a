package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

// Published is what a published reference result adds to its record (the "published" key):
// the source and every figure exactly as printed there.
type Published struct {
	SourceID    string            `json:"source_id"`
	SourceTitle string            `json:"source_title,omitempty"`
	SourceDate  string            `json:"source_date,omitempty"` // YYYY-MM-DD; empty when not stated
	SourceAbout string            `json:"source_about,omitempty"`
	Row         int               `json:"row"` // data row in refdata's published-results.csv
	MakeModel   string            `json:"make_model"`
	Interface   string            `json:"interface,omitempty"`
	Figures     []PublishedFigure `json:"figures"`
	Notes       string            `json:"notes,omitempty"`
}

// PublishedFigure is one figure as its source printed it, with the CSV column naming its unit.
type PublishedFigure struct {
	Column  string `json:"column"`
	Printed string `json:"printed"`
}

// publishedTests maps the CSV's MB/s columns to tests of a record; iozone's kB/s figures stay
// only in Published.Figures, as printed, since a test's figure is in MB/s and converting would
// put a unit in the source's mouth.
var publishedTests = []struct {
	name, op string
	fig      func(refdata.Result) refdata.Figure
}{
	{"hdparm-read", "hdparm-read", func(r refdata.Result) refdata.Figure { return r.HdparmReadMBps }},
	{"dd-write", "dd-write", func(r refdata.Result) refdata.Figure { return r.DDWriteMBps }},
	{"rand-read-4k", "randread", func(r refdata.Result) refdata.Figure { return r.Rand4kReadMBps }},
	{"rand-write-4k", "randwrite", func(r refdata.Result) refdata.Figure { return r.Rand4kWriteMBps }},
}

// publishedRecord turns one published result into a record plus its Published block.
func publishedRecord(res refdata.Result) (*record.Run, []byte, error) {
	created := time.Unix(0, 0).UTC() // the source states no date: shown as "not stated"
	if t, err := time.Parse("2006-01-02", res.SourceDate); err == nil {
		created = t
	}
	run := &record.Run{SchemaVersion: record.SchemaVersion,
		ID:          fmt.Sprintf("published-%s-%d", res.SourceID, res.Row),
		CreatedAt:   created,
		ToolVersion: "published",
		Profile:     "published",
		Host:        &probe.Board{Model: res.Board},
		Device:      &probe.Device{Class: res.StorageClass, Model: res.MakeModel},
		Tests:       []record.Test{},
		Findings:    nil,
	}
	if res.CapacityGB.Value != nil {
		run.Device.CapacityBytes = uint64(*res.CapacityGB.Value * 1e9) // as labelled, GB = 10^9 bytes
	}
	for _, pt := range publishedTests {
		f := pt.fig(res)
		if f.Value == nil {
			continue
		}
		run.Tests = append(run.Tests, record.Test{Name: pt.name, Op: pt.op, MBPerS: *f.Value, Primary: "mb_per_s", Runs: 1})
	}
	pub := Published{SourceID: res.SourceID, SourceTitle: res.SourceTitle, SourceDate: res.SourceDate,
		Row: res.Row, MakeModel: res.MakeModel, Interface: res.Interface, Notes: res.Notes}
	if src, ok := refdata.SourceByID(res.SourceID); ok {
		pub.SourceAbout = src.About
	}
	// Every figure the source printed, each under the CSV column that names its unit.
	for _, f := range res.Figures() {
		pub.Figures = append(pub.Figures, PublishedFigure{Column: f.Column, Printed: f.Figure.Printed})
	}
	raw, err := json.Marshal(run)
	if err != nil {
		return nil, nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, nil, err
	}
	if obj["published"], err = json.Marshal(pub); err != nil {
		return nil, nil, err
	}
	raw, err = json.Marshal(obj)
	return run, raw, err
}

// SeedPublished stores the published reference results not stored yet. It is cheap and
// idempotent, so `iomark serve` calls it at every start.
func SeedPublished(ctx context.Context, st *store.Store) (added int, err error) {
	results, err := refdata.Load()
	if err != nil {
		return 0, err
	}
	var conflicts []string
	for _, res := range results {
		run, raw, err := publishedRecord(res)
		if err != nil {
			return added, fmt.Errorf("server: published row %d: %w", res.Row, err)
		}
		row, tests, err := runstore.Row(run, store.SourcePublished)
		if err != nil {
			return added, err
		}
		row.Record = raw
		err = st.SaveRun(ctx, row, tests)
		switch {
		case err == nil:
			added++
		case errors.Is(err, store.ErrDuplicate):
		case errors.Is(err, store.ErrConflict):
			// A corrected row of a newer iomark: the stored one stays; say so.
			conflicts = append(conflicts, run.ID)
		default:
			return added, err
		}
	}
	if len(conflicts) > 0 {
		return added, fmt.Errorf("server: published results %s differ from the stored ones; they were kept as stored", strings.Join(conflicts, ", "))
	}
	return added, nil
}
