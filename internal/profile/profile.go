package profile

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// Primary figures of a test, as record.Test.Primary names them.
const (
	PrimaryIOPS   = "iops"
	PrimaryMBPerS = "mb_per_s"
)

// Size units, for the tables.
const (
	KiB = 1 << 10
	MiB = 1 << 20
	GiB = 1 << 30
)

// Profile is a named set of tests with its budgets. Profiles are data: see quick.go,
// pibenchmarks.go, sbcreviews.go, cdm.go, sustained.go and sdclass.go.
type Profile struct {
	Name  string
	Title string // one line for help texts
	// Source says where the workloads come from (a peer script, a spec), for docs.
	Source string
	// FileBytes is the size of the one test file laid out for a directory target (and the
	// working set on a block device). Tests may use a smaller region of it.
	FileBytes int64
	// MaxDuration bounds the whole run, layout included; 0 is no bound beyond the tests'.
	MaxDuration time.Duration
	// MaxBytesWritten bounds what the run writes, layout included (its byte budget, printed
	// at the start of every run). Write tests share what the layout leaves, each repetition
	// capped so the sum stays inside; on a drive fast enough for bytes rather than time to
	// bound a test, its runs are shortened so several still fit (RunBytes).
	MaxBytesWritten int64
	// ClassBudget: MaxBytesWritten is the budget of flash and of drives iomark cannot tell,
	// and SSDs and hard disks may write more (WriteBudget, budget.go).
	ClassBudget bool
	// Peer is what the tool the profile mirrors writes: MaxBytesWritten is at most its
	// Bytes, or for a time-bounded peer each write test runs at most its PerWriteTest.
	Peer PeerWrites
	// RestBetweenTests is an idle pause before each test after the first (CDM's interval).
	RestBetweenTests time.Duration
	Tests            []Test
	// Score computes the profile's scores from its measured tests (nil: none). It must
	// not panic on missing tests: an interrupted run scores what it has, or nothing.
	Score func(tests []record.Test) record.Scores
	// Check compares the figures with a class the drive claims (a1, a2), as the probe of the
	// target (may be nil) reports it; nil: none.
	Check func(tests []record.Test, rep *probe.Report) []record.Warning
}

// Test is one figure of a profile: an engine job shape and how to repeat it.
type Test struct {
	Name  string // stable across versions, e.g. rand-read-4k-qd32 (docs/methodology.md)
	Label string // as the peer prints it, e.g. "RND4K Q32T1", "dd bs=4k conv=fsync"
	Peer  string // the peer command or spec clause it mirrors, for docs and reports

	Pattern   engine.Pattern
	BlockSize int
	QD, Jobs  int
	Engine    engine.Engine // "" is auto
	// Buffered runs through the page cache, as dd and hdparm do; otherwise O_DIRECT.
	Buffered bool
	// DropCache evicts the target's page cache before each run (hdparm -t, dd).
	DropCache bool
	// DeviceRead reads the whole disk the target lives on (probe's device) when it can be
	// opened, as hdparm -t reads its device; else the test file. Read-only tests only.
	DeviceRead bool
	// EndFsync fsyncs once after the last write and counts it in the time (dd conv=fsync,
	// iozone -e).
	EndFsync bool
	Primary  string // PrimaryIOPS or PrimaryMBPerS

	// RunTime bounds one repetition; RunBytes bounds it by size too (0: none).
	RunTime  time.Duration
	RunBytes int64
	// MinRunTime is the shortest a write run is made to fit the byte budget on a fast drive
	// (0: runs may be shortened to any length): while one run that long still fits, the test
	// gets fewer runs rather than shorter ones.
	MinRunTime time.Duration
	// SizeForSeconds, when set, caps RunBytes at what the drive writes in that long at the
	// rate seen while laying out the test file: a size-bound peer test (dd count=) then takes
	// seconds, not an hour, on a slow card.
	SizeForSeconds time.Duration
	// WarmUp is a discarded run before the measured ones (0: none).
	WarmUp time.Duration
	// Ramp is the discarded head of every measured run (engine ramp, 0: none): the queue
	// fills and any burst credit (a drive's, or blk-throttle's slice on emulated drives) is
	// spent before the clock starts. For a write test it is shortened so that it writes at
	// most a quarter of the run's byte bound at the rate the warm-up showed.
	Ramp time.Duration
	// RegionBytes limits I/O to the first bytes of the test file (0: all of it), e.g. the
	// 80 MiB file of Storage.sh's fio and iozone lines.
	RegionBytes int64

	// Budget is the time for the warm-up and every repetition; MinRuns/MaxRuns bound the
	// count (stats.StopRule). MaxRuns 1 measures once (a peer test that is one long pass).
	Budget           time.Duration
	MinRuns, MaxRuns int

	// WriteShare weighs this test's part of the profile's write budget against the other
	// write tests' (0 counts as 1): a sequential write moves far more bytes in its time than
	// a 4 KiB random one.
	WriteShare int

	// Sustained, when set, makes this one long write sampled every second (see sustained.go).
	Sustained *SustainedSpec
}

// Writes reports whether the test writes.
func (t Test) Writes() bool { return t.Pattern.Writes() }

// WriteWeight is the test's weight in the profile's write budget: WriteShare, at least 1.
func (t Test) WriteWeight() int { return max(t.WriteShare, 1) }

// registry holds every profile by name; each profile file adds its own in init-free form
// through the all() list below, so the set is visible in one place.
func all() []*Profile {
	return []*Profile{Quick(), PiBenchmarks(), SBCReviews(), CDM(), CDMNVMe(), CDMFlash(), Sustained(), A1(), A2()}
}

// DefaultName is the profile `iomark run` uses without --profile.
const DefaultName = "quick"

// Names lists the profile names in the order help texts show them.
func Names() []string {
	ps := all()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}

// ByName returns the named profile, or an error listing the known ones.
func ByName(name string) (*Profile, error) {
	for _, p := range all() {
		if p.Name == name {
			return p, nil
		}
	}
	names := Names()
	sort.Strings(names)
	return nil, fmt.Errorf("unknown profile %q: use one of %s", name, strings.Join(names, ", "))
}

// Validate checks a profile's tables: names unique, shapes valid, budgets set. The tests
// run it over every profile, so a bad table fails the build, not a user's run.
func (p *Profile) Validate() error {
	if p.Name == "" || len(p.Tests) == 0 {
		return fmt.Errorf("profile %q has no name or no tests", p.Name)
	}
	if p.FileBytes < MiB {
		return fmt.Errorf("profile %s: file size %d below 1 MiB", p.Name, p.FileBytes)
	}
	seen := map[string]bool{}
	for _, t := range p.Tests {
		if seen[t.Name] {
			return fmt.Errorf("profile %s: test %s twice", p.Name, t.Name)
		}
		seen[t.Name] = true
		if !validName(t.Name) {
			return fmt.Errorf("profile %s: test name %q: use lower-case words joined by '-'", p.Name, t.Name)
		}
		s := engine.Spec{Target: "x", Pattern: t.Pattern, BlockSize: t.BlockSize, QD: t.QD, Jobs: t.Jobs,
			Engine: t.Engine, Runtime: t.RunTime, IOBudgetBytes: t.RunBytes}
		if err := s.Validate(); err != nil {
			return fmt.Errorf("profile %s, test %s: %w", p.Name, t.Name, err)
		}
		if t.Primary != PrimaryIOPS && t.Primary != PrimaryMBPerS {
			return fmt.Errorf("profile %s, test %s: primary %q", p.Name, t.Name, t.Primary)
		}
		if t.RunTime <= 0 || t.Budget < t.RunTime {
			return fmt.Errorf("profile %s, test %s: run time %v must be set and within the budget %v", p.Name, t.Name, t.RunTime, t.Budget)
		}
		if t.MaxRuns < 1 || t.MinRuns < 1 || t.MinRuns > t.MaxRuns {
			return fmt.Errorf("profile %s, test %s: runs %d..%d", p.Name, t.Name, t.MinRuns, t.MaxRuns)
		}
		if t.DeviceRead && t.Writes() {
			return fmt.Errorf("profile %s, test %s: a device read cannot write", p.Name, t.Name)
		}
		if t.RegionBytes > p.FileBytes {
			return fmt.Errorf("profile %s, test %s: region larger than the test file", p.Name, t.Name)
		}
		if pw := p.Peer.PerWriteTest; pw > 0 && t.Writes() && t.Budget > pw {
			return fmt.Errorf("profile %s, test %s: a budget of %v writes longer than %s's %v per write test", p.Name, t.Name, t.Budget, p.Peer.Tool, pw)
		}
	}
	switch {
	case p.MaxBytesWritten <= 0 || p.Peer.Tool == "" || p.Peer.Bytes <= 0:
		return fmt.Errorf("profile %s has no byte budget or no peer to bound it", p.Name)
	case p.Peer.PerWriteTest == 0 && p.MaxBytesWritten > p.Peer.Bytes:
		return fmt.Errorf("profile %s may write %s, more than %s's %s", p.Name, engine.FormatSize(p.MaxBytesWritten), p.Peer.Tool, engine.FormatSize(p.Peer.Bytes))
	case p.FileBytes > p.Peer.Bytes:
		return fmt.Errorf("profile %s lays out %s, more than %s writes in all", p.Name, engine.FormatSize(p.FileBytes), p.Peer.Tool)
	}
	return nil
}

func validName(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
