package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/compare"
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

// publishedTestNames name a published headline figure as a test of the record, by the method
// it was measured with: a figure measured as iomark's test is (4K random at QD1 with O_DIRECT,
// iozone's 1 MiB passes) takes that test's name, any other its tool's. The figures come through
// compare's one map from published columns (compare.PublishedFigures); iozone's kB/s figures
// also stay in Published.Figures, as printed.
var publishedTestNames = map[compare.Metric]map[string]struct{ name, op string }{
	compare.MetricSeqRead: {compare.MethodDirectQD1: {"seq-read-1m", "read"}, compare.MethodHdparm: {"hdparm-read", "hdparm-read"},
		compare.MethodHdparmDirect: {"hdparm-direct-read", "hdparm-read"}, compare.MethodFioDeep: {"fio-seq-read-1m", "read"}},
	compare.MetricSeqWrite:  {compare.MethodDirectQD1: {"seq-write-1m", "write"}, compare.MethodDD: {"dd-write", "dd-write"}},
	compare.MetricRandRead:  {compare.MethodDirectQD1: {"rand-read-4k-qd1", "randread"}},
	compare.MetricRandWrite: {compare.MethodDirectQD1: {"rand-write-4k-qd1", "randwrite"}},
}

// publishedRecord turns one published result into a record plus its Published block.
func publishedRecord(res refdata.Result) (*record.Run, []byte, error) {
	created := time.Unix(0, 0).UTC() // the source states no date: shown as "not stated"
	if t, err := time.Parse("2006-01-02", res.SourceDate); err == nil {
		created = t
	}
	run := &record.Run{SchemaVersion: record.SchemaVersion,
		ID:          compare.PublishedID(res),
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
	figs := compare.PublishedFigures(res)
	for _, m := range compare.Metrics() {
		f, ok := figs[m]
		if !ok {
			continue
		}
		if m == compare.MetricScore {
			score := int(f.Value)
			run.Scores.Pibenchmarks = &score
			continue
		}
		if t, ok := publishedTestNames[m][f.Method]; ok {
			test := record.Test{Name: t.name, Op: t.op, MBPerS: f.Value, MiBPerS: f.Value * 1e6 / (1 << 20), Primary: "mb_per_s", Runs: 1}
			switch m {
			case compare.MetricRandRead, compare.MetricRandWrite:
				test.BS, test.QD, test.Jobs, test.Direct = 4096, 1, 1, true
			case compare.MetricSeqRead, compare.MetricSeqWrite:
				if f.Method == compare.MethodDirectQD1 {
					test.BS, test.QD, test.Jobs, test.Direct = 1<<20, 1, 1, true
				}
			}
			run.Tests = append(run.Tests, test)
		}
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

// SeedPublished stores the published reference results not stored yet, and replaces a stored
// one whose record this iomark makes differently (a corrected row, a changed mapping): published
// rows are iomark's own. It is cheap and idempotent, so `iomark serve` calls it at every start.
func SeedPublished(ctx context.Context, st *store.Store) (added int, err error) {
	results, err := refdata.Load()
	if err != nil {
		return 0, err
	}
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
		row.Decision = runstore.StoreDecision(compare.DecidePublished(res))
		if d := doubts(run, store.SourcePublished, time.Now()); len(d) > 0 {
			// A published figure the server doubts is kept out of the rankings like any other.
			if row.Flags, err = json.Marshal(d); err != nil {
				return added, err
			}
		}
		err = st.SaveRun(ctx, row, tests)
		switch {
		case err == nil:
			added++
		case errors.Is(err, store.ErrDuplicate):
			// Stored as it is: its decision may still be of an older comparison model.
			if err := st.SetDecision(ctx, run.ID, *row.Decision); err != nil {
				return added, err
			}
		case errors.Is(err, store.ErrConflict):
			// Made differently by this iomark: the stored row is replaced.
			if err := st.DeleteRun(ctx, run.ID); err != nil {
				return added, fmt.Errorf("server: replacing published row %s: %w", run.ID, err)
			}
			if err := st.SaveRun(ctx, row, tests); err != nil {
				return added, fmt.Errorf("server: replacing published row %s: %w", run.ID, err)
			}
			added++
		default:
			return added, err
		}
	}
	return added, nil
}
