package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"

	"github.com/iomark/iomark/internal/store"
)

// DriveData is the drive page: every result of one device key, summarised per test and per
// board and link, with the distribution of one test's figures.
type DriveData struct {
	DeviceKey string       `json:"device_key"`
	Class     string       `json:"class"`
	Vendor    string       `json:"vendor"`
	Model     string       `json:"model"`
	Results   int          `json:"results"`
	Tests     []TestStats  `json:"tests"`
	Groups    []GroupStats `json:"groups"`
	Chart     Distribution `json:"distribution"`
	Boards    BarChart     `json:"boards_chart"` // the charted test's median per board and link
	List      []RunSummary `json:"list"`
	Pager     Pager        `json:"pager"`
}

// TestStats summarises one test over many results.
type TestStats struct {
	Test   string `json:"test"`
	MBPerS Stats  `json:"mb_per_s"`
	IOPS   Stats  `json:"iops"`
}

// GroupStats summarises one test on one board and link.
type GroupStats struct {
	Board         string `json:"board"`
	BoardURL      string `json:"board_url,omitempty"`
	LinkBus       string `json:"link_bus"`
	LinkSpeedMbps int    `json:"link_speed_mbps"`
	Test          string `json:"test"`
	MBPerS        Stats  `json:"mb_per_s"`
}

// Distribution is a histogram of one test's MB/s over a drive's results.
type Distribution struct {
	Test   string    `json:"test"`
	Tests  []string  `json:"tests"` // the tests one may chart instead (?test=)
	Values []float64 `json:"values"`
	// Bins: Counts[i] results fell in [Edges[i], Edges[i+1]).
	Edges  []float64 `json:"edges"`
	Counts []int     `json:"counts"`
}

const driveFigures = store.MaxFigures

// drivePage is a device key's detail page. A device key whose results are one drive model
// (what the rankings link to) redirects to that model's page, which splits the results by
// board family; ?detail=1 keeps the per-test detail.
func (s *Server) drivePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if key := q.Get("key"); key != "" && q.Get("detail") == "" {
		models, err := s.st.ModelsOfDevice(r.Context(), key)
		if err == nil && len(models) == 1 {
			http.Redirect(w, r, modelPath(models[0]), http.StatusFound)
			return
		}
	}
	s.asPage(view(drivePage), s.driveData)(w, r)
}

func (s *Server) driveData(r *http.Request) (any, error) {
	q := r.URL.Query()
	key := q.Get("key")
	if key == "" {
		return nil, badInput(errorf("give the drive's key: /drive?key=… (search finds it)"))
	}
	if virtualKey(key) {
		return nil, notFound("a virtual device (loop, virtio) has no drive page: its results say nothing about a drive anyone can buy")
	}
	list, pager, total, err := s.runPage(r, "/drive", store.Filter{DeviceKey: key}, "no result has drive key "+key)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	d := DriveData{DeviceKey: key, Results: total, Tests: []TestStats{}, Groups: []GroupStats{}, List: list, Pager: pager}
	st, err := s.driveStats(ctx, key, q.Get("test"))
	if err != nil {
		return nil, err
	}
	d.Class, d.Vendor, d.Model = st.Class, st.Vendor, st.Model
	d.Tests, d.Groups, d.Chart = st.Tests, st.Groups, st.Chart
	d.Boards = BarChart{ID: "board-bars", Title: "Median MB/s of " + d.Chart.Test + " per board and link", Unit: "MB/s", Horizontal: true,
		Labels: []string{}, Series: []BarSeries{{Label: d.Chart.Test, Values: []*float64{}}}}
	for _, g := range st.Groups {
		if g.Test != d.Chart.Test {
			continue
		}
		name := displayBoard(g.Board)
		if name == "" {
			name = "board not stated"
		}
		if g.LinkBus != "" {
			name += " · " + g.LinkBus
		}
		d.Boards.Labels = append(d.Boards.Labels, name)
		d.Boards.Series[0].Values = append(d.Boards.Series[0].Values, fp(g.MBPerS.Median))
	}
	return d, nil
}

// driveStats is the summary part of a drive page, kept like the rankings (cache.go): a popular
// drive has many figures, and its medians move slowly. The result list is always fresh.
type driveStats struct {
	Class, Vendor, Model string
	Tests                []TestStats
	Groups               []GroupStats
	Chart                Distribution
}

func (s *Server) driveStats(ctx context.Context, key, chartTest string) (driveStats, error) {
	v, err := s.cache.get(ctx, "drive\x00"+key+"\x00"+chartTest, func(ctx context.Context) (any, error) {
		return s.computeDriveStats(ctx, key, chartTest)
	})
	if err != nil {
		return driveStats{}, err
	}
	return v.(driveStats), nil
}

func (s *Server) computeDriveStats(ctx context.Context, key, chartTest string) (driveStats, error) {
	d := driveStats{Tests: []TestStats{}, Groups: []GroupStats{}}
	if latest, err := s.st.ListRuns(ctx, store.Filter{DeviceKey: key, Limit: 1}); err != nil {
		return d, err
	} else if len(latest) == 1 {
		d.Class, d.Vendor, d.Model = latest[0].DeviceClass, latest[0].Vendor, latest[0].Model
	}
	byTest := map[string][2][]float64{}
	type gk struct {
		board, bus string
		speed      int
		test       string
	}
	groups := map[gk][]float64{}
	counts := map[string]int{}
	// Figures one by one: a popular drive's 100,000 are kept as their values only.
	err := s.st.EachFigure(ctx, store.Filter{DeviceKey: key, Limit: driveFigures}, func(fg *store.Figure) error {
		counts[fg.Test]++
		v := byTest[fg.Test]
		v[0], v[1] = append(v[0], fg.MBPerS), append(v[1], fg.IOPS)
		byTest[fg.Test] = v
		k := gk{fg.Board, fg.LinkBus, fg.LinkSpeedMbps, fg.Test}
		groups[k] = append(groups[k], fg.MBPerS)
		return nil
	})
	if err != nil {
		return d, err
	}
	names := byCount(counts)
	for _, name := range names {
		d.Tests = append(d.Tests, TestStats{Test: name, MBPerS: statsOf(byTest[name][0]), IOPS: statsOf(byTest[name][1])})
	}
	for k, v := range groups {
		g := GroupStats{Board: k.board, LinkBus: k.bus, LinkSpeedMbps: k.speed, Test: k.test, MBPerS: statsOf(v)}
		if k.board != "" {
			g.BoardURL = boardPath(k.board)
		}
		d.Groups = append(d.Groups, g)
	}
	sort.Slice(d.Groups, func(i, j int) bool {
		a, b := d.Groups[i], d.Groups[j]
		if a.Board != b.Board {
			return a.Board < b.Board
		}
		if a.LinkBus != b.LinkBus || a.LinkSpeedMbps != b.LinkSpeedMbps {
			return a.LinkBus < b.LinkBus || a.LinkBus == b.LinkBus && a.LinkSpeedMbps < b.LinkSpeedMbps
		}
		return a.Test < b.Test
	})
	if chartTest == "" && len(names) > 0 {
		chartTest = names[0]
	}
	if _, ok := byTest[chartTest]; !ok && chartTest != "" {
		return d, notFound(fmt.Sprintf("this drive has no results of test %q", chartTest))
	}
	d.Chart = histogram(chartTest, byTest[chartTest][0])
	d.Chart.Tests = names
	return d, nil
}

// histogram bins values into at most 20 equal bins (fewer for few values).
func histogram(test string, values []float64) Distribution {
	d := Distribution{Test: test, Values: values, Edges: []float64{}, Counts: []int{}}
	if d.Values == nil {
		d.Values = []float64{}
	}
	if len(values) == 0 {
		return d
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	bins := int(math.Ceil(math.Sqrt(float64(len(values)))))
	bins = max(1, min(bins, 20))
	width := (hi - lo) / float64(bins)
	if width == 0 {
		width, bins = math.Max(hi*0.05, 1), 1
		lo = hi - width/2
	}
	d.Counts = make([]int, bins)
	for i := 0; i <= bins; i++ {
		d.Edges = append(d.Edges, lo+float64(i)*width)
	}
	for _, v := range values {
		i := int((v - lo) / width)
		if i >= bins {
			i = bins - 1
		}
		d.Counts[i]++
	}
	return d
}
