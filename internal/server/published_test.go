package server

import (
	"encoding/json"
	"testing"

	"github.com/iomark/iomark/internal/refdata"
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
