package server

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

func TestRankLeaders(t *testing.T) {
	base := []*leaderEntry{
		{family: "Pi 4", board: "Raspberry Pi 4 Model B", class: "microsd", bus: "mmc", key: "a", name: "Card A", pib: []float64{1000, 1200, 1100}, results: 3},
		{family: "Pi 4", board: "Raspberry Pi 4 Model B", class: "microsd", bus: "mmc", key: "b", name: "Card B", pib: []float64{1500}, results: 1},
		{family: "Pi 4", board: "Raspberry Pi 400", class: "microsd", bus: "mmc", key: "a", name: "Card A", pib: []float64{900}, results: 1},
		{family: "Pi 4", board: "Raspberry Pi 4 Model B", class: "microsd", bus: "mmc", key: "c", name: "Card C", iomark: []float64{80}, results: 1},
		{family: "Pi 4", board: "Raspberry Pi 4 Model B", class: "microsd", bus: "", key: "p", name: "Published card", seqRead: []float64{40, 44}, results: 2},
		{family: "Pi 4", board: "Raspberry Pi 4 Model B", class: "usb-ssd", bus: "usb", key: "s", name: "SSD", pib: []float64{5000}, results: 1},
		{family: "Pi 5", board: "Raspberry Pi 5", class: "nvme", bus: "pcie", key: "n", name: "NVMe", pib: []float64{9000}, results: 1},
	}
	lb := rankLeaders(base, leaderFilter{family: "Pi 4"})
	if lb.Family != "Pi 4" || len(lb.Families) != 2 || lb.Families[0].Name != "Pi 5" || lb.Families[1].Results != 9 {
		t.Fatalf("families: %+v", lb.Families)
	}
	if len(lb.Sections) != 2 || lb.Sections[0].Class != "microsd" || lb.Sections[1].Class != "usb-ssd" {
		t.Fatalf("sections: %+v", lb.Sections)
	}
	sd := lb.Sections[0]
	// Scored drives first (B 1500, then A's median over both boards 1050), then the iomark-scored,
	// then the published row by its sequential read; top 3 shown, one more behind a link.
	got := []string{}
	for _, d := range sd.Drives {
		got = append(got, d.Name+"/"+d.Basis)
	}
	if strings.Join(got, ",") != "Card B/pibenchmarks,Card A/pibenchmarks,Card C/iomark" {
		t.Errorf("microsd ranking = %v", got)
	}
	if a := sd.Drives[1]; a.Median != 1050 || a.Results != 4 || a.Rank != 2 {
		t.Errorf("Card A = %+v, want median 1050 of 4 results at rank 2", a)
	}
	if sd.Drives[2].Rank != 1 {
		t.Errorf("the first iomark-scored drive is ranked %d within its basis", sd.Drives[2].Rank)
	}
	if sd.More != 1 || !strings.Contains(sd.MoreURL, "class=microsd") {
		t.Errorf("more = %d %q", sd.More, sd.MoreURL)
	}
	if sd.Results != 8 {
		t.Errorf("microsd results = %d, want 8", sd.Results)
	}

	// Filters: a board narrows to its results; a class shows every ranked drive; a link.
	lb = rankLeaders(base, leaderFilter{board: "Raspberry Pi 400"})
	if lb.Family != "Pi 4" || len(lb.Sections) != 1 || len(lb.Sections[0].Drives) != 1 || lb.Sections[0].Drives[0].Median != 900 {
		t.Errorf("board filter: %+v", lb.Sections)
	}
	lb = rankLeaders(base, leaderFilter{family: "Pi 4", class: "microsd"})
	if len(lb.Sections) != 1 || len(lb.Sections[0].Drives) != 4 || lb.Sections[0].Drives[3].Basis != basisSeqRead || lb.Sections[0].Drives[3].Median != 42 {
		t.Errorf("class filter: %+v", lb.Sections)
	}
	lb = rankLeaders(base, leaderFilter{family: "Pi 4", link: "usb"})
	if len(lb.Sections) != 1 || lb.Sections[0].Class != "usb-ssd" {
		t.Errorf("link filter: %+v", lb.Sections)
	}
	if lb := rankLeaders(base, leaderFilter{family: "no such"}); lb.Family != "Pi 5" {
		t.Errorf("an unknown family falls back to the first with results, got %q", lb.Family)
	}
	if lb := rankLeaders(nil, leaderFilter{}); len(lb.Sections) != 0 || lb.Family != "" {
		t.Errorf("empty base: %+v", lb)
	}
}

// The home page ranks the seeded published rows (by sequential read) and uploaded results, and
// says what it ranks by.
func TestHomeLeaderboard(t *testing.T) {
	ts := startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1})
	if _, err := SeedPublished(context.Background(), ts.st); err != nil {
		t.Fatal(err)
	}
	for i, mb := range []float64{38, 40} {
		r := sampleRecord("lb"+itoa(i), "SanDisk", "Extreme A2", "Raspberry Pi 4 Model B", mb)
		if c, out := ts.post(t, encode(t, r)); c != 201 {
			t.Fatal(c, out)
		}
	}
	var home HomeData
	if c := ts.getJSON(t, "/api/v1/home?family="+url.QueryEscape("Pi 4"), &home); c != 200 {
		t.Fatal(c)
	}
	lb := home.Leaderboard
	if lb.Family != "Pi 4" || len(lb.Sections) == 0 || lb.Basis == "" {
		t.Fatalf("leaderboard: %+v", lb)
	}
	bases := map[string]bool{}
	for _, s := range lb.Sections {
		for _, d := range s.Drives {
			bases[d.Basis] = true
			if d.Results == 0 || d.Median <= 0 || d.URL == "" {
				t.Errorf("row %+v lacks its figures", d)
			}
		}
	}
	lbc := rankLeadersFor(t, ts, "Pi 4", "microsd")
	found := false
	for _, d := range lbc.Sections[0].Drives {
		if d.Name == "SanDisk Extreme A2" {
			found = d.Basis == basisSeqRead && d.Median == 39 && d.Results == 2
		}
	}
	if !found {
		t.Errorf("the uploaded drive without a score is not ranked by its sequential read (median 39 of 2): %+v", lbc.Sections)
	}
	if !bases[basisSeqRead] {
		t.Errorf("no published row ranked by sequential read: %v", bases)
	}
	c, page := ts.get(t, "/?family="+url.QueryEscape("Pi 4")+"&class=microsd")
	if c != 200 || !strings.Contains(page, "PiBenchmarks-compatible score") || !strings.Contains(page, `class="leader"`) {
		t.Errorf("home page %d does not show the leaderboard and its basis", c)
	}
	if c, _ := ts.get(t, "/api/v1/home?family=Pi+9"); c != 400 {
		t.Errorf("an unknown family: %d, want 400", c)
	}
}

func rankLeadersFor(t *testing.T, ts *testServer, family, class string) Leaderboard {
	t.Helper()
	var home HomeData
	if c := ts.getJSON(t, "/api/v1/home?family="+url.QueryEscape(family)+"&class="+class, &home); c != 200 || len(home.Leaderboard.Sections) != 1 {
		t.Fatalf("home %s %s: %d %+v", family, class, c, home.Leaderboard.Sections)
	}
	return home.Leaderboard
}

// A board the list does not name ranks among PCs when its kernel is x86, else among other
// SBCs; a board filter lands on the family its results gave.
func TestLeaderboardFamilyByArch(t *testing.T) {
	ts := startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1})
	for i, c := range []struct{ board, arch, model string }{
		{"Dell Inc. OptiPlex 7070", "x86_64", "Desk Card"},
		{"Pine64 RockPro64 v2.1", "aarch64", "Arm Card"},
		{"Old Box Without Arch", "", "Plain Card"},
	} {
		r := sampleRecord("arch"+itoa(i), "Bench", c.model, c.board, 40)
		r.Host.Arch = c.arch
		if code, out := ts.post(t, encode(t, r)); code != 201 {
			t.Fatal(code, out)
		}
	}
	ranked := func(family, board string) []string {
		var home HomeData
		q := "/api/v1/home?family=" + url.QueryEscape(family)
		if board != "" {
			q = "/api/v1/home?board=" + url.QueryEscape(board)
		}
		if c := ts.getJSON(t, q, &home); c != 200 {
			t.Fatalf("%s: %d", q, c)
		}
		var names []string
		for _, s := range home.Leaderboard.Sections {
			for _, d := range s.Drives {
				names = append(names, home.Leaderboard.Family+": "+d.Name)
			}
		}
		return names
	}
	if got := strings.Join(ranked("PCs", ""), ","); got != "PCs: Bench Desk Card" {
		t.Errorf("PCs rank %q, want the x86 desktop's drive only", got)
	}
	if got := strings.Join(ranked("Other SBCs", ""), ","); !strings.Contains(got, "Bench Arm Card") || !strings.Contains(got, "Bench Plain Card") || strings.Contains(got, "Desk") {
		t.Errorf("other SBCs rank %q, want the arm board's and the unknown one's drives", got)
	}
	if got := strings.Join(ranked("", "Dell Inc. OptiPlex 7070"), ","); got != "PCs: Bench Desk Card" {
		t.Errorf("the desktop's board filter gives %q", got)
	}
}
