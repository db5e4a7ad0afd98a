package server

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/stats"
	"github.com/iomark/iomark/internal/store"
)

// RunSummary is one result in a list.
type RunSummary struct {
	ID            string    `json:"id"`
	URL           string    `json:"url"`
	CreatedAt     time.Time `json:"created_at"`
	Source        string    `json:"source"`
	Profile       string    `json:"profile"`
	Board         string    `json:"board"`
	DeviceClass   string    `json:"device_class"`
	Vendor        string    `json:"vendor"`
	Model         string    `json:"model"`
	CapacityBytes int64     `json:"capacity_bytes"`
	LinkBus       string    `json:"link_bus"`
	LinkSpeedMbps int       `json:"link_speed_mbps"`
	DeviceKey     string    `json:"device_key"` // empty: the drive is not identified; shown as reported
	DriveURL      string    `json:"drive_url,omitempty"`
	ScoreIomark   *float64  `json:"score_iomark,omitempty"`
	ScorePib      *float64  `json:"score_pibenchmarks,omitempty"`
	// Speeds are the headline figures the comparison model stored for the run (run_rank).
	Speeds   Speeds `json:"speeds"`
	ModelURL string `json:"model_url,omitempty"`
}

// Speeds are a result's headline figures, in MB/s (10^6 bytes/s) but the score; absent when
// the result lacks one.
type Speeds struct {
	SeqRead       *float64 `json:"seq_read_mb_per_s,omitempty"`
	SeqReadMethod string   `json:"seq_read_method,omitempty"`
	SeqWrite      *float64 `json:"seq_write_mb_per_s,omitempty"`
	RandRead      *float64 `json:"rand_read_4k_mb_per_s,omitempty"`
	RandWrite     *float64 `json:"rand_write_4k_mb_per_s,omitempty"`
}

func speedsOf(f compare.Figures) Speeds {
	get := func(m compare.Metric) *float64 {
		if v, ok := f[m]; ok {
			x := v.Value
			return &x
		}
		return nil
	}
	sp := Speeds{SeqRead: get(compare.MetricSeqRead), SeqWrite: get(compare.MetricSeqWrite),
		RandRead: get(compare.MetricRandRead), RandWrite: get(compare.MetricRandWrite)}
	if v, ok := f[compare.MetricSeqRead]; ok && v.Method != compare.MethodDirectQD1 {
		sp.SeqReadMethod = v.Method
	}
	return sp
}

// withSpeeds fills each summary's headline figures and drive-model link from the stored
// decisions (one query for the page).
func (s *Server) withSpeeds(ctx context.Context, list []RunSummary) error {
	ids := make([]string, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	ds, err := s.st.Decisions(ctx, ids)
	if err != nil {
		return err
	}
	for i := range list {
		d, ok := ds[list[i].ID]
		if !ok {
			continue
		}
		list[i].Speeds = speedsOf(entryOf(store.RankRow{RunID: list[i].ID, Decision: d}).Figures)
		if d.Ranked && d.ModelKey != "" {
			list[i].ModelURL = modelPath(d.ModelKey)
		}
	}
	return nil
}

func summarize(r store.Run) RunSummary {
	s := RunSummary{ID: r.ID, URL: resultPath(r.ID), CreatedAt: r.CreatedAt, Source: r.Source, Profile: r.Profile,
		Board: r.Board, DeviceClass: r.DeviceClass, Vendor: r.Vendor, Model: r.Model, CapacityBytes: r.CapacityBytes,
		LinkBus: r.LinkBus, LinkSpeedMbps: r.LinkSpeedMbps, DeviceKey: r.DeviceKey, ScoreIomark: r.ScoreIomark, ScorePib: r.ScorePibenchmarks}
	if r.DeviceKey != "" && !virtualKey(r.DeviceKey) {
		s.DriveURL = drivePath(r.DeviceKey)
	}
	return s
}

func drivePath(key string) string { return "/drive?key=" + url.QueryEscape(key) }

// virtualKey reports whether a device key names a virtual device (record.DeviceKey prefixes
// the class): a loop or virtio disk is no drive anyone can buy, so it has no drive page.
func virtualKey(key string) bool {
	return strings.HasPrefix(key, "loop:") || strings.HasPrefix(key, "virtio:")
}
func boardPath(board string) string { return "/board?name=" + url.QueryEscape(board) }

// Stats summarise the figures of one test: the median and the spread around it.
type Stats struct {
	Count  int     `json:"count"`
	Median float64 `json:"median"`
	P10    float64 `json:"p10"`
	P90    float64 `json:"p90"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// SpreadPct is (p90 - p10) / median in percent; 0 with one value.
	SpreadPct float64 `json:"spread_pct"`
}

func statsOf(values []float64) Stats {
	if len(values) == 0 {
		return Stats{}
	}
	v := append([]float64(nil), values...)
	sort.Float64s(v)
	st := Stats{Count: len(v), Median: stats.Quantile(v, 0.5), P10: stats.Quantile(v, 0.1), P90: stats.Quantile(v, 0.9), Min: v[0], Max: v[len(v)-1]}
	if st.Median > 0 {
		st.SpreadPct = (st.P90 - st.P10) / st.Median * 100
	}
	return st
}

// testNames lists the tests of figs, most common first.
func testNames(figs []store.Figure) []string {
	n := map[string]int{}
	for _, f := range figs {
		n[f.Test]++
	}
	return byCount(n)
}

// byCount lists the names counted, most first, ties by name: the first is the default test of
// charts and rankings.
func byCount(n map[string]int) []string {
	out := make([]string, 0, len(n))
	for name := range n {
		out = append(out, name)
	}
	sort.Slice(out, func(i, j int) bool {
		if n[out[i]] != n[out[j]] {
			return n[out[i]] > n[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// listParams are the paging and sorting query parameters every table takes.
type listParams struct {
	Page  int    `json:"page"`
	Per   int    `json:"per_page"`
	Sort  string `json:"sort"`
	Order string `json:"order"`
}

// maxOffset bounds how deep a table pages: a database skips rows one by one to reach an offset,
// so deep pages would let one request cost a full scan. maxPage × maxPer stays inside it, so
// the parameters' own bounds (routes.go) keep every request inside it.
const maxOffset = 100000

// parseList reads page, per_page, sort and order; sorts names the keys the table accepts.
func parseList(q url.Values, sorts map[string]string, defSort, defOrder string) (listParams, error) {
	p := listParams{Page: 1, Per: defaultPer, Sort: defSort, Order: defOrder}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPage {
			return p, fmt.Errorf("page must be a whole number from 1 to %d", maxPage)
		}
		p.Page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPer {
			return p, fmt.Errorf("per_page must be a whole number from 1 to %d", maxPer)
		}
		p.Per = n
	}
	if v := q.Get("sort"); v != "" {
		if _, ok := sorts[v]; !ok {
			return p, fmt.Errorf("sort %q is not one of %s", v, keys(sorts))
		}
		p.Sort = v
	}
	if (p.Page-1)*p.Per > maxOffset {
		return p, fmt.Errorf("pages past the first %d rows are not served: narrow the search or sort the other way", maxOffset)
	}
	switch v := q.Get("order"); v {
	case "":
	case "asc", "desc":
		p.Order = v
	default:
		return p, fmt.Errorf("order must be asc or desc")
	}
	return p, nil
}

func keys(m map[string]string) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}

// Pager holds the links of a paged, sortable table; every link is a permalink.
type Pager struct {
	listParams
	Total int               `json:"total"`
	Pages int               `json:"pages"`
	Prev  string            `json:"prev,omitempty"`
	Next  string            `json:"next,omitempty"`
	Sorts map[string]string `json:"-"` // sort key -> link sorting by it (toggling the order)
	// SortNote says why only the date order is offered (more than store.MaxSortedRuns results).
	SortNote string `json:"sort_note,omitempty"`
}

func newPager(path string, q url.Values, p listParams, total int, sorts map[string]string) Pager {
	pg := Pager{listParams: p, Total: total, Pages: (total + p.Per - 1) / p.Per, Sorts: map[string]string{}}
	link := func(page int, sort, order string) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(page))
		v.Set("sort", sort)
		v.Set("order", order)
		if p.Per != defaultPer {
			v.Set("per_page", strconv.Itoa(p.Per))
		} else {
			v.Del("per_page")
		}
		return path + "?" + v.Encode()
	}
	if p.Page > 1 {
		pg.Prev = link(p.Page-1, p.Sort, p.Order)
	}
	if p.Page < pg.Pages {
		pg.Next = link(p.Page+1, p.Sort, p.Order)
	}
	for k := range sorts {
		if total > store.MaxSortedRuns && k != "date" {
			pg.SortNote = fmt.Sprintf("Sorting by other columns than the date is offered for %d results or fewer: narrow the search.", store.MaxSortedRuns)
			continue
		}
		order := "asc"
		if k == p.Sort && p.Order == "asc" || k != p.Sort && (k == "date" || k == "score" || k == "capacity" || k == "link") {
			order = "desc"
		}
		pg.Sorts[k] = link(1, k, order)
	}
	return pg
}

// sortable falls back to the date order over more than store.MaxSortedRuns results (any other
// order reads and sorts every match): the answer's pager says which order was applied, and its
// sort_note why.
func (p *listParams) sortable(total int) {
	if p.Sort != "date" && total > store.MaxSortedRuns {
		p.Sort, p.Order = "date", "desc"
	}
}

func (p listParams) filter(f store.Filter) store.Filter {
	f.Limit, f.Offset = p.Per, (p.Page-1)*p.Per
	return f
}

func itoa(n int) string { return strconv.Itoa(n) }
