package profile

import (
	"time"
)

// TargetCI95Pct is the precision every figure is repeated for (issue 4: "until its 95%
// confidence interval is within ±5% or its time budget is spent").
const TargetCI95Pct = 5

// The planning rules below are pure functions of the profile and what the run has used so
// far, so they are tested without I/O (plan_test.go) and the runner only applies them.

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

// RunBytes is the byte bound of one repetition (0: none): the test's own, capped at what
// the drive writes in SizeForSeconds at the layout rate, and for a write test at its share
// of the allowance — the allowance split over the warm-up and MinRuns runs, so the usual
// case fits and a noisy test stops repeating (see allowanceLeft) before it overdraws.
// The result is a whole number of blocks, at least one.
func RunBytes(t Test, layoutMBPerS float64, allowance int64) int64 {
	rb := t.RunBytes
	capAt := func(n int64) {
		if n > 0 && (rb == 0 || n < rb) {
			rb = n
		}
	}
	if t.SizeForSeconds > 0 && layoutMBPerS > 0 {
		capAt(int64(layoutMBPerS * 1e6 * t.SizeForSeconds.Seconds()))
	}
	if t.Writes() && allowance >= 0 {
		shares := int64(t.MinRuns)
		if t.WarmUp > 0 {
			shares++
		}
		capAt(max(allowance/max(shares, 1), 1))
	}
	if rb > 0 {
		bs := int64(t.BlockSize)
		rb = max(rb-rb%bs, bs)
	}
	return rb
}

// RampFor is the ramp of each run of t: t.Ramp, shortened for a write test with a byte bound
// so that it writes at most a quarter of that bound at writeRate (bytes/s; 0: unknown, then
// a write test with a byte bound gets no ramp rather than an unbounded one).
func RampFor(t Test, runBytes int64, writeRate float64) time.Duration {
	if t.Ramp <= 0 || !t.Writes() || runBytes <= 0 {
		return max(t.Ramp, 0)
	}
	if writeRate <= 0 {
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
	var e Estimate
	layoutRate := d.WriteMBPerS * 1e6
	if layoutRate > 0 && p.Tests[0].Sustained == nil {
		e.BytesWritten = p.FileBytes
		e.Duration = time.Duration(float64(p.FileBytes) / layoutRate * float64(time.Second))
	}
	sharesLeft := WriteShares(p.Tests)
	for i, t := range p.Tests {
		if i > 0 {
			e.Duration += p.RestBetweenTests
		}
		budget := TestBudget(t, p.MaxDuration, e.Duration, BudgetsFrom(p.Tests[i:]))
		if t.Sustained != nil {
			sec := min(budget, t.Sustained.MaxDuration).Seconds()
			e.Duration += time.Duration(sec * float64(time.Second))
			e.BytesWritten += min(int64(d.rate(t)*sec), t.Sustained.MaxBytes)
			continue
		}
		allowance := int64(-1)
		if t.Writes() {
			allowance = WriteAllowance(p.MaxBytesWritten, e.BytesWritten, t.WriteWeight(), sharesLeft)
			sharesLeft -= t.WriteWeight()
		}
		rb := RunBytes(t, d.WriteMBPerS, allowance)
		runSec := t.RunTime.Seconds()
		if rate := d.rate(t); rb > 0 && rate > 0 {
			runSec = min(runSec, float64(rb)/rate)
		}
		used, written := 0.0, int64(0)
		if t.WarmUp > 0 && t.MaxRuns > 1 {
			w := min(t.WarmUp.Seconds(), runSec)
			used += w
			written += int64(w * d.rate(t))
		}
		ramp := RampFor(t, rb, d.rate(t)).Seconds()
		perRun := runSec + ramp
		perRunBytes := int64(perRun * d.rate(t))
		for n := 0; n < t.MaxRuns && used+perRun <= budget.Seconds(); n++ {
			if t.Writes() && allowance >= 0 && n > 0 && written+perRunBytes > allowance {
				break
			}
			used += perRun
			written += perRunBytes
		}
		e.Duration += time.Duration(used * float64(time.Second))
		if t.Writes() {
			e.BytesWritten += written
		}
	}
	return e
}
