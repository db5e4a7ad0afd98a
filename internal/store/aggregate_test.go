package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestAggregates(t *testing.T) { onEachBackend(t, testAggregates) }

// testAggregates checks the server's queries on one back end: both must answer alike.
func testAggregates(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	add := func(id string, minutes int, board, vendor, model, key string, score *float64, mbPerS float64) {
		t.Helper()
		run, tests := sampleRun(id, t0.Add(time.Duration(minutes)*time.Minute), vendor, model)
		run.Board, run.DeviceKey, run.ScoreIomark = board, key, score
		run.Record = []byte(fmt.Sprintf(`{"id":%q}`, id))
		tests[0].MBPerS = mbPerS
		if err := s.SaveRun(ctx, run, tests); err != nil {
			t.Fatal(err)
		}
	}
	add("a", 1, "Pi 4", "SanDisk", "Extreme", "sd:a", f64(10), 90)
	add("b", 2, "Pi 4", "SanDisk", "Extreme", "sd:a", nil, 80)
	add("c", 3, "Pi 5", "Samsung", "EVO Plus", "sd:b", f64(30), 70)
	add("d", 4, "Pi 5", "Kingston", "Canvas", "", f64(20), 60)

	if n, err := s.CountRuns(ctx, Filter{Board: "Pi 4"}); err != nil || n != 2 {
		t.Errorf("CountRuns(Pi 4) = %d, %v; want 2", n, err)
	}
	if n, err := s.CountRuns(ctx, Filter{Text: "sandisk"}); err != nil || n != 2 {
		t.Errorf("CountRuns(sandisk) = %d, %v; want 2", n, err)
	}
	if n, err := s.CountRuns(ctx, Filter{Text: "++"}); err != nil || n != 0 {
		t.Errorf("CountRuns(++) = %d, %v; want 0", n, err)
	}

	for _, tt := range []struct {
		sort string
		desc bool
		want string
	}{
		{"", true, "dcba"},
		{"date", false, "abcd"},
		{"score", true, "cdab"}, // no score last
		{"score", false, "adcb"},
		{"vendor", false, "dcba"}, // Kingston, Samsung, SanDisk (newest first within)
	} {
		runs, err := s.SortedRuns(ctx, Filter{}, tt.sort, tt.desc)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, r := range runs {
			got += r.ID
		}
		if got != tt.want {
			t.Errorf("SortedRuns(%q, desc=%v) = %s, want %s", tt.sort, tt.desc, got, tt.want)
		}
	}
	if _, err := s.SortedRuns(ctx, Filter{}, "id; DROP TABLE runs", false); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown sort: err = %v, want ErrInvalid", err)
	}
	page, err := s.SortedRuns(ctx, Filter{Limit: 2, Offset: 1}, "date", false)
	if err != nil || len(page) != 2 || page[0].ID != "b" {
		t.Errorf("page 2 of 2 = %v, %v", ids(page), err)
	}

	figs, err := s.Figures(ctx, Filter{DeviceKey: "sd:a"}, "seq-read-1m")
	if err != nil || len(figs) != 2 || figs[0].RunID != "b" || figs[0].MBPerS != 80 || figs[1].Board != "Pi 4" {
		t.Errorf("Figures(sd:a) = %+v, %v", figs, err)
	}
	figs, err = s.Figures(ctx, Filter{Text: "evo"})
	if err != nil || len(figs) != 2 || figs[1].Test != "rand-write-4k-qd1" {
		t.Errorf("Figures(evo) = %+v, %v", figs, err)
	}

	boards, err := s.Boards(ctx, 0)
	if err != nil || len(boards) != 2 || boards[0].Key != "Pi 4" || boards[0].Runs != 2 {
		t.Errorf("Boards = %+v, %v", boards, err)
	}
	drives, err := s.Drives(ctx, Filter{})
	if err != nil || len(drives) != 2 || drives[0].Key != "sd:a" || drives[0].Runs != 2 || drives[0].Vendor != "SanDisk" {
		t.Errorf("Drives = %+v, %v", drives, err)
	}
	if n, err := s.CountDrives(ctx, Filter{Board: "Pi 5"}); err != nil || n != 1 {
		t.Errorf("CountDrives(Pi 5) = %d, %v; want 1 (a run without a key is no drive)", n, err)
	}
	if has, err := s.HasSource(ctx, SourcePublished); err != nil || has {
		t.Errorf("HasSource(published) = %v, %v", has, err)
	}
	if has, err := s.HasSource(ctx, SourceLocal); err != nil || !has {
		t.Errorf("HasSource(local) = %v, %v", has, err)
	}
}

func TestNarrow(t *testing.T) { onEachBackend(t, testNarrow) }

func testNarrow(t *testing.T, dsn string) {
	s := openT(t, dsn)
	ctx := context.Background()
	for i, c := range []struct {
		bus      string
		capacity int64
	}{{"sd", 31_914_983_424}, {"usb", 63_864_569_856}, {"usb", 128_035_676_160}} {
		run, tests := sampleRun(fmt.Sprintf("n%d", i), t0.Add(time.Duration(i)*time.Minute), "V", "M")
		run.LinkBus, run.CapacityBytes = c.bus, c.capacity
		if err := s.SaveRun(ctx, run, tests); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		n    Narrow
		want int
	}{
		{Narrow{}, 3},
		{Narrow{LinkBus: "usb"}, 2},
		{Narrow{MinCapacityBytes: 50e9, MaxCapacityBytes: 70e9}, 1},
		{Narrow{LinkBus: "sd", MinCapacityBytes: 50e9}, 0},
	} {
		n, err := s.CountRuns(ctx, Filter{}, tt.n)
		runs, err2 := s.SortedRuns(ctx, Filter{}, "capacity", false, tt.n)
		if err != nil || err2 != nil || n != tt.want || len(runs) != tt.want {
			t.Errorf("%+v: count %d, list %d (%v %v), want %d", tt.n, n, len(runs), err, err2, tt.want)
		}
	}
	if _, err := s.CountRuns(ctx, Filter{}, Narrow{}, Narrow{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("two Narrows: err = %v", err)
	}
}
