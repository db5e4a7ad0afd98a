package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/store"
)

// Sorting other than by date is offered up to store.MaxSortedRuns results: the pager drops the
// other links beyond that and says why, and asking anyway sorts by date (the pager says so).
func TestSortingOfferedUpToMaxSortedRuns(t *testing.T) {
	q := url.Values{"q": {"samsung"}}
	lp, err := parseList(url.Values{"sort": {"score"}}, store.RunSorts, "date", "desc")
	if err != nil {
		t.Fatal(err)
	}
	small := newPager("/search", q, lp, store.MaxSortedRuns, store.RunSorts)
	if len(small.Sorts) != len(store.RunSorts) || small.SortNote != "" {
		t.Errorf("at the limit: sorts %v, note %q; want every sort and no note", small.Sorts, small.SortNote)
	}
	if lp.sortable(store.MaxSortedRuns); lp.Sort != "score" {
		t.Errorf("sorting %d results by score: sorted by %s", store.MaxSortedRuns, lp.Sort)
	}
	big := newPager("/search", q, lp, store.MaxSortedRuns+1, store.RunSorts)
	if _, ok := big.Sorts["date"]; !ok || len(big.Sorts) != 1 || !strings.Contains(big.SortNote, "narrow the search") {
		t.Errorf("above the limit: sorts %v, note %q; want the date only and a note", big.Sorts, big.SortNote)
	}
	if lp.sortable(store.MaxSortedRuns + 1); lp.Sort != "date" || lp.Order != "desc" {
		t.Errorf("sorting %d results by score: sorted by %s %s; want date desc", store.MaxSortedRuns+1, lp.Sort, lp.Order)
	}
}
