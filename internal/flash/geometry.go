package flash

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// GeometryOptions configures EstimateEraseBlock.
type GeometryOptions struct {
	SizeBytes int64
	// ReadBytes is the size of each timed read (default 8 KiB; flashbench's default is 16
	// KiB). Candidate sizes start at twice it: smaller boundaries would fall inside the
	// reads that time "before" and "after".
	ReadBytes int
	// Boundaries is how many boundaries of each candidate size are timed (default 16), and
	// Rounds how often each read is repeated, the fastest kept (default 6).
	Boundaries, Rounds int
	// Registers are what the device's registers say the erase unit is, to compare with.
	Registers []RegisterHint
	Progress  func(Progress)
	// Now is the clock reads are timed with (tests give a virtual one); nil is time.Now.
	Now func() time.Time
	// Seed picks the boundaries; 0 is random.
	Seed uint64
}

// RegisterHint is one register's word on the erase unit.
type RegisterHint struct {
	Name  string `json:"name"` // e.g. "SD AU_SIZE (SSR)", "preferred_erase_size (sysfs)"
	Bytes int64  `json:"bytes"`
	// Agrees is set in the result: the estimate equals it.
	Agrees *bool `json:"agrees,omitempty"`
}

// Geometry is the erase block estimate.
type Geometry struct {
	// EraseBlockBytes is the estimate; 0 when unknown.
	EraseBlockBytes int64 `json:"erase_block_bytes,omitempty"`
	// Confidence is "high", "medium" or "unknown" (no clear boundary effect: the estimate is
	// left out rather than guessed).
	Confidence string `json:"confidence"`
	// StepUS is the extra time a read across a boundary of the estimated size takes, and
	// NoiseUS the standard error it is judged against.
	StepUS     float64        `json:"step_us,omitempty"`
	NoiseUS    float64        `json:"noise_us"`
	Candidates []AlignTiming  `json:"candidates"`
	Registers  []RegisterHint `json:"registers,omitempty"`
	ReadBytes  int            `json:"read_bytes"`
	BytesRead  int64          `json:"bytes_read"`
	DurationS  float64        `json:"duration_s"`
	Reason     string         `json:"reason,omitempty"` // why unknown, or what backs the estimate
}

// AlignTiming is flashbench -a's line for one candidate size: median read times just
// before a boundary of that size (pre), across it (on) and just after it (post), and
// on - (pre+post)/2: what crossing costs.
type AlignTiming struct {
	AlignBytes int64   `json:"align_bytes"`
	PreUS      float64 `json:"pre_us"`
	OnUS       float64 `json:"on_us"`
	PostUS     float64 `json:"post_us"`
	DiffUS     float64 `json:"diff_us"`
	// SEUS is the standard error of DiffUS across the boundaries timed.
	SEUS float64 `json:"se_us"`
}

const (
	minAlignBytes = 16 << 10
	maxAlignBytes = 128 << 20 // measured; estimates above 64 MiB are not reported
	maxEraseBytes = 64 << 20
	// minDeviceAlign is the largest candidate a device must hold four odd multiples of.
	minDeviceAlign = 8 << 20
)

// EstimateEraseBlock times reads that straddle power-of-two boundaries from 16 KiB up
// against reads just before and after them (flashbench's -a test) and finds the smallest
// size from which every boundary costs extra: the erase block (allocation unit). It only
// reads. See docs/verify.md for how confidence is decided.
func EstimateEraseBlock(ctx context.Context, dev Device, o GeometryOptions) (*Geometry, error) {
	start := time.Now()
	now := o.Now
	if now == nil {
		now = time.Now
	}
	rb := o.ReadBytes
	if rb <= 0 {
		rb = 8 << 10
	}
	if rb < SectorBytes || rb%SectorBytes != 0 || rb > minAlignBytes/2 {
		return nil, fmt.Errorf("timed reads of %d bytes: use a multiple of 512 up to %d", rb, minAlignBytes/2)
	}
	nb, rounds := o.Boundaries, o.Rounds
	if nb <= 0 {
		nb = 16
	}
	if rounds <= 0 {
		rounds = 6
	}
	seed := o.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))

	// Candidates: every power of two from 16 KiB with at least four odd multiples inside.
	// The smallest is the baseline: an erase block is found from 32 KiB up.
	var aligns []int64
	for a := int64(minAlignBytes); a <= maxAlignBytes && 4*a <= o.SizeBytes; a *= 2 {
		aligns = append(aligns, a)
	}
	if aligns[len(aligns)-1] < minDeviceAlign {
		return nil, fmt.Errorf("the device holds %s: too small to time boundaries up to %s (it needs %s)", sizeText(o.SizeBytes), sizeText(minDeviceAlign), sizeText(4*minDeviceAlign))
	}
	bounds, reads := boundaryReads(aligns, o.SizeBytes, rb, nb, rng)
	g := &Geometry{ReadBytes: rb}
	best, err := timeReads(ctx, dev, g, bounds, reads, rounds, rng, now, o.Progress)
	if err != nil {
		return nil, err
	}
	for ai, a := range aligns {
		g.Candidates = append(g.Candidates, alignTiming(a, best[ai]))
	}
	judge(g)
	for i := range o.Registers {
		h := o.Registers[i]
		if g.EraseBlockBytes > 0 && h.Bytes > 0 {
			agrees := h.Bytes == g.EraseBlockBytes
			h.Agrees = &agrees
		}
		g.Registers = append(g.Registers, h)
	}
	g.DurationS = time.Since(start).Seconds()
	return g, nil
}

// boundaryRead is one timed read at boundary bi of candidate ai: just before it (kind 0),
// across it (1) or just after it (2).
type boundaryRead struct {
	ai, bi, kind int
	off          int64
}

// boundaryReads picks up to nb boundaries of each candidate in a device of size bytes, at
// random, and the three reads of rb bytes that time each. Boundaries lie at odd multiples of
// a: multiples of a but not of 2a, so a larger unit's boundary never stands in for this one's.
func boundaryReads(aligns []int64, size int64, rb, nb int, rng *rand.Rand) (bounds [][]int64, reads []boundaryRead) {
	bounds = make([][]int64, len(aligns))
	for ai, a := range aligns {
		odd := (size - int64(rb)) / (2 * a) // odd multiples (2k+1)a below size-rb
		seen := map[int64]bool{}
		for len(bounds[ai]) < nb && len(seen) < int(min(odd, int64(nb)*4)) {
			k := rng.Int64N(max(odd, 1))
			if seen[k] {
				continue
			}
			seen[k] = true
			b := (2*k + 1) * a
			if b-int64(rb) < 0 || b+int64(rb) > size {
				continue
			}
			bi := len(bounds[ai])
			bounds[ai] = append(bounds[ai], b)
			for kind, off := range []int64{b - int64(rb), b - int64(rb)/2, b} {
				reads = append(reads, boundaryRead{ai, bi, kind, off})
			}
		}
	}
	return bounds, reads
}

// timeReads runs every read once a round, rounds times, in a fresh random order each round
// (neither load nor a read-ahead in the drive lines up with one kind of read), and returns
// best[ai][bi][kind], the fastest of the rounds in µs; g counts the bytes read.
func timeReads(ctx context.Context, dev Device, g *Geometry, bounds [][]int64, reads []boundaryRead, rounds int,
	rng *rand.Rand, now func() time.Time, progress func(Progress)) ([][][3]float64, error) {
	best := make([][][3]float64, len(bounds))
	for ai := range bounds {
		best[ai] = make([][3]float64, len(bounds[ai]))
		for bi := range best[ai] {
			best[ai][bi] = [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
		}
	}
	buf := alignedBuf(g.ReadBytes)
	total := int64(len(reads) * rounds)
	for r := 0; r < rounds; r++ {
		rng.Shuffle(len(reads), func(i, j int) { reads[i], reads[j] = reads[j], reads[i] })
		for i, rd := range reads {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t0 := now()
			n, err := dev.ReadAt(buf, rd.off)
			us := float64(now().Sub(t0)) / 1e3
			g.BytesRead += int64(n)
			if err != nil {
				return nil, fmt.Errorf("reading %d bytes at %d: %w", g.ReadBytes, rd.off, err)
			}
			if p := &best[rd.ai][rd.bi][rd.kind]; us < *p {
				*p = us
			}
			if progress != nil && i%64 == 0 {
				progress(Progress{Phase: "geometry", Done: int64(r*len(reads) + i), Total: total})
			}
		}
	}
	return best, nil
}

// alignTiming is candidate a's line from the fastest times of its boundaries: the medians
// of each kind, and of the crossing costs with their standard error.
func alignTiming(a int64, best [][3]float64) AlignTiming {
	var pre, on, post, diff []float64
	for _, t := range best {
		pre, on, post = append(pre, t[0]), append(on, t[1]), append(post, t[2])
		diff = append(diff, t[1]-(t[0]+t[2])/2)
	}
	at := AlignTiming{AlignBytes: a, PreUS: median(pre), OnUS: median(on), PostUS: median(post)}
	at.DiffUS = median(diff)
	at.SEUS = medianSE(diff)
	return at
}

// judge finds the step in the diffs: the split of the candidates into smaller ones that
// cost nothing extra and larger ones that cost a penalty, with the largest gap between the
// two levels relative to the noise. It takes the estimate only when that gap is clear (at
// least 6 standard errors, and half the upper level: a step, not a slope) and every
// candidate sits on its side of the midpoint; otherwise "unknown".
func judge(g *Geometry) {
	c := g.Candidates
	var ses []float64
	for _, a := range c {
		ses = append(ses, a.SEUS)
	}
	noise := median(ses)
	g.NoiseUS = noise
	bestK, bestScore, bestStep := -1, 0.0, 0.0
	for k := 1; k < len(c); k++ {
		// The top candidate is measured only to confirm the one below it.
		if c[k].AlignBytes > maxEraseBytes || len(c)-k < 2 {
			break
		}
		lo, hi := meanDiff(c[:k]), meanDiff(c[k:])
		step := hi - lo
		if step <= 0 {
			continue
		}
		score := step / math.Max(noise, 1e-9)
		mid := (lo + hi) / 2
		clean := true
		for i, a := range c {
			if (i < k) != (a.DiffUS < mid) {
				clean = false
			}
		}
		if clean && score > bestScore {
			bestK, bestScore, bestStep = k, score, step
		}
	}
	switch {
	case bestK < 0:
		g.Confidence, g.Reason = "unknown", "no size from which every boundary costs extra"
		return
	case bestScore < 6:
		g.Confidence, g.Reason = "unknown", fmt.Sprintf("the largest step (%.0f µs at %s) is within %.1f standard errors of the noise", bestStep, sizeText(c[bestK].AlignBytes), bestScore)
		return
	case bestStep < 0.5*meanDiff(c[bestK:]):
		g.Confidence, g.Reason = "unknown", "the cost grows with the size instead of stepping up at one"
		return
	}
	g.EraseBlockBytes, g.StepUS = c[bestK].AlignBytes, bestStep
	g.Confidence = "medium"
	if bestScore >= 12 {
		g.Confidence = "high"
	}
	g.Reason = fmt.Sprintf("reads across a %s boundary cost %.0f µs more (%.0f standard errors), across smaller ones nothing comparable", sizeText(g.EraseBlockBytes), bestStep, bestScore)
}

func meanDiff(c []AlignTiming) float64 {
	var s float64
	for _, a := range c {
		s += a.DiffUS
	}
	return s / float64(len(c))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianSE estimates the standard error of a median from the median absolute deviation
// (1.4826 × MAD estimates σ for normal data; the median's SE is about 1.253 σ/√n).
func medianSE(v []float64) float64 {
	if len(v) < 2 {
		return math.Inf(1)
	}
	m := median(v)
	dev := make([]float64, len(v))
	for i, x := range v {
		dev[i] = math.Abs(x - m)
	}
	return 1.253 * 1.4826 * median(dev) / math.Sqrt(float64(len(v)))
}
