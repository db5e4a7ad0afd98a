package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/units"
)

// Decision is what a run may do with its target, decided once before its first I/O from
// what the target is (engine.InspectTarget: no I/O on the drive) and the flags: the same
// rules for a directory, a file and a block device, said at the start of the run, so a
// refusal never comes after minutes of measuring.
type Decision struct {
	Profile string
	Target  string
	Kind    string // engine.KindDir, KindFile or KindBlock
	// MayWrite: the write tests run. When false, ReadOnlyWhy says why and how to allow
	// writes, and Skipped names the write tests left out.
	MayWrite    bool
	ReadOnlyWhy string
	Skipped     []string
	// WorkingSetBytes is the test file laid out in a directory, or the bytes of the file or
	// device the tests use.
	WorkingSetBytes int64
	// BudgetBytes is the most the run writes (the profile's byte budget for this drive's
	// class, profile.WriteBudget; 0 when it writes nothing), BudgetWhy how a class budget
	// was set, Peer what the tool the profile mirrors writes.
	BudgetBytes int64
	BudgetWhy   string
	Peer        profile.PeerWrites
	MaxDuration time.Duration
	// TestsDuration is the most the tests take by their budgets (with the rests between
	// them), said up front when the profile has no MaxDuration; the layout comes on top.
	TestsDuration time.Duration
	// Leftovers are test files of earlier runs in the directory, removed before the layout.
	Leftovers []engine.Leftover
	// SustainedBytes is the most a sustained write covers (its file grows sparse to it).
	SustainedBytes int64
	info           engine.TargetInfo
}

// minTargetBytes is the least a file or device must hold to be measured.
const minTargetBytes = profile.MiB

// Decide decides what profile p may do on env.Target, or refuses the run: a target that does
// not exist or is not a directory, regular file or block device (engine.InspectTarget); a
// directory on a read-only filesystem or without room for the test file; --destructive on a
// block device that --confirm does not name or that is mounted or in use; a file too small
// or with holes to read when it may not be written; and a profile that only writes where
// nothing may be written.
func Decide(p profile.Profile, env Env) (*Decision, error) {
	info, err := engine.InspectTarget(env.Target)
	if err != nil {
		return nil, err
	}
	d := &Decision{Profile: p.Name, Target: env.Target, Kind: info.Kind, info: info,
		Peer: p.Peer, MaxDuration: p.MaxDuration, WorkingSetBytes: p.FileBytes}
	for _, t := range p.Tests {
		d.TestsDuration += t.Budget + p.RestBetweenTests
		if t.Sustained != nil {
			d.SustainedBytes = max(d.SustainedBytes, t.Sustained.MaxBytes)
		}
	}
	switch info.Kind {
	case engine.KindDir:
		d.MayWrite = true
		if err := d.checkRoom(p); err != nil {
			return nil, err
		}
	case engine.KindBlock:
		if env.Destructive {
			// Asked to write: anything that forbids it refuses the run, rather than reading
			// first and refusing at the first write test.
			if err := info.WriteRefusal(true, env.Confirm); err != nil {
				return nil, err
			}
			d.MayWrite = true
		} else {
			d.ReadOnlyWhy = fmt.Sprintf("%s is a block device and writing to it destroys its data (`iomark run --destructive --confirm %s` allows it; or name a directory on a filesystem of that drive)", env.Target, env.Target)
		}
		d.WorkingSetBytes = min(p.FileBytes, info.SizeBytes)
		if info.SizeBytes < minTargetBytes {
			return nil, fmt.Errorf("%s holds only %s: too small to measure", env.Target, fmtBytes(info.SizeBytes))
		}
	case engine.KindFile:
		if err := info.WriteRefusal(env.Destructive, env.Confirm); err == nil {
			d.MayWrite = true
		} else {
			d.ReadOnlyWhy = fmt.Sprintf("%s is a file iomark did not create and writing would overwrite its contents (`iomark run --destructive` allows it; or name a directory, where iomark uses a test file of its own)", env.Target)
		}
		d.WorkingSetBytes = min(p.FileBytes, info.SizeBytes)
		if d.WorkingSetBytes < minTargetBytes {
			if !d.MayWrite {
				return nil, fmt.Errorf("%s holds only %s: too small to measure without writing it — name a directory instead (iomark then lays out a test file of its own)", env.Target, fmtBytes(info.SizeBytes))
			}
			d.WorkingSetBytes = p.FileBytes // laid out by the first job
		}
		if !d.MayWrite {
			holes, err := engine.HasHoles(env.Target, d.WorkingSetBytes)
			if err != nil {
				return nil, err
			}
			if holes {
				return nil, fmt.Errorf("%s has holes (never-written ranges) in its first %s: reading them would not touch the drive — name a directory instead, or lay it out with data (`iomark run --destructive`)", env.Target, fmtBytes(d.WorkingSetBytes))
			}
		}
	}
	if !d.MayWrite {
		for _, t := range p.Tests {
			if t.Writes() {
				d.Skipped = append(d.Skipped, t.Name)
			}
		}
		if len(d.Skipped) == len(p.Tests) {
			return nil, fmt.Errorf("profile %s only writes, and %s — pick a profile with read tests (quick) or allow writing", p.Name, d.ReadOnlyWhy)
		}
	} else {
		d.SetDrive(p, env)
	}
	return d, nil
}

// SetDrive sets the write budget from the drive env describes (its probe, or the class the
// user declared): a caller that decided before probing calls it again once it has the probe.
func (d *Decision) SetDrive(p profile.Profile, env Env) {
	if !d.MayWrite {
		return
	}
	dc := profile.ClassOf(env.Probe)
	if env.Class != "" {
		dc.Class = env.Class
	}
	b := p.WriteBudget(dc)
	d.BudgetBytes, d.BudgetWhy = b.Bytes, b.Why
}

// checkRoom refuses a directory whose filesystem is read-only or has no room for the test
// file (or, for a sustained write, for its smallest useful write), leftovers of earlier runs
// counted as free since the run removes them first.
func (d *Decision) checkRoom(p profile.Profile) error {
	space, err := engine.FreeSpace(d.Target)
	if err != nil {
		return err
	}
	if space.ReadOnly {
		return fmt.Errorf("%s is on a read-only filesystem: pick a writable directory, or remount it read-write", d.Target)
	}
	d.Leftovers = space.Leftovers
	need, what := p.FileBytes, fmt.Sprintf("the %s test file", fmtBytes(p.FileBytes))
	for _, t := range p.Tests {
		if ss := t.Sustained; ss != nil && minSustainedBytes+ss.FreeMarginBytes > need {
			need = minSustainedBytes + ss.FreeMarginBytes
			what = fmt.Sprintf("a sustained write of at least %s, keeping %s free", fmtBytes(minSustainedBytes), fmtBytes(ss.FreeMarginBytes))
		}
	}
	if space.FreeBytes < need {
		hint := "free some space or test a directory on another filesystem"
		if p.Name != profile.DefaultName && p.FileBytes > profile.Quick().FileBytes {
			hint += fmt.Sprintf(", or `iomark run --profile %s` (a %s test file)", profile.DefaultName, fmtBytes(profile.Quick().FileBytes))
		}
		return fmt.Errorf("%s has %s free (keeping %s for the filesystem); %s needs %s — %s",
			d.Target, fmtBytes(max(space.FreeBytes, 0)), fmtBytes(space.MarginBytes), what, fmtBytes(need), hint)
	}
	return nil
}

// Lines says the decision for people, one sentence a line: what is measured and how, which
// tests are skipped and why, and the byte budget.
func (d *Decision) Lines() []string {
	var what string
	switch {
	case d.Kind == engine.KindDir && d.SustainedBytes > 0:
		what = fmt.Sprintf("a directory: one test file written up to %s or the free space less a margin, removed at the end", fmtBytes(d.SustainedBytes))
	case d.Kind == engine.KindDir:
		what = fmt.Sprintf("a directory: one %s test file, removed at the end", fmtBytes(d.WorkingSetBytes))
	case d.Kind == engine.KindBlock:
		what = fmt.Sprintf("a block device: its first %s", fmtBytes(d.WorkingSetBytes))
	default:
		what = fmt.Sprintf("a file: its first %s", fmtBytes(d.WorkingSetBytes))
	}
	lines := []string{fmt.Sprintf("%s on %s (%s)", d.Profile, d.Target, what)}
	if d.MayWrite {
		lines = append(lines, "read and write tests")
	} else {
		lines = append(lines, fmt.Sprintf("read tests only: %s skipped — %s", strings.Join(d.Skipped, ", "), d.ReadOnlyWhy))
	}
	lines = append(lines, d.budgetLine())
	return lines
}

func (d *Decision) budgetLine() string {
	took := ""
	switch {
	case d.MaxDuration > 0:
		took = fmt.Sprintf("takes at most %s", d.MaxDuration)
	case d.TestsDuration > 0 && d.Kind == engine.KindDir:
		took = fmt.Sprintf("its tests take at most %s, after laying out the test file", d.TestsDuration.Round(time.Second))
	case d.TestsDuration > 0:
		took = fmt.Sprintf("takes at most %s", d.TestsDuration.Round(time.Second))
	}
	if d.BudgetBytes == 0 {
		if took == "" {
			return "writes nothing"
		}
		return "writes nothing and " + took
	}
	s := fmt.Sprintf("writes at most %s (%.0f MB)", fmtBytes(d.BudgetBytes), float64(d.BudgetBytes)/1e6)
	if took != "" {
		s += " and " + took
	}
	switch pw := d.Peer; {
	case pw.Own && d.BudgetWhy != "":
		s += fmt.Sprintf(": %s (%s mirrors no tool)", d.BudgetWhy, d.Profile)
	case pw.Own:
		s += fmt.Sprintf(": %s (%s mirrors no tool)", pw.Tool, d.Profile)
	case pw.PerWriteTest > 0:
		s += fmt.Sprintf(", and never more than %s, which writes %s and %s of each write test", pw.Tool, fmtBytes(pw.Bytes), pw.PerWriteTest)
	default:
		s += fmt.Sprintf(": %s, which it mirrors, writes %s", pw.Tool, fmtBytes(pw.Bytes))
	}
	return s
}

// fmtBytes prints a byte count in binary units, as budgets are set: 512 MiB, 6 GiB.
func fmtBytes(n int64) string { return units.Binary(n) }

// plural prints a count with its noun: "1 run", "3 runs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
