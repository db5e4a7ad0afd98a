package server

import (
	"context"
	"fmt"
	"net/url"
	"sort"

	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/store"
)

// The home page's leaderboard ranks drives per board family (refdata.Families) and device class.
// A drive's place comes from the first of these bases any of its results has, in this order,
// and drives are ranked only against drives of the same basis (the scales differ):
//
//  1. basisPib: the median PiBenchmarks-compatible score (Storage.sh's formula, what the
//     pibenchmarks profile computes from its seven tests) of the drive's results that have one;
//  2. basisIomark: the median iomark score (the quick profile's score) of its results;
//  3. basisSeqRead: results with no score (published reference rows, profiles without one,
//     interrupted runs): the median of their sequential read MB/s, iomark's "seq-read-1m" test
//     (1 MiB reads, QD1, O_DIRECT) or, for published rows, "hdparm-read" (hdparm -t, the figure
//     nearly every published row states). Both read the drive sequentially in large blocks.
//
// Each row carries the count of results behind it and their spread (p10–p90).
const (
	basisPib     = "pibenchmarks"
	basisIomark  = "iomark"
	basisSeqRead = "seq-read"
)

var basisOrder = map[string]int{basisPib: 0, basisIomark: 1, basisSeqRead: 2}

// basisLabels say in words what each basis is, for the page.
var basisLabels = map[string]string{
	basisPib:     "PiBenchmarks score",
	basisIomark:  "iomark score",
	basisSeqRead: "sequential read (no score)",
}

// LeaderboardBasis documents the ranking for the page and the API.
const LeaderboardBasis = "Drives are ranked by the median PiBenchmarks-compatible score of their results; " +
	"drives with none by the median iomark (quick) score; drives whose results have no score (published reference rows, " +
	"other profiles) by the median of their sequential read in MB/s (iomark's seq-read-1m, or hdparm -t as published). " +
	"Each basis is ranked on its own."

const (
	leaderRunsPerBoard    = store.MaxLimit // newest results read per board: a bounded sample at a million results
	leaderFiguresPerBoard = 8000           // newest figures read per board for the sequential read of unscored results
	leaderBoards          = 200            // boards read, most results first
	leaderTop             = 3              // drives per class on the home page
	leaderFull            = 25             // drives per class with a class filter
)

// Leaderboard is the home page's ranking for one family, filtered by board, class and link.
type Leaderboard struct {
	Basis    string          `json:"basis"`
	Family   string          `json:"family"`
	Board    string          `json:"board,omitempty"`
	Class    string          `json:"class,omitempty"`
	Link     string          `json:"link,omitempty"`
	Families []FamilyTab     `json:"families"`
	Boards   []string        `json:"boards"`  // boards of the family with results, for the filter
	Classes  []string        `json:"classes"` // classes with results in the family
	Links    []string        `json:"links"`   // link buses with results in the family
	Sections []LeaderSection `json:"sections"`
}

// FamilyTab is one board family with its count of results.
type FamilyTab struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Results int    `json:"results"`
}

// LeaderSection is one class of the family: its drives, best first per basis.
type LeaderSection struct {
	Class   string       `json:"class"`
	Results int          `json:"results"`
	Drives  []LeaderRank `json:"drives"`
	More    int          `json:"more"` // drives ranked but not shown
	MoreURL string       `json:"more_url,omitempty"`
}

// LeaderRank is one drive's place.
type LeaderRank struct {
	Rank       int     `json:"rank"` // within its basis
	DeviceKey  string  `json:"device_key"`
	URL        string  `json:"url"`
	Name       string  `json:"name"`
	Basis      string  `json:"basis"`
	BasisLabel string  `json:"basis_label"`
	Median     float64 `json:"median"`
	P10        float64 `json:"p10"`
	P90        float64 `json:"p90"`
	Results    int     `json:"results"`
}

// leaderEntry is what one drive on one board and link contributed; the kept base of every
// filtered leaderboard.
type leaderEntry struct {
	family, board, class, bus string
	key, name                 string
	pib, iomark, seqRead      []float64
	results                   int
}

// leaderClass is the class a run ranks in: a published row's storage class mapped to iomark's
// device classes, so published and measured drives rank together.
func leaderClass(c string) string {
	if d := refdata.DeviceClass(c); d != "" {
		return d
	}
	return c
}

// leaderFamily is the family of a stored board name (canonical, or an alias). A board the list
// does not name ranks among PCs when its kernel is an x86 one (a desktop names itself by its
// maker's model, "Dell Inc. OptiPlex 7070"), else among other SBCs. x86 single-board
// computers the list names (the ODROID-H2) stay SBCs.
func leaderFamily(board, arch string) string {
	if f, ok := refdata.BoardFamily(displayBoard(board)); ok {
		return f
	}
	if x86Arch(arch) {
		return refdata.FamilyPC
	}
	return refdata.FamilyOtherSBC
}

// x86Arch reports whether a kernel machine name (uname -m) is an x86 one.
func x86Arch(arch string) bool {
	switch arch {
	case "x86_64", "i386", "i486", "i586", "i686":
		return true
	}
	return false
}

// boardFamily is the family the base ranks a board in (the one its results gave), else the
// family its name alone gives.
func boardFamily(base []*leaderEntry, board string) string {
	for _, e := range base {
		if e.board == board {
			return e.family
		}
	}
	return leaderFamily(board, "")
}

func (s *Server) leaderBase(ctx context.Context) ([]*leaderEntry, error) {
	v, err := s.cache.get(ctx, "leaderboard", s.buildLeaderBase)
	if err != nil {
		return nil, err
	}
	return v.([]*leaderEntry), nil
}

// leaders is the leaderboard for one filter, kept like the base it is ranked from.
func (s *Server) leaders(ctx context.Context, f leaderFilter) (Leaderboard, error) {
	key := fmt.Sprintf("leaders\x00%q\x00%q\x00%q\x00%q\x00%v", f.family, f.board, f.class, f.link, f.all)
	v, err := s.cache.get(ctx, key, func(ctx context.Context) (any, error) {
		base, err := s.leaderBase(ctx)
		if err != nil {
			return nil, err
		}
		return rankLeaders(base, f), nil
	})
	if err != nil {
		return Leaderboard{}, err
	}
	return v.(Leaderboard), nil
}

func (s *Server) buildLeaderBase(ctx context.Context) (any, error) {
	type k struct{ board, class, bus, key string }
	entries := map[k]*leaderEntry{}
	// arch is the first result's; a board the list does not name has one kernel in practice.
	entry := func(board, arch, class, bus, key, name string) *leaderEntry {
		board = displayBoard(board) // one name per board: revisions and aliases rank together
		kk := k{board, class, bus, key}
		e := entries[kk]
		if e == nil {
			e = &leaderEntry{family: leaderFamily(board, arch), board: board, class: class, bus: bus, key: key, name: name}
			entries[kk] = e
		}
		return e
	}
	boards, err := s.st.Boards(ctx, leaderBoards)
	if err != nil {
		return nil, err
	}
	for _, b := range boards {
		// The sequential read of the board's newest results, for those without a score.
		seq := map[string]float64{}
		// All tests' figures, newest run first, as the board chart's query reads them: a test
		// name in the query made SQLite scan every figure at a million results.
		err := s.st.EachFigure(ctx, store.Filter{Board: b.Key, Limit: leaderFiguresPerBoard}, func(f *store.Figure) error {
			if f.Test == seqReadTests[0] {
				seq[f.RunID] = f.MBPerS
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for off := 0; off < leaderRunsPerBoard; off += store.MaxLimit {
			runs, err := s.st.SortedRuns(ctx, store.Filter{Board: b.Key, Limit: store.MaxLimit, Offset: off}, "date", true)
			if err != nil {
				return nil, err
			}
			for _, r := range runs {
				if r.DeviceKey == "" || r.Source == store.SourcePublished {
					continue
				}
				e := entry(r.Board, r.Arch, leaderClass(r.DeviceClass), r.LinkBus, r.DeviceKey, label(r.Vendor, r.Model, r.DeviceKey))
				e.results++
				switch {
				case r.ScorePibenchmarks != nil:
					e.pib = append(e.pib, *r.ScorePibenchmarks)
				case r.ScoreIomark != nil:
					e.iomark = append(e.iomark, *r.ScoreIomark)
				default:
					if v, ok := seq[r.ID]; ok && v > 0 {
						e.seqRead = append(e.seqRead, v)
					}
				}
			}
			if len(runs) < store.MaxLimit {
				break
			}
		}
	}
	// Published rows: their sequential read figures (a few hundred rows).
	err = s.st.EachFigure(ctx, store.Filter{Source: store.SourcePublished, Limit: store.MaxFigures}, func(f *store.Figure) error {
		if f.DeviceKey == "" || f.Board == "" {
			return nil
		}
		e := entry(f.Board, "", leaderClass(f.DeviceClass), f.LinkBus, f.DeviceKey, label(f.Vendor, f.Model, f.DeviceKey))
		e.results++
		e.seqRead = append(e.seqRead, f.MBPerS)
		return nil
	}, "hdparm-read")
	if err != nil {
		return nil, err
	}
	out := make([]*leaderEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key }) // a stable order
	return out, nil
}

// leaderFilter is what the visitor asked for (?family=&board=&class=&link=).
type leaderFilter struct {
	family, board, class, link string
	all                        bool // every ranked drive of each class, as with a class filter
}

func (f leaderFilter) url(family, class string) string {
	q := url.Values{}
	q.Set("family", family)
	if f.board != "" {
		q.Set("board", f.board)
	}
	if class != "" {
		q.Set("class", class)
	}
	if f.link != "" {
		q.Set("link", f.link)
	}
	return "/?" + q.Encode()
}

// rankLeaders builds the leaderboard from the kept base.
func rankLeaders(base []*leaderEntry, f leaderFilter) Leaderboard {
	lb := Leaderboard{Basis: LeaderboardBasis, Board: f.board, Class: f.class, Link: f.link,
		Families: []FamilyTab{}, Boards: []string{}, Classes: []string{}, Links: []string{}, Sections: []LeaderSection{}}
	perFamily := map[string]int{}
	for _, e := range base {
		perFamily[e.family] += e.results
	}
	if f.board != "" && f.family == "" {
		f.family = boardFamily(base, f.board)
	}
	for _, fam := range refdata.Families() {
		if perFamily[fam] == 0 {
			continue
		}
		lb.Families = append(lb.Families, FamilyTab{Name: fam, URL: leaderFilter{link: f.link}.url(fam, f.class), Results: perFamily[fam]})
	}
	if !oneOfStr(f.family, refdata.Families()) && len(lb.Families) > 0 {
		f.family = lb.Families[0].Name // the first family with results, in the order Families gives
	}
	lb.Family = f.family
	boards, classes, links := map[string]bool{}, map[string]int{}, map[string]bool{}
	type acc struct {
		name                 string
		pib, iomark, seqRead []float64
		results              int
	}
	perClass := map[string]map[string]*acc{}
	for _, e := range base {
		if e.family != f.family {
			continue
		}
		boards[e.board] = true
		if e.bus != "" {
			links[e.bus] = true
		}
		if f.board != "" && e.board != f.board || f.link != "" && e.bus != f.link {
			continue
		}
		classes[e.class] += e.results
		if f.class != "" && e.class != f.class {
			continue
		}
		drives := perClass[e.class]
		if drives == nil {
			drives = map[string]*acc{}
			perClass[e.class] = drives
		}
		a := drives[e.key]
		if a == nil {
			a = &acc{name: e.name}
			drives[e.key] = a
		}
		a.pib = append(a.pib, e.pib...)
		a.iomark = append(a.iomark, e.iomark...)
		a.seqRead = append(a.seqRead, e.seqRead...)
		a.results += e.results
	}
	lb.Boards, lb.Links = sortedKeys(boards), sortedKeys(links)
	for c := range classes {
		lb.Classes = append(lb.Classes, c)
	}
	sort.Strings(lb.Classes)
	show := leaderTop
	if f.class != "" || f.all {
		show = leaderFull
	}
	for _, class := range classOrder(perClass) {
		sec := LeaderSection{Class: class, Results: classes[class], Drives: []LeaderRank{}}
		var ranks []LeaderRank
		for key, a := range perClass[class] {
			basis, values := basisPib, a.pib
			switch {
			case len(a.pib) > 0:
			case len(a.iomark) > 0:
				basis, values = basisIomark, a.iomark
			case len(a.seqRead) > 0:
				basis, values = basisSeqRead, a.seqRead
			default:
				continue // results without any ranking figure
			}
			st := statsOf(values)
			ranks = append(ranks, LeaderRank{DeviceKey: key, URL: drivePath(key), Name: a.name, Basis: basis,
				BasisLabel: basisLabels[basis], Median: st.Median, P10: st.P10, P90: st.P90, Results: a.results})
		}
		sort.Slice(ranks, func(i, j int) bool {
			a, b := ranks[i], ranks[j]
			if a.Basis != b.Basis {
				return basisOrder[a.Basis] < basisOrder[b.Basis]
			}
			if a.Median != b.Median {
				return a.Median > b.Median
			}
			return a.DeviceKey < b.DeviceKey
		})
		for i := range ranks {
			if i > 0 && ranks[i].Basis == ranks[i-1].Basis {
				ranks[i].Rank = ranks[i-1].Rank + 1
			} else {
				ranks[i].Rank = 1
			}
		}
		if len(ranks) == 0 {
			continue
		}
		if len(ranks) > show {
			sec.More = len(ranks) - show
			sec.MoreURL = f.url(f.family, class)
			ranks = ranks[:show]
		}
		sec.Drives = ranks
		lb.Sections = append(lb.Sections, sec)
	}
	return lb
}

// classOrder lists the classes ranked, in the order of probe's classes, others after by name.
func classOrder[V any](m map[string]V) []string {
	known := []string{"microsd", "emmc", "usb-flash", "usb-ssd", "nvme", "sata"}
	var out []string
	for _, c := range known {
		if _, ok := m[c]; ok {
			out = append(out, c)
		}
	}
	var rest []string
	for c := range m {
		if !oneOfStr(c, known) {
			rest = append(rest, c)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
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
