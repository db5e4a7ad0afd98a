package server

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/store"
)

// The leaderboard is the comparison model's (internal/compare): one ranking per board family
// (or board), class and link setting, on the one basis compare's table gives the class, with
// the reason in a sentence. Drives without that figure are listed as "not ranked", never given
// a place of their own. Every decision (model, family, setting, figures) was made when the
// result was stored (run_rank), so a family's population is one indexed query.

// LeaderboardBasis documents the ranking for the page and the API.
const LeaderboardBasis = "Each class is ranked at one link setting on one figure: microSD cards, eMMC and USB flash drives by 4K random write at QD1 " +
	"(MB/s; iozone's 4K random write and iomark's rand-write-4k-qd1), SSDs and NVMe drives by the PiBenchmarks score (published scores count); " +
	"a figure the bus caps is never the basis. A drive's place is the median of its results."

const (
	leaderTop  = 3  // drives per class on the home page
	leaderFull = 25 // drives per class with a class filter
)

// Leaderboard is the home page's ranking for one family, filtered by board, class and link
// setting.
type Leaderboard struct {
	Basis    string          `json:"basis"`
	Family   string          `json:"family"`
	Board    string          `json:"board,omitempty"`
	Class    string          `json:"class,omitempty"`
	Link     string          `json:"link,omitempty"` // link setting, as compare names it ("PCIe gen 3 x1")
	Families []FamilyTab     `json:"families"`
	Boards   []string        `json:"boards"`  // boards of the family with results, for the filter
	Classes  []string        `json:"classes"` // classes with results in the family
	Links    []string        `json:"links"`   // link settings with results in the family
	Sections []LeaderSection `json:"sections"`
}

// FamilyTab is one board family with its count of results.
type FamilyTab struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Results int    `json:"results"`
}

// LeaderSection is one class at one link setting: its drives, best first.
type LeaderSection struct {
	Class      string         `json:"class"`
	Setting    string         `json:"setting,omitempty"`
	Basis      string         `json:"basis"` // compare.Metric
	BasisLabel string         `json:"basis_label"`
	Sentence   string         `json:"sentence"` // why this basis
	Results    int            `json:"results"`
	Drives     []LeaderRank   `json:"drives"`
	More       int            `json:"more"` // drives ranked but not shown
	MoreURL    string         `json:"more_url,omitempty"`
	NotRanked  []LeaderAbsent `json:"not_ranked"`
}

// LeaderRank is one drive's place, with its other headline figures for the reader.
type LeaderRank struct {
	Rank       int     `json:"rank"`
	ModelKey   string  `json:"model_key"`
	URL        string  `json:"url"`
	Name       string  `json:"name"`
	Basis      string  `json:"basis"`
	BasisLabel string  `json:"basis_label"`
	Median     float64 `json:"median"`
	P10        float64 `json:"p10"`
	P90        float64 `json:"p90"`
	Results    int     `json:"results"`
	Medians
}

// Medians are a ranked drive's median headline figures, each absent when its results have none.
type Medians struct {
	Score     *float64 `json:"score,omitempty"`
	SeqRead   *float64 `json:"seq_read_mb_per_s,omitempty"`
	SeqWrite  *float64 `json:"seq_write_mb_per_s,omitempty"`
	RandRead  *float64 `json:"rand_read_4k_mb_per_s,omitempty"`
	RandWrite *float64 `json:"rand_write_4k_mb_per_s,omitempty"`
}

func mediansOf(d compare.RankedDrive) Medians {
	return Medians{Score: d.MedianOf(compare.MetricScore), SeqRead: d.MedianOf(compare.MetricSeqRead), SeqWrite: d.MedianOf(compare.MetricSeqWrite),
		RandRead: d.MedianOf(compare.MetricRandRead), RandWrite: d.MedianOf(compare.MetricRandWrite)}
}

// of is the median of metric m, nil when absent.
func (md Medians) of(m compare.Metric) *float64 {
	switch m {
	case compare.MetricScore:
		return md.Score
	case compare.MetricSeqRead:
		return md.SeqRead
	case compare.MetricSeqWrite:
		return md.SeqWrite
	case compare.MetricRandRead:
		return md.RandRead
	case compare.MetricRandWrite:
		return md.RandWrite
	}
	return nil
}

// LeaderAbsent is a drive of the class without the basis figure: "not ranked: only …".
type LeaderAbsent struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Only    string `json:"only"`
	Results int    `json:"results"`
}

// leaders is the leaderboard for one filter, kept like the rankings (cache.go). It reads the
// families' counts and one family's results, never every family's.
func (s *Server) leaders(ctx context.Context, f leaderFilter) (Leaderboard, error) {
	key := fmt.Sprintf("leaders\x00%q\x00%q\x00%q\x00%q\x00%v", f.family, f.board, f.class, f.link, f.all)
	v, err := s.cache.get(ctx, key, func(ctx context.Context) (any, error) {
		counts, err := s.familyCounts(ctx)
		if err != nil {
			return nil, err
		}
		f = f.resolve(counts)
		entries, err := s.familyEntries(ctx, f.family)
		if err != nil {
			return nil, err
		}
		return rankLeaders(counts, entries, f), nil
	})
	if err != nil {
		return Leaderboard{}, err
	}
	return v.(Leaderboard), nil
}

// familyCounts are the listed, ranked results of each family, kept like the rankings: every
// leaderboard's tabs, so counted once for all of them.
func (s *Server) familyCounts(ctx context.Context) (map[string]int, error) {
	v, err := s.cache.get(ctx, "familycounts", func(ctx context.Context) (any, error) { return s.st.FamilyCounts(ctx) })
	if err != nil {
		return nil, err
	}
	return v.(map[string]int), nil
}

// familyEntries are a board family's listed, ranked results as the comparison model's entries.
func (s *Server) familyEntries(ctx context.Context, family string) ([]compare.Entry, error) {
	return entriesOf(s.st.RankRows(ctx, family))
}

// entriesOf turns the stored decisions a store query read back into the comparison model's
// entries, or passes on the query's error.
func entriesOf(rows []store.RankRow, err error) ([]compare.Entry, error) {
	if err != nil {
		return nil, err
	}
	entries := make([]compare.Entry, 0, len(rows))
	for _, r := range rows {
		entries = append(entries, entryOf(r))
	}
	return entries, nil
}

// entryOf turns a stored decision back into the comparison model's entry.
func entryOf(r store.RankRow) compare.Entry {
	e := compare.Entry{ID: r.RunID, Published: r.Source == store.SourcePublished, Decision: compare.Decision{
		Model: compare.Model{Key: r.ModelKey, Name: r.ModelName}, Board: r.Board, Family: r.Family,
		Class: r.DeviceClass, Setting: r.LinkSetting, SettingInferred: r.SettingInferred, Figures: compare.Figures{},
		PriceUSD: r.PriceUSD, PriceSource: r.PriceSource}}
	put := func(m compare.Metric, v *float64, method string) {
		if v != nil {
			e.Figures[m] = compare.Figure{Metric: m, Value: *v, Method: method}
		}
	}
	put(compare.MetricScore, r.Score, compare.MethodPibScore)
	put(compare.MetricSeqRead, r.SeqReadMBPerS, r.SeqReadMethod)
	put(compare.MetricSeqWrite, r.SeqWriteMBPerS, r.SeqWriteMethod)
	put(compare.MetricRandRead, r.RandRead4kMBPS, compare.MethodDirectQD1)
	put(compare.MetricRandWrite, r.RandWrite4kMBPS, compare.MethodDirectQD1)
	return e
}

// leaderFilter is what the visitor asked for (?family=&board=&class=&link=).
type leaderFilter struct {
	family, board, class, link string
	all                        bool // every ranked drive of each class, as with a class filter
}

func (f leaderFilter) url(family, class, link string) string {
	q := url.Values{}
	q.Set("family", family)
	if f.board != "" {
		q.Set("board", f.board)
	}
	if class != "" {
		q.Set("class", class)
	}
	if link != "" {
		q.Set("link", link)
	}
	return "/?" + q.Encode()
}

// resolve names the family a filter ranks: a board's own, else the one asked for, else the
// first family with results in the order refdata.Families gives.
func (f leaderFilter) resolve(counts map[string]int) leaderFilter {
	if f.board != "" && f.family == "" {
		if b, ok := compare.Board(f.board); ok {
			f.board = b
		}
		f.family = compare.Family(f.board, "")
	}
	if !oneOfStr(f.family, refdata.Families()) {
		for _, fam := range refdata.Families() {
			if counts[fam] > 0 {
				f.family = fam
				break
			}
		}
	}
	return f
}

// rankLeaders builds the leaderboard of a resolved filter from the families' counts and its
// family's entries.
func rankLeaders(counts map[string]int, entries []compare.Entry, f leaderFilter) Leaderboard {
	lb := Leaderboard{Basis: LeaderboardBasis, Board: f.board, Class: f.class, Link: f.link,
		Families: []FamilyTab{}, Boards: []string{}, Classes: []string{}, Links: []string{}, Sections: []LeaderSection{}}
	for _, fam := range refdata.Families() {
		if n := counts[fam]; n > 0 {
			lb.Families = append(lb.Families, FamilyTab{Name: fam, URL: leaderFilter{}.url(fam, f.class, ""), Results: n})
		}
	}
	lb.Family = f.family
	boards, classes, links := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var pop []compare.Entry
	for _, e := range entries {
		if e.Board != "" {
			boards[e.Board] = true
		}
		if f.board != "" && e.Board != f.board {
			continue
		}
		classes[e.Class] = true
		if e.Setting != "" {
			links[e.Setting] = true
		}
		if f.class != "" && e.Class != f.class || f.link != "" && e.Setting != f.link {
			continue
		}
		pop = append(pop, e)
	}
	lb.Boards, lb.Links = sortedKeys(boards), sortedKeys(links)
	for c := range classes {
		lb.Classes = append(lb.Classes, c)
	}
	compare.ClassOrder(lb.Classes)
	show := leaderTop
	if f.class != "" || f.all {
		show = leaderFull
	}
	for _, rk := range compare.Rank(pop, f.family) {
		sec := LeaderSection{Class: rk.Class, Setting: rk.Setting, Basis: string(rk.Basis), BasisLabel: rk.Basis.Label(),
			Sentence: rk.Sentence, Results: rk.Results, Drives: []LeaderRank{}, NotRanked: []LeaderAbsent{}}
		for _, d := range rk.Drives {
			lr := LeaderRank{Rank: d.Rank, ModelKey: d.Model.Key, URL: modelPath(d.Model.Key), Name: d.Model.Name,
				Basis: string(rk.Basis), BasisLabel: rk.Basis.Label(), Median: d.Median, P10: d.P10, P90: d.P90, Results: d.Results, Medians: mediansOf(d)}
			sec.Drives = append(sec.Drives, lr)
		}
		for _, u := range rk.NotRanked {
			var words []string
			for _, m := range u.Only {
				words = append(words, m.Words())
			}
			sec.NotRanked = append(sec.NotRanked, LeaderAbsent{Name: u.Model.Name, URL: modelPath(u.Model.Key),
				Only: "only " + strings.Join(words, ", "), Results: u.Results})
		}
		if len(sec.Drives) > show {
			sec.More = len(sec.Drives) - show
			sec.MoreURL = f.url(f.family, rk.Class, rk.Setting)
			sec.Drives = sec.Drives[:show]
		}
		lb.Sections = append(lb.Sections, sec)
	}
	return lb
}

func oneOfStr(s string, list []string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
