package profile

import (
	"time"
)

// TargetCI95Pct is the precision every figure is repeated for: until its 95% confidence
// interval is within ±5% or its time budget is spent.
const TargetCI95Pct = 5

// The planning rules below are pure functions of the profile and what the run has used so
// far, so they are tested without I/O (profile_test.go: TestTestBudget, TestWriteAllowanceAndRunBytes,
// TestRampFor, TestRampBytesFor) and the runner only applies them.

// TestBudget is the time test t may use: its own budget, shrunk so that the tests left
// (this one included, their budgets summing to budgetsLeft) share what remains of the
// profile's MaxDuration in proportion to their budgets. A test that finishes early leaves
// its time to the ones after it.
func TestBudget(t Test, maxDuration, elapsed, budgetsLeft time.Duration) time.Duration {
	b := t.Budget
	if maxDuration > 0 && budgetsLeft > 0 {
		share := time.Duration(float64(maxDuration-elapsed) * float64(t.Budget) / float64(budgetsLeft))
		b = min(b, share)
	}
	return max(b, 0)
}

// BudgetsFrom sums the budgets of ts.
func BudgetsFrom(ts []Test) time.Duration {
	var d time.Duration
	for _, t := range ts {
		d += t.Budget
	}
	return d
}

// WriteAllowance is what a write test may write: the profile's write budget left after what
// was written so far, shared by the write tests left (this one included) in proportion to
// their WriteShare. -1 means no bound.
func WriteAllowance(maxBytes, written int64, share, sharesLeft int) int64 {
	if maxBytes <= 0 {
		return -1
	}
	left := maxBytes - written
	if left <= 0 || sharesLeft <= 0 {
		return 0
	}
	return left / int64(sharesLeft) * int64(share)
}

// WriteShares sums the WriteShare of the write tests in ts.
func WriteShares(ts []Test) int {
	n := 0
	for _, t := range ts {
		if t.Writes() {
			n += t.WriteWeight()
		}
	}
	return n
}

// fastDriveRuns is how many measured runs a write test's byte allowance is planned for when
// the drive writes faster than full-length runs fit it: six runs give a distribution-free 95%
// interval of the median (docs/statistics.md), and three that agree still end the test
// early, leaving their bytes to the tests after it.
const fastDriveRuns = 6

// rampShare is the most a run's ramp adds to its bytes (RampFor: a quarter of the run).
const rampShare = 0.25

// RunState is what a test's next run is planned from.
type RunState struct {
	// LayoutMBPerS is the rate the test file was laid out at (0: none), which sizes a
	// size-bound peer test (SizeForSeconds).
	LayoutMBPerS float64
	// WriteRate is the best estimate of the rate this test writes at, in bytes/s: the
	// layout's before the test starts, then its warm-up's and its last run's (0: unknown).
	WriteRate float64
	// Allowance is what the test may still write (-1: no bound).
	Allowance int64
	// WarmUp: the warm-up is still to come. RunsDone counts the measured runs already made.
	WarmUp   bool
	RunsDone int
}

// RunBytes is the byte bound of the next repetition of t (0: none): the test's own, capped at
// what the drive writes in SizeForSeconds at the layout rate, and for a write test with an
// allowance (≥ 0) capped so that its planned runs still to come fit what is left, with their
// ramps and, before it, the warm-up (one run's bytes at most):
//
//   - when MinRuns full-length runs (RunTime at the write rate, plus ramps) and the warm-up
//     fit the allowance, time bounds the test, and the cap (the allowance over the MinRuns
//     runs left and the warm-up) leaves full-length runs alone;
//   - otherwise, or when the rate is unknown, the drive is fast enough for bytes to bound the
//     test, and its runs are shortened so that fastDriveRuns of them (within MinRuns and
//     MaxRuns) fit: several shorter runs and an interval, rather than one long run.
//
// The runner plans again after the warm-up and after each run, at the rate just measured, so
// a ramp longer than estimated shortens the runs left rather than their number. The result is
// a whole number of blocks, at least one.
func RunBytes(t Test, s RunState) int64 {
	rb := t.RunBytes
	capAt := func(n int64) {
		if n > 0 && (rb == 0 || n < rb) {
			rb = n
		}
	}
	if t.SizeForSeconds > 0 && s.LayoutMBPerS > 0 {
		capAt(int64(s.LayoutMBPerS * 1e6 * t.SizeForSeconds.Seconds()))
	}
	if t.Writes() && s.Allowance >= 0 {
		warm, ramp := 0.0, 0.0
		if s.WarmUp {
			warm = 1
		}
		if t.Ramp > 0 {
			ramp = rampShare
		}
		runs := t.MinRuns
		if !timeBound(t, rb, s) {
			runs = min(max(fastDriveRuns, t.MinRuns), t.MaxRuns)
		}
		left := max(runs-s.RunsDone, 1)
		share := int64(float64(s.Allowance) / (warm + float64(left)*(1+ramp)))
		if t.MinRunTime > 0 && s.WriteRate > 0 {
			// Never shorter than MinRunTime while one such run (and the warm-up) still fits:
			// fewer runs of a stable length rather than more too short to average anything.
			// When not even one fits, several short runs at least give an interval.
			floor := s.WriteRate * t.MinRunTime.Seconds()
			warmBytes := 0.0
			if s.WarmUp {
				warmBytes = min(s.WriteRate*t.WarmUp.Seconds(), floor)
			}
			if floor*(1+ramp)+warmBytes <= float64(s.Allowance) {
				share = max(share, int64(floor))
			}
		}
		capAt(max(share, 1))
	}
	if rb > 0 {
		bs := int64(t.BlockSize)
		rb = max(rb-rb%bs, bs)
	}
	return rb
}

// timeBound reports whether the MinRuns full-length runs of write test t still to come (each
// RunTime at s.WriteRate bytes/s, or runBytes when that is less, plus its ramp) and its
// warm-up fit the allowance: the drive is then slow enough that time, not bytes, bounds it.
func timeBound(t Test, runBytes int64, s RunState) bool {
	if s.WriteRate <= 0 {
		return false
	}
	full := s.WriteRate * t.RunTime.Seconds()
	if runBytes > 0 {
		full = min(full, float64(runBytes))
	}
	need := float64(max(t.MinRuns-s.RunsDone, 1)) * (full + min(s.WriteRate*t.Ramp.Seconds(), full*rampShare))
	if s.WarmUp {
		need += min(s.WriteRate*t.WarmUp.Seconds(), full)
	}
	return need <= float64(s.Allowance)
}

// RampBytesFor is the byte bound of each run's ramp of write test t when its runs are
// bounded to runBytes: a quarter of them (rampShare), in whole blocks, so a run writes at most
// 1.25 × runBytes however fast the drive is (the engine ends the ramp when they are spent,
// engine.Spec.RampBytes). 0 for a read test or a run without a byte bound: its ramp is
// bounded by time alone.
func RampBytesFor(t Test, runBytes int64) int64 {
	if t.Ramp <= 0 || !t.Writes() || runBytes <= 0 {
		return 0
	}
	b := int64(float64(runBytes) * rampShare)
	if bs := int64(t.BlockSize); bs > 0 {
		b -= b % bs
	}
	return b
}

// RampFor is the ramp of each run of t: t.Ramp, shortened for a write test with a byte bound
// so that it writes at most a quarter of that bound at writeRate (bytes/s; 0: unknown, then
// a write test with a byte bound gets no ramp rather than an unbounded one, as it does when a
// quarter of the bound is less than a block). RampBytesFor bounds the ramp's bytes too,
// whatever the rate turns out to be.
func RampFor(t Test, runBytes int64, writeRate float64) time.Duration {
	if t.Ramp <= 0 || !t.Writes() || runBytes <= 0 {
		return max(t.Ramp, 0)
	}
	if writeRate <= 0 || RampBytesFor(t, runBytes) == 0 {
		return 0
	}
	return min(t.Ramp, time.Duration(float64(runBytes)/4/writeRate*float64(time.Second)))
}

// DriveModel is a drive reduced to its four limits, for estimates.
type DriveModel struct {
	ReadMBPerS, WriteMBPerS float64 // 10^6 bytes/s
	ReadIOPS, WriteIOPS     float64
}

// Estimate is the worst case of a profile on a drive: the most time and the most bytes
// written the runner's rules allow, layout included.
type Estimate struct {
	Duration     time.Duration
	BytesWritten int64
	// Runs is how many measured runs each test gets, by name.
	Runs map[string]int
}

// rate is how fast the model drive moves bytes for test t: the lower of its bandwidth and
// IOPS limits at t's block size.
func (d DriveModel) rate(t Test) float64 {
	mbps, iops := d.ReadMBPerS, d.ReadIOPS
	if t.Writes() {
		mbps, iops = d.WriteMBPerS, d.WriteIOPS
	}
	bw := mbps * 1e6
	if iops > 0 {
		bw = min(bw, iops*float64(t.BlockSize))
	}
	return bw
}

// WorstCase applies the runner's budget rules to a model drive, assuming every test uses its
// whole time budget (each run lasting RunTime or until its byte bound) — the bound a user
// is promised, not the usual run, which stops once the interval is tight.
func WorstCase(p *Profile, d DriveModel) Estimate {
	e := Estimate{Runs: map[string]int{}}
	layoutRate := d.WriteMBPerS * 1e6
	if layoutRate > 0 && p.Tests[0].Sustained == nil {
		e.BytesWritten = p.FileBytes
		e.Duration = time.Duration(float64(p.FileBytes) / layoutRate * float64(time.Second))
	}
	sharesLeft := WriteShares(p.Tests)
	fileBytes := p.FileBytes
	for i, t := range p.Tests {
		if i > 0 {
			e.Duration += p.RestBetweenTests
		}
		budget := TestBudget(t, p.MaxDuration, e.Duration, BudgetsFrom(p.Tests[i:]))
		if t.Sustained != nil {
			sec := min(budget, t.Sustained.MaxDuration).Seconds()
			e.Duration += time.Duration(sec * float64(time.Second))
			e.BytesWritten += min(int64(d.rate(t)*sec), t.Sustained.MaxBytes, max(p.MaxBytesWritten-e.BytesWritten, 0))
			e.Runs[t.Name] = 1
			continue
		}
		allowance := int64(-1)
		if t.Writes() {
			allowance = WriteAllowance(p.MaxBytesWritten, e.BytesWritten, t.WriteWeight(), sharesLeft)
			sharesLeft -= t.WriteWeight()
		}
		rate := d.rate(t)
		warmUp := t.WarmUp > 0 && t.MaxRuns > 1
		rb := RunBytes(t, RunState{LayoutMBPerS: d.WriteMBPerS, WriteRate: rate, Allowance: allowance, WarmUp: warmUp})
		if grow := rb - fileBytes; t.Buffered && t.Writes() && grow > 0 {
			// As the runner does: a buffered write gets room of its own, laid out first.
			if allowance >= 0 && grow >= allowance {
				rb = fileBytes
			} else {
				e.BytesWritten += grow
				allowance = max(allowance-grow, -1)
				fileBytes = rb
			}
		}
		runSec := func(rb int64) float64 {
			s := t.RunTime.Seconds()
			if rb > 0 && rate > 0 {
				s = min(s, float64(rb)/rate)
			}
			return s
		}
		used, written := 0.0, int64(0)
		if warmUp {
			w := min(t.WarmUp.Seconds(), runSec(rb))
			used += w
			written += int64(w * rate)
			if t.Writes() && allowance >= 0 && !t.Buffered {
				// As the runner does: the runs are planned again at the warm-up's rate.
				rb = RunBytes(t, RunState{LayoutMBPerS: d.WriteMBPerS, WriteRate: rate, Allowance: max(allowance-written, 0)})
			}
		}
		ramp := RampFor(t, rb, rate).Seconds()
		perRun := runSec(rb) + ramp
		perRunBytes := int64(perRun * rate)
		for n := 1; ; n++ {
			used += perRun
			written += perRunBytes
			e.Runs[t.Name] = n
			if n >= t.MaxRuns || used+perRun > budget.Seconds() {
				break
			}
			if t.Writes() && allowance >= 0 && written+perRunBytes > allowance {
				break
			}
		}
		e.Duration += time.Duration(used * float64(time.Second))
		if t.Writes() {
			e.BytesWritten += written
		}
	}
	return e
}
