package server

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/store"
)

// TestPopulationPlacesAsTheWholeFamily pins the population read to what placing among the
// whole family gives: for every published result, each figure's percentile, count, median and
// model count, and each population's ranking, are what a pass over every result of the family
// filtered by class and setting gives.
func TestPopulationPlacesAsTheWholeFamily(t *testing.T) {
	ctx := context.Background()
	s, st := seededServer(t)
	placed, ranked := 0, 0
	for _, fam := range refdata.Families() {
		rows, err := st.RankRows(ctx, fam)
		if err != nil {
			t.Fatal(err)
		}
		var all []compare.Entry
		for _, r := range rows {
			all = append(all, entryOf(r))
		}
		rankings := compare.Rank(all, fam)
		for _, me := range all {
			got, err := s.standing(ctx, me.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range got.Stands {
				m := compare.Metric(v.Metric)
				f := me.Figures[m]
				var among, model []float64
				for _, e := range all {
					of, ok := e.Figures[m]
					if !ok || e.ID == me.ID || of.Method != f.Method || e.Class != me.Class || e.Setting != me.Setting {
						continue
					}
					among = append(among, of.Value)
					if e.Model.Key == me.Model.Key {
						model = append(model, of.Value)
					}
				}
				want := compare.PlaceAmong(f.Value, among, "")
				if v.Percentile != want.Percentile || v.N != want.N || v.Median != want.Median || v.ModelN != len(model) {
					t.Errorf("%s %s %s: placed %d%% of %d (median %g, model %d), the whole family gives %d%% of %d (median %g, model %d)",
						fam, me.ID, m, v.Percentile, v.N, v.Median, v.ModelN, want.Percentile, want.N, want.Median, len(model))
				}
				placed++
			}
		}
		for _, want := range rankings {
			got, err := s.groupRanking(ctx, fam, want.Class, want.Setting)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || !reflect.DeepEqual(*got, want) {
				t.Errorf("%s %s %s: the population's ranking differs from the family's", fam, want.Class, want.Setting)
			}
			ranked++
		}
	}
	if placed < 500 || ranked < 10 {
		t.Errorf("only %d figures placed and %d rankings compared: the published data no longer reaches this test", placed, ranked)
	}
	t.Logf("%d figures placed and %d rankings compared", placed, ranked)
}

// TestLeadersReadOneFamily pins a leaderboard read from the families' counts and one family to
// what ranking every family's results gives: the same tabs, family and sections for each
// family, board and class filter the published data has.
func TestLeadersReadOneFamily(t *testing.T) {
	ctx := context.Background()
	s, st := seededServer(t)
	all := map[string][]compare.Entry{}
	counts := map[string]int{}
	filters := []leaderFilter{{}, {all: true}}
	for _, fam := range refdata.Families() {
		rows, err := st.RankRows(ctx, fam)
		if err != nil {
			t.Fatal(err)
		}
		boards, classes := map[string]bool{}, map[string]bool{}
		for _, r := range rows {
			all[fam] = append(all[fam], entryOf(r))
			if r.Board != "" && !boards[r.Board] {
				boards[r.Board] = true
				filters = append(filters, leaderFilter{board: r.Board})
			}
			if !classes[r.DeviceClass] {
				classes[r.DeviceClass] = true
				filters = append(filters, leaderFilter{family: fam, class: r.DeviceClass})
			}
		}
		if len(rows) > 0 {
			counts[fam] = len(rows)
			filters = append(filters, leaderFilter{family: fam})
		}
	}
	got, err := st.FamilyCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, counts) {
		t.Errorf("FamilyCounts = %v, the families' rows count %v", got, counts)
	}
	for _, f := range filters {
		lb, err := s.leaders(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		r := f.resolve(counts)
		if want := rankLeaders(counts, all[r.family], r); !reflect.DeepEqual(lb, want) {
			t.Errorf("%+v: the leaderboard differs from the one ranked from every family's results", f)
		}
	}
	if len(filters) < 20 {
		t.Errorf("only %d filters: the published data no longer reaches this test", len(filters))
	}
}

// seededServer is a server, unlimited, on a fresh SQLite database holding the published data.
func seededServer(t *testing.T) (*Server, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := SeedPublished(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	s, err := New(st, Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}
