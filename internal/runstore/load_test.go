package runstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/store"
)

func TestFindByIDShortIDAndLatest(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, ""); err == nil || !strings.Contains(err.Error(), "no runs saved yet") {
		t.Errorf("latest of an empty database: %v", err)
	}
	older, newer := sampleRun(t), sampleRun(t)
	older.ID, newer.ID = "0198a7c2-0000-7000-8000-00000000a001", "0198a7c2-0000-7000-8000-00000000b001"
	newer.CreatedAt = older.CreatedAt.Add(time.Hour)
	if err := Save(ctx, st, older, store.SourceLocal); err != nil {
		t.Fatal(err)
	}
	if err := Save(ctx, st, newer, store.SourceLocal); err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{
		"": newer.ID, "latest": newer.ID, " LATEST ": newer.ID,
		older.ID: older.ID, ShortID(older.ID): older.ID, "a001": older.ID, strings.ToUpper(ShortID(newer.ID)): newer.ID,
		"0198a7c2-0000-7000-8000-00000000a": older.ID, // a unique start
	} {
		got, err := Load(ctx, st, ref)
		if err != nil || got.ID != want {
			t.Errorf("Load(%q) = %v, %v; want %s", ref, got, err, want)
		}
	}
	if _, err := Load(ctx, st, "001"); err == nil || !strings.Contains(err.Error(), "matches 2 runs") {
		t.Errorf("an ambiguous end: %v", err)
	}
	if _, err := Load(ctx, st, "0198a7c2"); err == nil || !strings.Contains(err.Error(), "matches 2 runs") {
		t.Errorf("an ambiguous start: %v", err)
	}
	if _, err := Find(ctx, st, "ffff"); err == nil || !strings.Contains(err.Error(), "iomark history") {
		t.Errorf("an unknown run: %v", err)
	}
	row, err := Find(ctx, st, "b001")
	if err != nil || !strings.Contains(string(row.Record), `"id":"`+newer.ID+`"`) {
		t.Errorf("Find gives the record as stored: %s, %v", row.Record, err)
	}
	earlier, err := Earlier(ctx, st, newer)
	if err != nil || len(earlier) != 1 || earlier[0].ID != older.ID {
		t.Errorf("Earlier = %v, %v; want the older run of the same card", earlier, err)
	}
	if ShortID("abc") != "abc" || ShortID(newer.ID) != "8000000000b001"[2:] {
		t.Errorf("ShortID(%q) = %q", newer.ID, ShortID(newer.ID))
	}
}
