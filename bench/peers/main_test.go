package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The outputs in testdata are the real ones of the run BENCHMARKS.md quotes (testdata/SOURCES.md).
func TestParsePeerOutputs(t *testing.T) {
	tests := []struct {
		file      string
		parse     func(string) (float64, figure, error)
		wantValue float64
		wantRaw   figure
	}{
		{"hdparm-Tt-direct.txt", hdparmFigure, 38.46, figure{38.46, "MB/sec"}},
		{"hdparm-t.txt", hdparmFigure, 38.39, figure{38.39, "MB/sec"}},
		{"dd-4k-130k.txt", ddFigure, 19.6, figure{19.6, "MB/s"}},
		{"fio-minimal-randwrite.txt", fioTerseFigure(true), 691, figure{691, "IOPS"}},
		{"fio-minimal-randread.txt", fioTerseFigure(false), 2624, figure{2624, "IOPS"}},
		{"fio-seq-read-group.txt", fioGroupFigure, 40.2, figure{40.2, "MB/s"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			v, raw, err := tt.parse(string(b))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if v != tt.wantValue || raw != tt.wantRaw {
				t.Errorf("got %v %+v, want %v %+v", v, raw, tt.wantValue, tt.wantRaw)
			}
		})
	}
}

// A terse read line must not be read as a write one: the fields differ.
func TestFioMinimalReadWriteFieldsDiffer(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "fio-minimal-randwrite.txt"))
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := fioTerseFigure(false)(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if v != 0 {
		t.Errorf("read IOPS of a randwrite run = %v, want 0", v)
	}
}

func TestParseRejectsOtherOutput(t *testing.T) {
	garbage := []string{"", "hdparm: BLKFLSBUF failed: Permission denied\n", "3;fio-3.33;test;0;0\n",
		"dd: failed to open 'test': No space left on device\n"}
	parsers := map[string]func(string) (float64, figure, error){
		"hdparm": hdparmFigure, "dd": ddFigure, "fio-terse-read": fioTerseFigure(false),
		"fio-terse-write": fioTerseFigure(true), "fio-group": fioGroupFigure,
	}
	for name, p := range parsers {
		for _, g := range garbage {
			if _, _, err := p(g); err == nil {
				t.Errorf("%s accepted %q", name, g)
			}
		}
	}
}

func TestUnitConversions(t *testing.T) {
	tests := []struct {
		conv func(figure) (float64, error)
		in   figure
		want float64
	}{
		{hdparmToMiBPerS, figure{38.5, "MB/sec"}, 38.5},
		{hdparmToMiBPerS, figure{512, "kB/sec"}, 0.5},
		{hdparmToMiBPerS, figure{1.5, "GB/sec"}, 1536},
		{ddToMBPerS, figure{19.6, "MB/s"}, 19.6},
		{ddToMBPerS, figure{900, "kB/s"}, 0.9},
		{ddToMBPerS, figure{1.2, "GB/s"}, 1200},
	}
	for _, tt := range tests {
		got, err := tt.conv(tt.in)
		if err != nil || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%+v: got %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := ddToMBPerS(figure{1, "MiB/s"}); err == nil {
		t.Error("ddToMBPerS accepted an unknown unit")
	}
}

func TestRatioAndAgreement(t *testing.T) {
	tests := []struct {
		iomark, peer float64
		wantOK       bool
		wantRatio    float64
		wantAgree    bool
	}{
		{100, 100, true, 1, true},
		{105, 100, true, 1.05, true},
		{95, 100, true, 0.95, true},
		{106, 100, true, 1.06, false},
		{94, 100, true, 0.94, false},
		{100, 0, false, 0, false},
		{100, -1, false, 0, false},
		{math.NaN(), 100, false, 0, false},
	}
	for _, tt := range tests {
		r, ok := ratio(tt.iomark, tt.peer)
		if ok != tt.wantOK || math.Abs(r-tt.wantRatio) > 1e-12 {
			t.Errorf("ratio(%v, %v) = %v, %v; want %v, %v", tt.iomark, tt.peer, r, ok, tt.wantRatio, tt.wantOK)
		}
		if ok && agrees(r) != tt.wantAgree {
			t.Errorf("agrees(%v) = %v, want %v", r, !tt.wantAgree, tt.wantAgree)
		}
	}
}

func TestCompare(t *testing.T) {
	rec := &runRecord{Tests: []runTest{{Name: "dd-write-4k", MBPerS: 19.0, MiBPerS: 18.1, IOPS: 4639}}}
	p := peer{Profile: "pibenchmarks", Test: "dd-write-4k", Field: "mb_per_s"}
	c := compare(p, peerRun{Value: 20}, rec)
	if !c.HaveRatio || c.Iomark != 19.0 || math.Abs(c.Ratio-0.95) > 1e-12 || verdict(c) != "yes" {
		t.Errorf("compare = %+v (verdict %s), want iomark 19, ratio 0.95, yes", c, verdict(c))
	}
	missing := compare(peer{Profile: "pibenchmarks", Test: "nope", Field: "iops"}, peerRun{Value: 20}, rec)
	if missing.HaveRatio || missing.IomarkErr == "" {
		t.Errorf("a test missing from the record gave %+v", missing)
	}
	noProfile := compare(p, peerRun{Value: 20}, nil)
	if noProfile.HaveRatio || !strings.Contains(noProfile.IomarkErr, "not run") {
		t.Errorf("a profile not run gave %+v", noProfile)
	}
	failedPeer := compare(p, peerRun{Err: "boom"}, rec)
	if failedPeer.HaveRatio || verdict(failedPeer) != "—" {
		t.Errorf("a failed peer gave %+v", failedPeer)
	}
}

// Every peer row names a real record field and, but for the repeat rows, a parser.
func TestPeerTable(t *testing.T) {
	for i, p := range peers {
		if _, err := (runTest{}).field(p.Field); err != nil {
			t.Errorf("%s: %v", p.Script, err)
		}
		if p.Args == nil && i == 0 {
			t.Errorf("%s: a repeat row cannot come first", p.Script)
		}
		if p.Args != nil && p.parse == nil {
			t.Errorf("%s: no parser", p.Script)
		}
		if p.LimitInUnit <= 0 {
			t.Errorf("%s: no drive limit", p.Script)
		}
	}
}

func TestRefArgs(t *testing.T) {
	for _, s := range quickShapes {
		args := refArgs("/mnt/x", s, time.Minute)
		write := strings.Contains(s.RW, "write")
		if got := slices.Contains(args, "--destructive"); got != write {
			t.Errorf("%s: --destructive %v, want %v", s.Test, got, write)
		}
		if got := slices.Contains(args, "--end-fsync"); got != (s.RW == "write") {
			t.Errorf("%s: --end-fsync %v", s.Test, got)
		}
		if !slices.Contains(args, "1m0s") || !slices.Contains(args, "/mnt/x/"+refFile) {
			t.Errorf("%s: args %v lack the runtime or the file", s.Test, args)
		}
	}
}

func TestDevAsDEV(t *testing.T) {
	got := devAsDEV([]string{"hdparm", "-t", "/dev/loop3", "--filename=/dev/loop3", "/tmp/lab-x/iomark-ref.dat", "/tmp/lab-x"},
		"/dev/loop3", "/tmp/lab-x")
	want := []string{"hdparm", "-t", "DEV", "--filename=DEV", "MNT/iomark-ref.dat", "MNT"}
	if !slices.Equal(got, want) {
		t.Errorf("devAsDEV = %v, want %v", got, want)
	}
}

func TestParseRunRecord(t *testing.T) {
	r, err := parseRunRecord([]byte(`{"profile":"quick","duration_s":51.2,"bytes_written":376438784,` +
		`"tests":[{"name":"seq-read-1m","iops":38.1,"mb_per_s":40.0,"mib_per_s":38.1,"runs":3,"ci95_pct":0.4}],` +
		`"scores":{"pibenchmarks":812}}`))
	if err != nil {
		t.Fatal(err)
	}
	tst, ok := r.test("seq-read-1m")
	if !ok || tst.MBPerS != 40.0 || r.Scores.Pibenchmarks == nil || *r.Scores.Pibenchmarks != 812 {
		t.Errorf("parsed %+v", r)
	}
	if _, err := parseRunRecord([]byte(`{"profile":"quick","tests":[]}`)); err == nil {
		t.Error("a record without tests was accepted")
	}
}

func TestWithinBudget(t *testing.T) {
	tests := []struct {
		durationS    float64
		bytesWritten int64
		want         string
	}{
		{51.1, 359 << 20, "inside"},
		{60, 512 << 20, "inside"},
		{60.1, 100 << 20, "**outside**"},
		{30, 513 << 20, "**outside**"},
	}
	for _, tt := range tests {
		if got := withinBudget(tt.durationS, tt.bytesWritten); got != tt.want {
			t.Errorf("withinBudget(%v, %d) = %q, want %q", tt.durationS, tt.bytesWritten, got, tt.want)
		}
	}
}
