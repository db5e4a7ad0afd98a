package server

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/store"
)

// Sorting other than by date is offered up to store.MaxSortedRuns results: the pager drops the
// other links beyond that and says why, and asking anyway is a 400 with the way out.
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
	if err := lp.sortable(store.MaxSortedRuns); err != nil {
		t.Errorf("sorting %d results by score: %v", store.MaxSortedRuns, err)
	}
	big := newPager("/search", q, lp, store.MaxSortedRuns+1, store.RunSorts)
	if _, ok := big.Sorts["date"]; !ok || len(big.Sorts) != 1 || !strings.Contains(big.SortNote, "narrow the search") {
		t.Errorf("above the limit: sorts %v, note %q; want the date only and a note", big.Sorts, big.SortNote)
	}
	err = lp.sortable(store.MaxSortedRuns + 1)
	var ue *userError
	if !errors.As(err, &ue) || ue.code != 400 || !strings.Contains(ue.Error(), "sort by date") {
		t.Errorf("sorting %d results by score: %v; want a 400 saying to sort by date", store.MaxSortedRuns+1, err)
	}
	lp.Sort = "date"
	if err := lp.sortable(10 * store.MaxSortedRuns); err != nil {
		t.Errorf("by date: %v", err)
	}
}
