package profile

import (
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
)

// microSD is the slowest drive quick promises its budget on: a Pi 4 microSD card.
var microSD = DriveModel{ReadMBPerS: 40, WriteMBPerS: 20, ReadIOPS: 2600, WriteIOPS: 700}

func TestEveryProfileIsValid(t *testing.T) {
	for _, name := range Names() {
		p, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if p.Source == "" || p.Title == "" {
			t.Errorf("%s: no source or title", name)
		}
	}
	if _, err := ByName("nope"); err == nil || !strings.Contains(err.Error(), "quick") {
		t.Errorf("unknown profile error = %v, want the known names listed", err)
	}
}

// The quick test names are a contract (the result record's JSON, docs/result-record.md).
func TestQuickNamesAreStable(t *testing.T) {
	want := []string{"seq-read-1m", "seq-write-1m", "rand-read-4k-qd1", "rand-write-4k-qd1", "rand-read-4k-qd32", "rand-write-4k-qd32"}
	q := Quick()
	if len(q.Tests) != len(want) {
		t.Fatalf("quick has %d tests, want %d", len(q.Tests), len(want))
	}
	for i, n := range want {
		if q.Tests[i].Name != n {
			t.Errorf("quick test %d = %s, want %s", i, q.Tests[i].Name, n)
		}
	}
	if DefaultName != "quick" {
		t.Errorf("default profile %s", DefaultName)
	}
}

// A name means one measurement: where two profiles share a test name, the shape must match.
func TestSharedNamesMeanTheSameShape(t *testing.T) {
	type shape struct {
		p          engine.Pattern
		bs, qd, jb int
		buffered   bool
	}
	seen := map[string]shape{}
	where := map[string]string{}
	for _, name := range Names() {
		p, _ := ByName(name)
		for _, tc := range p.Tests {
			s := shape{tc.Pattern, tc.BlockSize, tc.QD, tc.Jobs, tc.Buffered}
			if prev, ok := seen[tc.Name]; ok && prev != s {
				t.Errorf("test %s is %+v in %s but %+v in %s", tc.Name, prev, where[tc.Name], s, name)
			}
			seen[tc.Name], where[tc.Name] = s, name
		}
	}
}

func TestCDMPresets(t *testing.T) {
	cases := []struct {
		p     *Profile
		names []string
	}{
		{CDM(), []string{"seq-read-1m-q8t1", "seq-write-1m-q8t1", "seq-read-1m-q1t1", "seq-write-1m-q1t1",
			"rand-read-4k-q32t1", "rand-write-4k-q32t1", "rand-read-4k-q1t1", "rand-write-4k-q1t1"}},
		{CDMNVMe(), []string{"seq-read-1m-q8t1", "seq-write-1m-q8t1", "seq-read-128k-q32t1", "seq-write-128k-q32t1",
			"rand-read-4k-q32t16", "rand-write-4k-q32t16", "rand-read-4k-q1t1", "rand-write-4k-q1t1"}},
		{CDMFlash(), []string{"seq-read-128k-q32t1", "seq-write-128k-q32t1", "seq-read-128k-q1t1", "seq-write-128k-q1t1",
			"rand-read-4k-q32t1", "rand-write-4k-q32t1", "rand-read-4k-q1t1", "rand-write-4k-q1t1"}},
	}
	for _, c := range cases {
		var got []string
		for _, tc := range c.p.Tests {
			got = append(got, tc.Name)
			if tc.RunTime != 5*time.Second || tc.MaxRuns != 5 {
				t.Errorf("%s %s: measure %v ×%d, want CDM's 5 s ×5", c.p.Name, tc.Name, tc.RunTime, tc.MaxRuns)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.names, " ") {
			t.Errorf("%s tests\n got %v\nwant %v", c.p.Name, got, c.names)
		}
		if c.p.FileBytes != GiB || c.p.RestBetweenTests != 5*time.Second {
			t.Errorf("%s: file %d, interval %v", c.p.Name, c.p.FileBytes, c.p.RestBetweenTests)
		}
	}
	q32t16 := CDMNVMe().Tests[4]
	if q32t16.QD != 32 || q32t16.Jobs != 16 || q32t16.Label != "RND4K Q32T16" {
		t.Errorf("RND4K Q32T16 = %+v", q32t16)
	}
}

// A worked example of Storage.sh's formula, and the truncation bc's scale=0 division does.
func TestPibScore(t *testing.T) {
	cases := []struct {
		name string
		in   PibInputs
		want int
	}{
		{"issue 4 worked example", PibInputs{DDWriteMBPerS: 200, FioRandReadIOPS: 21135, FioRandWrIOPS: 9706,
			IozoneReadKBps: 34226, IozoneWriteKBps: 26987, IozoneRandReadKBps: 25565, IozoneRandWriteKBps: 34065}, 8905},
		// 100*1024 + 1*4 ... = 102400 + 96 → 1024.96 truncates to 1024, never rounds up.
		{"truncates", PibInputs{DDWriteMBPerS: 100, IozoneReadKBps: 96}, 1024},
		// 19.7*1024 + 27.2 = 20200.00 exactly in bc: 202, not 201.
		{"exact at the boundary", PibInputs{DDWriteMBPerS: 19.7, IozoneReadKBps: 27.2}, 202},
		{"nothing measured", PibInputs{}, 0},
	}
	for _, c := range cases {
		if got := PibScore(c.in); got != c.want {
			t.Errorf("%s: score %d, want %d", c.name, got, c.want)
		}
	}
}

// The score reads iozone's kB/s as KiB/s and dd's MB/s as 10^6 bytes/s.
func TestPibInputsFromTests(t *testing.T) {
	tests := []record.Test{
		{Name: PibDDWrite, MBPerS: 20, Runs: 3},
		{Name: PibFioRandRead, IOPS: 2600, Runs: 3},
		{Name: PibFioRandWrite, IOPS: 700, Runs: 3},
		{Name: PibIozoneRead, MiBPerS: 10400.0 / 1024, Runs: 3},
		{Name: PibIozoneWrite, MiBPerS: 2800.0 / 1024, Runs: 3},
		{Name: PibIozoneRandRead, MiBPerS: 10400.0 / 1024, Runs: 3},
		{Name: PibIozoneRandWrt, MiBPerS: 2800.0 / 1024, Runs: 3},
	}
	s := PiBenchmarks().Score(tests)
	if s.Pibenchmarks == nil || *s.Pibenchmarks != 1206 {
		t.Fatalf("score = %v, want 1206 ((20*1024+2600*4+700*10+10400+2800+10400*4+2800*10)/100)", s.Pibenchmarks)
	}
	if s := PiBenchmarks().Score(tests[:6]); s.Pibenchmarks != nil {
		t.Errorf("a run missing a test scored %d", *s.Pibenchmarks)
	}
}

// Storage.sh's workloads, as the profile reproduces them.
func TestPibenchmarksShapes(t *testing.T) {
	p := PiBenchmarks()
	byName := map[string]Test{}
	for _, tc := range p.Tests {
		byName[tc.Name] = tc
		if tc.RunTime <= 0 {
			t.Errorf("%s has no time bound", tc.Name)
		}
	}
	dd := byName[PibDDWrite]
	if !dd.Buffered || !dd.EndFsync || dd.BlockSize != 4096 || dd.RunBytes != 130*1024*4096 || dd.SizeForSeconds == 0 {
		t.Errorf("dd = %+v, want buffered 4k writes of at most 130k blocks, fsync at the end, sized by time", dd)
	}
	for _, n := range []string{PibFioRandRead, PibFioRandWrite} {
		if f := byName[n]; f.QD != 64 || f.Buffered || f.RegionBytes != 80*MiB || f.RunBytes != 80*MiB {
			t.Errorf("%s = %+v, want O_DIRECT QD64 over 80 MiB", n, f)
		}
	}
	for _, n := range []string{PibIozoneRead, PibIozoneWrite, PibIozoneRandRead, PibIozoneRandWrt} {
		if f := byName[n]; f.QD != 1 || f.Buffered || f.RegionBytes != 80*MiB || f.EndFsync != f.Pattern.Writes() {
			t.Errorf("%s = %+v, want O_DIRECT QD1 over 80 MiB, flush included for writes (-e)", n, f)
		}
	}
	if h := byName[PibHdparmRead]; !h.Buffered || !h.DropCache || h.Pattern != engine.Read {
		t.Errorf("hdparm = %+v, want buffered sequential reads after dropping the cache", h)
	}
}

func TestTestBudget(t *testing.T) {
	tc := Test{Budget: 8 * time.Second}
	cases := []struct {
		name      string
		max       time.Duration
		elapsed   time.Duration
		left      time.Duration // budgets of the tests left, this one included
		wantLimit time.Duration
	}{
		{"no profile bound", 0, 50 * time.Second, 24 * time.Second, 8 * time.Second},
		{"plenty left", 60 * time.Second, 10 * time.Second, 24 * time.Second, 8 * time.Second},
		{"shared by budget", 60 * time.Second, 40 * time.Second, 32 * time.Second, 5 * time.Second},
		{"over time", 60 * time.Second, 70 * time.Second, 16 * time.Second, 0},
	}
	for _, c := range cases {
		if got := TestBudget(tc, c.max, c.elapsed, c.left); got != c.wantLimit {
			t.Errorf("%s: %v, want %v", c.name, got, c.wantLimit)
		}
	}
	if got := BudgetsFrom(Quick().Tests); got != 46*time.Second {
		t.Errorf("quick budgets sum to %v, want 2×9 s + 4×7 s", got)
	}
}

func TestWriteAllowanceAndRunBytes(t *testing.T) {
	if got := WriteAllowance(0, 1<<40, 1, 3); got != -1 {
		t.Errorf("unbounded allowance = %d", got)
	}
	if got := WriteAllowance(512*MiB, 128*MiB, 1, 3); got != 128*MiB {
		t.Errorf("allowance = %d, want 128 MiB", got)
	}
	if got := WriteAllowance(512*MiB, 128*MiB, 4, 6); got != 256*MiB {
		t.Errorf("weighted allowance = %d, want 4/6 of 384 MiB", got)
	}
	if got := WriteAllowance(512*MiB, 600*MiB, 1, 1); got != 0 {
		t.Errorf("overdrawn allowance = %d", got)
	}
	if got := WriteShares(Quick().Tests); got != 6 {
		t.Errorf("quick write shares = %d, want 4+1+1", got)
	}
	// A slow drive: three full-length runs and the warm-up fit 128 MiB, so the cap is the
	// allowance over them and leaves full-length runs alone.
	seqW := Test{Pattern: engine.Write, BlockSize: MiB, MinRuns: 3, MaxRuns: 10, WarmUp: time.Second, RunTime: 3 * time.Second}
	if got := RunBytes(seqW, RunState{WriteRate: 10e6, Allowance: 128 * MiB, WarmUp: true}); got != 32*MiB {
		t.Errorf("per-run cap = %d, want 32 MiB (128 MiB over warm-up + 3 runs)", got)
	}
	// A fast drive (or an unknown rate): six shorter runs and the warm-up share it.
	for _, rate := range []float64{2e9, 0} {
		if got := RunBytes(seqW, RunState{WriteRate: rate, Allowance: 140 * MiB, WarmUp: true}); got != 20*MiB {
			t.Errorf("per-run cap at %.0f B/s = %d, want 20 MiB (140 MiB over warm-up + 6 runs)", rate, got)
		}
	}
	withRamp := seqW
	withRamp.Ramp = 250 * time.Millisecond
	if got := RunBytes(withRamp, RunState{WriteRate: 2e9, Allowance: 150 * MiB}); got != 20*MiB {
		t.Errorf("per-run cap with ramps = %d, want 150 MiB over 6 runs of 1.25 each", got)
	}
	// Planned again after two of six runs: the 100 MiB left go to the four runs left.
	if got := RunBytes(withRamp, RunState{WriteRate: 2e9, Allowance: 100 * MiB, RunsDone: 2}); got != 20*MiB {
		t.Errorf("per-run cap after 2 runs = %d, want 100 MiB over 4 runs of 1.25 each", got)
	}
	if got := RunBytes(seqW, RunState{WriteRate: 2e9, Allowance: -1, WarmUp: true}); got != 0 {
		t.Errorf("unbounded run bytes = %d", got)
	}
	dd := Test{Pattern: engine.Write, BlockSize: 4096, MinRuns: 3, MaxRuns: 5, RunBytes: 520 * MiB, SizeForSeconds: 5 * time.Second, RunTime: 30 * time.Second}
	if got := RunBytes(dd, RunState{LayoutMBPerS: 20, WriteRate: 20e6, Allowance: -1}); got != 100_000_000-100_000_000%4096 {
		t.Errorf("dd bytes at 20 MB/s = %d, want 5 s worth", got)
	}
	if got := RunBytes(dd, RunState{LayoutMBPerS: 2000, WriteRate: 2e9, Allowance: -1}); got != 520*MiB {
		t.Errorf("dd bytes on a fast drive, no budget = %d, want dd's 520 MiB", got)
	}
	if got := RunBytes(dd, RunState{LayoutMBPerS: 2000, WriteRate: 2e9, Allowance: 500 * MiB}); got != 100*MiB {
		t.Errorf("dd bytes on a fast drive within 500 MiB = %d, want 5 runs of 100 MiB", got)
	}
	read := Test{Pattern: engine.Read, BlockSize: MiB, MinRuns: 3}
	if got := RunBytes(read, RunState{LayoutMBPerS: 20, WriteRate: 20e6, Allowance: 1}); got != 0 {
		t.Errorf("a read test got a write cap: %d", got)
	}
}

// quick stays inside 45 s and 512 MiB written on a Pi 4 microSD card, layout included — checked on the runner's own rules, in the worst case where every test uses its
// whole budget.
func TestQuickWorstCaseOnMicroSD(t *testing.T) {
	e := WorstCase(Quick(), microSD)
	if e.Duration > 45*time.Second {
		t.Errorf("quick may take %v on a microSD card, want ≤ 45 s", e.Duration)
	}
	if e.BytesWritten > 512*MiB {
		t.Errorf("quick may write %d MiB, want ≤ 512 MiB", e.BytesWritten/MiB)
	}
	// And the write budget holds on a drive 100 times faster, where time bounds nothing.
	fast := DriveModel{ReadMBPerS: 4000, WriteMBPerS: 2000, ReadIOPS: 500000, WriteIOPS: 300000}
	if e := WorstCase(Quick(), fast); e.BytesWritten > 512*MiB {
		t.Errorf("quick may write %d MiB on a fast drive, want ≤ 512 MiB", e.BytesWritten/MiB)
	}
}

// No profile can run away on a slow card: each finishes in bounded time.
func TestEveryProfileIsBoundedOnMicroSD(t *testing.T) {
	limits := map[string]time.Duration{"quick": 45 * time.Second, "pibenchmarks": 5 * time.Minute, "sbc-reviews": 3 * time.Minute,
		"cdm": 6 * time.Minute, "cdm-nvme": 6 * time.Minute, "cdm-flash": 6 * time.Minute, "sustained": 11 * time.Minute,
		"a1": 3 * time.Minute, "a2": 4 * time.Minute}
	for _, name := range Names() {
		p, _ := ByName(name)
		lim, ok := limits[name]
		if !ok {
			t.Errorf("no limit for %s", name)
			continue
		}
		if e := WorstCase(p, microSD); e.Duration > lim {
			t.Errorf("%s may take %v on a microSD card, want ≤ %v", name, e.Duration.Round(time.Second), lim)
		}
	}
}

// Every profile has a byte budget no larger than what the peer it mirrors writes,
// and keeps to it on a slow card and on a drive a hundred times faster, where time bounds
// nothing; there its write tests still get several runs (an interval), not one long run.
func TestEveryProfileKeepsItsByteBudget(t *testing.T) {
	fast := DriveModel{ReadMBPerS: 4000, WriteMBPerS: 2000, ReadIOPS: 500000, WriteIOPS: 300000}
	for _, name := range Names() {
		p, _ := ByName(name)
		if p.MaxBytesWritten <= 0 || p.Peer.Tool == "" {
			t.Errorf("%s: no byte budget or peer", name)
			continue
		}
		if p.Peer.PerWriteTest == 0 && p.MaxBytesWritten > p.Peer.Bytes {
			t.Errorf("%s: budget %d MiB above %s's %d MiB", name, p.MaxBytesWritten/MiB, p.Peer.Tool, p.Peer.Bytes/MiB)
		}
		for _, d := range []struct {
			name  string
			model DriveModel
		}{{"microSD", microSD}, {"fast", fast}} {
			e := WorstCase(p, d.model)
			if e.BytesWritten > p.MaxBytesWritten {
				t.Errorf("%s on the %s drive may write %d MiB, budget %d MiB", name, d.name, e.BytesWritten/MiB, p.MaxBytesWritten/MiB)
			}
			// A time-bounded peer writes PerWriteTest of each write test at the drive's rate:
			// iomark's tests run no longer (Validate), so they write no more.
			if pw := p.Peer.PerWriteTest; pw > 0 {
				peer := p.Peer.Bytes
				for _, tc := range p.Tests {
					if tc.Writes() {
						peer += int64(d.model.rate(tc) * pw.Seconds())
					}
				}
				if e.BytesWritten > peer {
					t.Errorf("%s on the %s drive may write %d MiB, %s %d MiB", name, d.name, e.BytesWritten/MiB, p.Peer.Tool, peer/MiB)
				}
			}
			if d.name != "fast" {
				continue
			}
			for _, tc := range p.Tests {
				if want := min(tc.MinRuns, tc.MaxRuns); tc.Writes() && e.Runs[tc.Name] < want {
					t.Errorf("%s %s on a fast drive: %d runs, want at least %d within the budget", name, tc.Name, e.Runs[tc.Name], want)
				}
			}
		}
	}
	// Without a byte budget pibenchmarks wrote 4.79 GB on a fast disk; Storage.sh writes 0.96 GB.
	if p := PiBenchmarks(); p.MaxBytesWritten > GiB {
		t.Errorf("pibenchmarks budget %d MiB, want ≤ 1 GiB", p.MaxBytesWritten/MiB)
	}
}

func TestCheckAppClass(t *testing.T) {
	tests := func(r, w, seq float64) []record.Test {
		return []record.Test{{Name: "rand-read-4k-qd1", IOPS: r, Runs: 3}, {Name: "rand-write-4k-qd1", IOPS: w, Runs: 3},
			{Name: SeqWriteSustained, MBPerS: seq, Runs: 1}}
	}
	cases := []struct {
		name    string
		class   AppClass
		tests   []record.Test
		claimed string
		want    []string
	}{
		{"meets A1, claims A1", AppClasses[0], tests(2600, 700, 20), "A1", []string{"meets A1", "reaches it"}},
		{"short of A2, claims A2", AppClasses[1], tests(2600, 700, 20), "A2", []string{"falls short of A2", "random read 2600 IOPS < 4000", "random write 700 IOPS < 2000", "does not reach it"}},
		{"slow writes, no claim", AppClasses[0], tests(2600, 700, 8), "", []string{"sustained sequential write 8.0 MB/s < 10", "claims no application performance class"}},
		{"incomplete", AppClasses[0], tests(2600, 700, 20)[:2], "A1", []string{"incomplete"}},
	}
	for _, c := range cases {
		got := strings.Join(CheckAppClass(c.class, c.tests, c.claimed), " | ")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
	}
}

func TestRampFor(t *testing.T) {
	read := Test{Pattern: engine.RandRead, Ramp: 250 * time.Millisecond}
	write := Test{Pattern: engine.Write, Ramp: 250 * time.Millisecond}
	cases := []struct {
		name     string
		t        Test
		runBytes int64
		rate     float64
		want     time.Duration
	}{
		{"reads keep their ramp", read, 32 * MiB, 2e9, 250 * time.Millisecond},
		{"slow writes keep it", write, 32 * MiB, 20e6, 250 * time.Millisecond},
		// 32 MiB / 4 at 2 GB/s is 4.2 ms: the ramp writes no more than a quarter of a run.
		{"fast writes are shortened", write, 32 * MiB, 2e9, time.Duration(float64(8*MiB) / 2e9 * float64(time.Second))},
		{"unknown rate, bounded run: none", write, 32 * MiB, 0, 0},
		{"no byte bound: the ramp", write, 0, 0, 250 * time.Millisecond},
	}
	for _, c := range cases {
		if got := RampFor(c.t, c.runBytes, c.rate); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The ramp of a write run with a byte bound is bounded by bytes too, a quarter of the run in
// whole blocks, so a run never writes more than planned however fast the drive turns out.
func TestRampBytesFor(t *testing.T) {
	write := Test{Pattern: engine.RandWrite, BlockSize: 4 * KiB, Ramp: 250 * time.Millisecond}
	cases := []struct {
		name     string
		t        Test
		runBytes int64
		want     int64
	}{
		{"a quarter of the run", write, 32 * MiB, 8 * MiB},
		{"in whole blocks", write, 10*4*KiB + 512, 8 * KiB},
		{"less than a block: no ramp", write, 8 * KiB, 0},
		{"no byte bound: time alone", write, 0, 0},
		{"reads: time alone", Test{Pattern: engine.RandRead, BlockSize: 4 * KiB, Ramp: time.Second}, 32 * MiB, 0},
		{"no ramp", Test{Pattern: engine.Write, BlockSize: MiB}, 32 * MiB, 0},
	}
	for _, c := range cases {
		if got := RampBytesFor(c.t, c.runBytes); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	// A ramp with no room for a block is left out rather than left unbounded.
	if got := RampFor(write, 8*KiB, 20e6); got != 0 {
		t.Errorf("ramp of an 8 KiB run: %v, want none", got)
	}
}
