package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// With the embedded published data alone, the home page ranks each family's classes on the
// comparison model's basis (internal/compare), one ranking per link setting, with no second first place.
func TestHomeLeaderboard(t *testing.T) {
	ts := startSeededServer(t)
	lb := rankLeadersFor(t, ts, "Pi 4", "microsd")
	sd := lb.Sections[0]
	// pidramble's Pi 4 cards tie at the SD bus ceiling in sequential read; they are ranked by
	// 4K random write, and the page says why.
	if sd.Basis != "rand_write_4k" || sd.Setting != "SD DDR50" ||
		sd.Sentence != "The Pi 4's SD bus (SD DDR50) caps sequential transfers at ~45 MB/s, so cards and sticks are ranked by 4K random write." {
		t.Errorf("Pi 4 microSD section: basis %q setting %q sentence %q", sd.Basis, sd.Setting, sd.Sentence)
	}
	evo := 0
	for i, d := range sd.Drives {
		if d.Rank != i+1 {
			t.Errorf("rank %d at place %d: a second #1?", d.Rank, i+1)
		}
		if strings.Contains(d.Name, "Samsung Evo+") && strings.Contains(d.Name, "32GB") {
			evo++
			// pidramble 3.85, turing-pi-cluster-11 3.25, chambers-storage-2019 761 kB/s.
			if d.Results != 3 || d.Median != 3.25 {
				t.Errorf("Samsung Evo+ 32GB: %+v", d)
			}
		}
	}
	if evo != 1 {
		t.Errorf("Samsung Evo+ 32GB appears %d times among the Pi 4 cards", evo)
	}
	// The Compute Module 4's 100 NVMe rows rank at PCIe gen 2 x1 by PiBenchmarks score.
	var home HomeData
	ts.getJSON(t, "/api/v1/home?family="+url.QueryEscape("Pi 4")+"&class=nvme&link="+url.QueryEscape("PCIe gen 2 x1"), &home)
	if s := home.Leaderboard.Sections; len(s) != 1 || s[0].Basis != "score" || s[0].More+len(s[0].Drives) < 24 {
		t.Errorf("CM4 NVMe: %+v", s)
	}
	ts.getJSON(t, "/api/v1/home?family="+url.QueryEscape("Pi 5")+"&class=nvme", &home)
	pi5 := 0
	for _, s := range home.Leaderboard.Sections {
		pi5 += s.More + len(s.Drives)
		if s.Basis != "score" || s.Setting == "" {
			t.Errorf("Pi 5 NVMe section %q on %q", s.Setting, s.Basis)
		}
	}
	if pi5 < 16 {
		t.Errorf("Pi 5 NVMe ranks %d drives", pi5)
	}
	c, page := ts.get(t, "/?family="+url.QueryEscape("Pi 4")+"&class=microsd")
	if c != 200 || !strings.Contains(page, "so cards and sticks are ranked by 4K random write") || !strings.Contains(page, `class="leader"`) {
		t.Errorf("home page %d does not show the leaderboard and its basis", c)
	}
	if c, _ := ts.get(t, "/api/v1/home?family=Pi+9"); c != 400 {
		t.Errorf("an unknown family: %d, want 400", c)
	}
}

// Two loop-device uploads are two results, never ranked and without a drive model page; a
// submitted pibenchmarks run's score is listed.
func TestVirtualUploadsAndScores(t *testing.T) {
	ts := startUnlimited(t)
	for i := range 2 {
		r := sampleRecord("loop"+itoa(i), "", "", "Raspberry Pi 4 Model B Rev 1.4", 40)
		r.SD = nil
		r.Device = &probe.Device{Name: "loop" + itoa(i), Class: probe.ClassLoop, CapacityBytes: 1 << 30}
		r.Link = []probe.Hop{{Bus: "loop", Name: "loop" + itoa(i)}}
		ts.mustPost(t, r)
	}
	p := sampleRecord("pib1", "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 41)
	p.Profile = "pibenchmarks"
	// Storage.sh's seven inputs; the server computes the score from them: 20 MB/s × 1024 +
	// 2600 × 4 + 500 × 10 + 9000 + 6000 + 7000 × 4 + 1500 × 10 = 93880, / 100 = 938.
	kib := func(name, op string, kibPerS float64) record.Test {
		return record.Test{Name: name, Op: op, BS: 4096, QD: 1, Jobs: 1, Direct: true, MiBPerS: kibPerS / 1024, MBPerS: kibPerS * 1024 / 1e6, Primary: "mb_per_s", Runs: 1}
	}
	p.Tests = []record.Test{
		{Name: "dd-write-4k", Op: "dd-write", BS: 4096, QD: 1, Jobs: 1, MBPerS: 20, Primary: "mb_per_s", Runs: 1},
		{Name: "fio-rand-read-4k-qd64", Op: "randread", BS: 4096, QD: 64, Jobs: 1, Direct: true, IOPS: 2600, MBPerS: 10.65, Primary: "iops", Runs: 1},
		{Name: "fio-rand-write-4k-qd64", Op: "randwrite", BS: 4096, QD: 64, Jobs: 1, Direct: true, IOPS: 500, MBPerS: 2.05, Primary: "iops", Runs: 1},
		kib("iozone-read-4k", "read", 9000), kib("iozone-write-4k", "write", 6000),
		kib("iozone-rand-read-4k", "randread", 7000), kib("iozone-rand-write-4k", "randwrite", 1500),
	}
	ts.mustPost(t, p)
	var home HomeData
	ts.getJSON(t, "/api/v1/home?family="+url.QueryEscape("Pi 4"), &home)
	for _, s := range home.Leaderboard.Sections {
		for _, d := range s.Drives {
			if strings.Contains(d.ModelKey, "loop") || d.Name == "" {
				t.Errorf("a virtual device ranked: %+v", d)
			}
		}
	}
	seen := 0
	for _, l := range home.Latest {
		if strings.HasPrefix(l.ID, "loop") {
			seen++
			if l.ModelURL != "" {
				t.Errorf("loop upload %s links a drive model %s", l.ID, l.ModelURL)
			}
		}
		if l.ID == "pib1" && (l.ScorePib == nil || *l.ScorePib != 938 || l.Speeds.RandWrite == nil || *l.Speeds.RandWrite != 1.536) {
			t.Errorf("pibenchmarks run in the latest list: %+v", l)
		}
	}
	if seen != 2 {
		t.Errorf("%d loop uploads in the latest list, want 2", seen)
	}
	for _, l := range home.Latest {
		if strings.HasPrefix(l.ID, "loop") && l.DriveURL != "" {
			t.Errorf("loop upload %s links a drive page %s", l.ID, l.DriveURL)
		}
	}
	if c, _ := ts.get(t, "/drive?key="+url.QueryEscape("loop:unidentified:1gb")); c != 404 {
		t.Errorf("a loop device's drive page: %d, want 404", c)
	}
	_, page := ts.get(t, "/")
	if !strings.Contains(page, "938 <small>PiBenchmarks</small>") || strings.Contains(page, "run has no score") {
		t.Error("the home page's latest list does not show the pibenchmarks run's score")
	}
	// sort= orders lists by each headline figure.
	var sr SearchData
	if c := ts.getJSON(t, "/api/v1/search?sort=rand_write_4k&order=desc", &sr); c != 200 || len(sr.List) == 0 || sr.List[0].ID != "pib1" {
		t.Errorf("sort=rand_write_4k: %d, first %+v", c, sr.List)
	}
}

func rankLeadersFor(t *testing.T, ts *testServer, family, class string) Leaderboard {
	t.Helper()
	var home HomeData
	if c := ts.getJSON(t, "/api/v1/home?family="+url.QueryEscape(family)+"&class="+class, &home); c != 200 || len(home.Leaderboard.Sections) == 0 {
		t.Fatalf("home %s %s: %d %+v", family, class, c, home.Leaderboard.Sections)
	}
	return home.Leaderboard
}

// A board the list does not name ranks among PCs when its kernel is x86, else among other
// SBCs; a board filter lands on the family its results gave.
func TestLeaderboardFamilyByArch(t *testing.T) {
	ts := startUnlimited(t)
	for i, c := range []struct{ board, arch, model string }{
		{"Dell Inc. OptiPlex 7070", "x86_64", "Desk Card"},
		{"Pine64 RockPro64 v2.1", "aarch64", "Arm Card"},
		{"Old Box Without Arch", "", "Plain Card"},
	} {
		r := sampleRecord("arch"+itoa(i), "Bench", c.model, c.board, 40)
		r.Host.Arch = c.arch
		r.Tests = append(r.Tests, record.Test{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, Direct: true, IOPS: 500, MBPerS: 2.05, Primary: "iops", Runs: 3})
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
	if got := strings.Join(ranked("PCs", ""), ","); !strings.Contains(got, "Desk Card") || strings.Contains(got, "Arm") {
		t.Errorf("PCs rank %q, want the x86 desktop's drive only", got)
	}
	if got := strings.Join(ranked("Other SBCs", ""), ","); !strings.Contains(got, "Arm Card") || !strings.Contains(got, "Plain Card") || strings.Contains(got, "Desk") {
		t.Errorf("other SBCs rank %q, want the arm board's and the unknown one's drives", got)
	}
}
