package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

func TestServerCeiling(t *testing.T) {
	for _, c := range []struct {
		name string
		run  record.Run
		want float64
	}{
		{"microSD, no link: the class's fastest bus", record.Run{Device: &probe.Device{Class: probe.ClassMicroSD}}, 93.6},
		{"microSD on a Pi 4 bus (DDR50 at 50 MHz)", record.Run{Device: &probe.Device{Class: probe.ClassMicroSD},
			SD: &probe.SD{Timing: "DDR50", ClockHz: 50_000_000, BusWidthBits: 4}, Link: []probe.Hop{{Bus: "sd"}}}, 45},
		{"microSD claiming PCIe gen 5 x16", record.Run{Device: &probe.Device{Class: probe.ClassMicroSD},
			Link: []probe.Hop{{Bus: "pcie", Detail: "PCIe gen5 x16"}}}, 93.6},
		{"uploader's own ceiling fields are ignored", record.Run{Device: &probe.Device{Class: probe.ClassMicroSD}, CeilingMBPerS: 1e6,
			Ceiling: &probe.Ceiling{MBPerS: 1e6}, Link: []probe.Hop{{Bus: "sd", CeilingMBPerS: 1e6}}}, 93.6},
		{"USB SSD at 5 Gb/s with uas", record.Run{Device: &probe.Device{Class: probe.ClassUSBSSD},
			Link: []probe.Hop{{Bus: "usb", SpeedMbps: 5000, Driver: "uas"}, {Bus: "pcie", Detail: "PCIe gen2 x1 (link capable of gen3 x1)"}}}, 420},
		{"USB SSD at 5 Gb/s, usb-storage", record.Run{Device: &probe.Device{Class: probe.ClassUSBSSD},
			Link: []probe.Hop{{Bus: "usb", SpeedMbps: 5000, Driver: "usb-storage"}}}, 250},
		{"USB flash at 480 Mb/s, driver unknown: the faster protocol", record.Run{Device: &probe.Device{Class: probe.ClassUSBFlash},
			Link: []probe.Hop{{Bus: "usb", SpeedMbps: 480}}}, 40},
		{"a published USB class", record.Run{Device: &probe.Device{Class: "usb-ssd-sata"}}, 2000},
		{"NVMe on a Pi 5 (gen 2 x1)", record.Run{Device: &probe.Device{Class: probe.ClassNVMe},
			Link: []probe.Hop{{Bus: "pcie", Detail: "PCIe gen2 x1"}}}, 425},
		{"SATA at 3 Gb/s", record.Run{Device: &probe.Device{Class: probe.ClassSATA}, Link: []probe.Hop{{Bus: "sata", SpeedMbps: 3000}}}, 276},
		{"a SATA SSD, no link", record.Run{Device: &probe.Device{Class: probe.ClassSATASSD}}, 552},
		{"eMMC, no link", record.Run{Device: &probe.Device{Class: probe.ClassEMMC}}, 360},
		{"no device: the fastest link known", record.Run{}, 53563.1},
	} {
		if got := serverCeiling(&c.run).MBPerS; got != c.want {
			t.Errorf("%s: ceiling %g MB/s, want %g", c.name, got, c.want)
		}
	}
}

// honestRun is a plausible quick run of one microSD card model on a board: DDR50 at 50 MHz, the
// six quick tests, figures scaled by speed (placeholders shaped as iomark records them, not
// measurements).
func honestRun(id, model, board string, speed float64, at time.Time) *record.Run {
	test := func(name, op string, bs, qd int, mbPerS float64) record.Test {
		return record.Test{Name: name, Op: op, BS: bs, QD: qd, Jobs: 1, Direct: true, MBPerS: mbPerS, IOPS: mbPerS * 1e6 / float64(bs),
			MiBPerS: mbPerS / 1.048576, Primary: "mb_per_s", Runs: 3}
	}
	return &record.Run{SchemaVersion: record.SchemaVersion, ID: id, CreatedAt: at, ToolVersion: "test", Profile: "quick",
		Host:   &probe.Board{Model: board},
		Device: &probe.Device{Class: probe.ClassMicroSD, Vendor: "Brand", Model: model, CapacityBytes: 64e9},
		SD:     &probe.SD{Type: "SD", ManfID: 3, OEMID: "SD", Name: model, Timing: "DDR50", ClockHz: 50_000_000, BusWidthBits: 4},
		Link:   []probe.Hop{{Bus: "sd", Name: "mmc0", SpeedMbps: 400}},
		Tests: []record.Test{
			test("seq-read-1m", "read", 1<<20, 1, 40*speed),
			test("seq-write-1m", "write", 1<<20, 1, 20*speed),
			test("rand-read-4k-qd1", "randread", 4096, 1, 10*speed),
			test("rand-write-4k-qd1", "randwrite", 4096, 1, 3*speed),
			test("rand-read-4k-qd32", "randread", 4096, 32, 11*speed),
			test("rand-write-4k-qd32", "randwrite", 4096, 32, 3.2*speed),
		}}
}

// A set of implausible and score-forged uploads changes no ranking, median, leaderboard or sort
// order: every page's JSON is the same before and after them.
func testPoisoning(t *testing.T, ts *testServer) {
	const board = "Raspberry Pi 3 Model B Rev 1.2"
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for i := range 12 {
		model := fmt.Sprintf("CARD%d", i%4)
		r := honestRun(fmt.Sprintf("honest-%02d", i), model, board, 0.5+0.1*float64(i%4)+0.01*float64(i), at.Add(time.Duration(i)*time.Minute))
		if c, out := ts.post(t, encode(t, r)); c != 201 || out["listed"] != true {
			t.Fatalf("honest run %d: %d %v", i, c, out)
		}
	}
	key := honestRun("x", "CARD3", board, 1, at).DeviceKey()
	pages := []string{"/api/v1/home", "/api/v1/board?name=" + strings.ReplaceAll(board, " ", "+"),
		"/api/v1/search?q=brand&sort=score&order=desc", "/api/v1/search?board=" + strings.ReplaceAll(board, " ", "+") + "&sort=date",
		"/api/v1/search?class=microsd&sort=score&order=asc", "/api/v1/drive?key=" + key,
		"/api/v1/compare?drive=" + key + "&drive=" + honestRun("x", "CARD0", board, 1, at).DeviceKey(),
		"/api/v1/value?drive=" + key + "&price=10"}
	snapshot := func() []string {
		var out []string
		for _, p := range pages {
			c, body := ts.get(t, p)
			if c != 200 {
				t.Fatalf("%s: %d %s", p, c, body)
			}
			out = append(out, body)
		}
		return out
	}
	before := snapshot()

	later := at.Add(time.Hour) // newer than every honest run: it would lead lists by date
	forged := map[string]func(r *record.Run){
		"990,000 MB/s dd-write on a new card": func(r *record.Run) {
			r.SD.Name, r.Device.Model = "FAKE1", "FAKE1"
			r.Tests = append(r.Tests, record.Test{Name: "dd-write", Op: "write", BS: 4096, QD: 1, MBPerS: 990000, Runs: 1})
			r.Tests[0].MBPerS, r.Tests[0].IOPS, r.Tests[0].MiBPerS = 990000, 990000/1.048576, 990000/1.048576
		},
		"the best card's identity, 90 MB/s on DDR50": func(r *record.Run) {
			r.Tests[0].MBPerS, r.Tests[0].IOPS, r.Tests[0].MiBPerS = 90, 90/1.048576, 90/1.048576
		},
		"a PCIe gen5 x16 link claimed for a microSD card": func(r *record.Run) {
			r.SD = nil
			r.Link = []probe.Hop{{Bus: "pcie", Detail: "PCIe gen5 x16", CeilingMBPerS: 53550}}
			r.CeilingMBPerS = 53550
			r.Tests[0].MBPerS, r.Tests[0].IOPS, r.Tests[0].MiBPerS = 150, 150/1.048576, 150/1.048576
		},
		"IOPS of 1-byte blocks": func(r *record.Run) {
			r.Tests[2].BS, r.Tests[2].IOPS, r.Tests[2].MBPerS, r.Tests[2].MiBPerS = 1, 4e7, 40, 40/1.048576
		},
		"IOPS without a block size":    func(r *record.Run) { r.Tests[4].BS, r.Tests[4].IOPS = 0, 1e7 },
		"IOPS that disagree with MB/s": func(r *record.Run) { r.Tests[2].IOPS = 20000 },
		"a run dated next year":        func(r *record.Run) { r.CreatedAt = time.Now().AddDate(1, 0, 0) },
		"a run dated 1970":             func(r *record.Run) { r.CreatedAt = time.Unix(0, 0).UTC() },
		"one test twice":               func(r *record.Run) { r.Tests = append(r.Tests, r.Tests[0]) },
	}
	n := 0
	for name, change := range forged {
		n++
		r := honestRun(fmt.Sprintf("forged-%02d", n), "CARD3", board, 1.2, later)
		pib := 999_999_999
		r.Scores = record.Scores{Iomark: ptr(1e9), Pibenchmarks: &pib}
		change(r)
		c, out := ts.post(t, encode(t, r))
		if c != 201 || out["listed"] != false {
			t.Errorf("%s: %d listed=%v flags %v; want 201, not listed", name, c, out["listed"], out["flags"])
			continue
		}
		var res ResultData
		if c := ts.getJSON(t, "/api/v1/results/"+r.ID, &res); c != 200 || res.Listed || len(res.Flags) == 0 {
			t.Errorf("%s: own page %d listed %v flags %v; want it shown, marked", name, c, res.Listed, res.Flags)
		}
		if res.Record != nil && (res.Record.Scores.Pibenchmarks != nil || res.Record.Scores.Iomark != nil && *res.Record.Scores.Iomark >= 1e9) {
			t.Errorf("%s: stored scores %+v are the upload's", name, res.Record.Scores)
		}
	}
	after := snapshot()
	for i := range pages {
		if before[i] != after[i] {
			t.Errorf("%s changed after the implausible uploads:\nbefore %s\nafter  %s", pages[i], before[i], after[i])
		}
	}

	// A forged score on plausible figures: stored with the server's score, which the sort uses.
	r := honestRun("score-forged", "CARD9", board, 0.2, later)
	r.Scores.Iomark = ptr(1e9)
	if c, out := ts.post(t, encode(t, r)); c != 201 || out["listed"] != true {
		t.Fatalf("plausible figures with a forged score: %d %v; want stored and listed", c, out)
	}
	var res ResultData
	ts.getJSON(t, "/api/v1/results/score-forged", &res)
	want := serverScores(honestRun("x", "CARD9", board, 0.2, later))
	if res.Record == nil || res.Record.Scores.Iomark == nil || *res.Record.Scores.Iomark != *want.Iomark || *want.Iomark > 100 {
		t.Fatalf("stored score %+v, want the server's %v", res.Record.Scores, *want.Iomark)
	}
	var top SearchData
	ts.getJSON(t, "/api/v1/search?board="+strings.ReplaceAll(board, " ", "+")+"&sort=score&order=desc", &top)
	if len(top.List) == 0 || top.List[0].ID == "score-forged" || top.List[len(top.List)-1].ID != "score-forged" {
		t.Errorf("sorted by score, the forged-score run is not last: %v", ids(top.List))
	}
}

func ptr(v float64) *float64 { return &v }

func ids(list []RunSummary) []string {
	var out []string
	for _, r := range list {
		out = append(out, r.ID)
	}
	return out
}
