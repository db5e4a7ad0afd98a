package runstore

import (
	"context"
	"testing"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/store"
)

// Runs stored before the comparison model (no decision) or by an older one are decided at the
// next Redecide, and only once.
func TestRedecide(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	old := sampleRun(t)
	row, tests, err := Row(old, store.SourceSubmitted)
	if err != nil {
		t.Fatal(err)
	}
	row.Decision = nil // as an iomark before the comparison model stored it
	if err := st.SaveRun(ctx, row, tests); err != nil {
		t.Fatal(err)
	}
	stale := sampleRun(t)
	stale.ID = "0198a7c2-0000-7000-8000-00000000c001"
	row, tests, _ = Row(stale, store.SourceSubmitted)
	row.Decision.Version, row.Decision.Family = compare.Version-1, "Pi 9"
	if err := st.SaveRun(ctx, row, tests); err != nil {
		t.Fatal(err)
	}
	n, err := Redecide(ctx, st)
	if err != nil || n != 2 {
		t.Fatalf("Redecide: %d, %v; want 2 runs re-decided", n, err)
	}
	ds, err := st.Decisions(ctx, []string{old.ID, stale.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := compare.Decide(old)
	for _, id := range []string{old.ID, stale.ID} {
		d := ds[id]
		if d.Version != compare.Version || d.Family != want.Family || d.ModelKey != want.Model.Key || d.Ranked != want.Ranked() {
			t.Errorf("%s decided %+v, want family %s model %s", id, d, want.Family, want.Model.Key)
		}
	}
	if n, err := Redecide(ctx, st); err != nil || n != 0 {
		t.Errorf("second Redecide: %d, %v; want nothing to do", n, err)
	}
}
