package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

// TestPublishedRecordListsEveryFigure: the Published block of a seeded row carries every
// figure its source printed, as printed, under its CSV column (a PiBenchmarks score, a maker's
// IOPS with its thousands separator), not only the columns that became tests.
func TestPublishedRecordListsEveryFigure(t *testing.T) {
	rows, err := refdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, res := range rows {
		if res.SourceID != "compute-blade-cm5-pcie3" && res.SourceID != "rpi-docs-ssds" {
			continue
		}
		_, raw, err := publishedRecord(res)
		if err != nil {
			t.Fatalf("row %d: %v", res.Row, err)
		}
		var doc struct {
			Published Published `json:"published"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("row %d: %v", res.Row, err)
		}
		got := map[string]string{}
		for _, f := range doc.Published.Figures {
			got[f.Column] = f.Printed
		}
		want := res.Figures()
		if len(got) != len(want) {
			t.Errorf("row %d: %d figures in the record, the row prints %d: %v", res.Row, len(got), len(want), got)
		}
		for _, f := range want {
			if got[f.Column] != f.Figure.Printed {
				t.Errorf("row %d %s: record has %q, the row prints %q", res.Row, f.Column, got[f.Column], f.Figure.Printed)
			}
		}
		checked++
	}
	if checked != 7 {
		t.Errorf("checked %d rows of compute-blade-cm5-pcie3 and rpi-docs-ssds, want 7", checked)
	}
}

// A stored published row that this iomark makes differently (an older mapping) is replaced at
// the next seeding, and its score, which older seeds dropped, is stored and listed.
func TestSeedPublishedReplacesChangedRows(t *testing.T) {
	ts := startUnlimited(t)
	ctx := context.Background()
	rows, _ := refdata.Load()
	var row refdata.Result
	for _, r := range rows {
		if r.SourceID == "pineboards-nvme-compatibility" && r.MakeModel == "Western Digital SN530" {
			row = r
		}
	}
	run, raw, err := publishedRecord(row)
	if err != nil {
		t.Fatal(err)
	}
	// As an older iomark stored it: no score, no decision.
	run.Scores = record.Scores{}
	old, tests, err := runstore.Row(run, store.SourcePublished)
	if err != nil {
		t.Fatal(err)
	}
	old.Decision = nil
	if err := ts.st.SaveRun(ctx, old, tests); err != nil {
		t.Fatal(err)
	}
	if _, err := SeedPublished(ctx, ts.st); err != nil {
		t.Fatal(err)
	}
	stored, _, err := ts.st.GetRun(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(stored.Record) != string(raw) || stored.ScorePibenchmarks == nil || *stored.ScorePibenchmarks != 45735 {
		t.Errorf("stored row not replaced: score %v", stored.ScorePibenchmarks)
	}
	ds, _ := ts.st.Decisions(ctx, []string{run.ID})
	if d := ds[run.ID]; d.Family != "Pi 5" || d.LinkSetting != "PCIe gen 3 x1" || !d.Ranked {
		t.Errorf("decision %+v", d)
	}
	if n, _ := ts.st.CountRuns(ctx, store.Filter{Source: store.SourcePublished}); n != len(rows) {
		t.Errorf("%d published rows stored, want %d (the replaced one counted once)", n, len(rows))
	}
}
