package flash

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// ProbeOptions configures Probe.
type ProbeOptions struct {
	// SizeBytes is the size the device claims (BLKGETSIZE64).
	SizeBytes int64
	// LogicalBlockBytes is the device's addressing unit (BLKSSZGET); 0 means 512.
	LogicalBlockBytes int
	// Destructive skips saving and restoring what the probe overwrites.
	Destructive bool
	// MaxFlushBytes bounds what the probe writes to push its blocks out of a cache in the
	// drive before trusting a read-back: on a drive that looks genuine it writes this much
	// before the final read-back. 0 means DefaultMaxFlushBytes. Drives caching more than this
	// can fool the probe (docs/verify.md).
	MaxFlushBytes int64
	// Nonce marks this run's stamps; 0 picks a random one.
	Nonce uint64
	// Progress, if set, is called as the probe moves on.
	Progress func(Progress)
	// Journal is the write-ahead journal (a path that does not exist yet, on another drive):
	// every block's original content is appended there and synced before the probe writes
	// over it, so `iomark verify --restore` puts everything back after a crash, kill -9 or
	// power loss. It is removed once the probe's own restore is done and checked. "" keeps
	// the copies in memory only.
	Journal string
	// Identity names the disk in the journal (its serial number's hash and size), so a
	// restore can refuse another disk; Device is its kernel name, for messages.
	Identity, Device string
}

// Progress is a step of a running verify.
type Progress struct {
	Phase   string // "prepare", "probe", "flush", "confirm", "restore", "write", "read", "geometry"
	Message string
	// Done and Total count bytes (fill, full scan) or steps (probe); Total 0 when unknown.
	Done, Total int64
	// WrittenBytes is what the probe wrote so far, its restore included.
	WrittenBytes int64
}

// DefaultMaxFlushBytes is the default of ProbeOptions.MaxFlushBytes: 128 MiB, 32 times the
// largest write cache of a fake card reported so far (f3's notes: 8 KiB for random writes,
// 4 MiB for sequential ones), about 7 s of writing on a 20 MB/s card, and the most memory
// the probe's saved copies take.
const DefaultMaxFlushBytes = 128 << 20

// MinProbeBytes is the smallest device the probe accepts.
const MinProbeBytes = 1 << 20

// probeBlockBytes is the probe's unit: every size it reports is exact to it.
const probeBlockBytes = 4096

// Blocks per refining round: each round cuts the interval holding the last good byte by
// this factor. With no flush between write and read-back a round costs its blocks (save,
// write, read back: three I/Os each) and the known-bad block's rewrite (two), so 4 blocks a
// round need the fewest I/Os (9 rounds, ~130 I/Os from 500 MB to 4 KiB, against ~250 with
// 16); once the drive's cache must be flushed every round, rounds are large so the flush is
// paid fewer times.
const (
	refineSamples        = 4
	refineSamplesFlushed = 256
)

// quickSamples is how many blocks the first look writes.
const quickSamples = 64

// ErrInterrupted is returned (wrapped) when the caller's context ended the probe.
var ErrInterrupted = errors.New("interrupted")

// sample is one block the probe wrote.
type sample struct {
	off     int64
	gen     uint32 // generation of its latest write
	written bool
	bad     bool
	kind    string      // failure kind when bad
	seen    SectorState // what a dropped block read back as
	stale   bool        // it read back as it was before the run
}

type prober struct {
	io    *blockIO
	o     ProbeOptions
	ctx   context.Context
	size  int64 // claimed size rounded down to the block
	block int64
	nonce uint64
	j     *journal

	samples map[int64]*sample
	gen     uint32

	// The watch region [0, watchEnd) is never written as such: a stamp of this run found
	// there for another address was written through an address past a wrap. It is read when
	// a wrap could hide: the full survey, and refining rounds after it.
	watchEnd     int64
	watchScanned bool
	needWatch    bool
	headOK       map[int64]bool // head blocks that read fine before the first write
	unreadable   []Region

	// wrapBytes is the smallest distance seen between an address and the place its write
	// landed; 0 until a wrap is seen.
	wrapBytes int64

	lastWatch            int64 // watch end of the latest round
	flushStart, flushEnd int64 // the region rewritten to push blocks out of the drive's cache
	flushCursor          int64
	roundFlush           int64 // flushed after every round's writes: twice the cache seen
	maxFlush             int64
	cacheBytes           int64

	step  int64
	notes []string
}

// Probe checks a block device's capacity without writing it whole: see the package doc and
// docs/verify.md for the method. It returns a result even when it fails or is interrupted
// (with what it knows and what it restored); the error says why it stopped early. A device
// too small or too odd to probe is refused before the first write.
func Probe(ctx context.Context, dev Device, o ProbeOptions) (*Result, error) {
	start := time.Now()
	p, err := newProber(ctx, dev, o)
	if err != nil {
		return nil, err
	}
	res := &Result{Mode: ModeProbe, Verdict: Unknown, ClaimedBytes: o.SizeBytes, GranularityBytes: p.block,
		Destructive: o.Destructive}
	runErr := p.run(res)
	res.VerdictS = time.Since(start).Seconds()
	if p.j != nil {
		// Nothing below may be cut short: a half-done restore is worse than none.
		p.ctx = context.Background()
		if p.roundFlush > 0 {
			// A drive seen caching writes still holds some of the run's: push them to
			// flash first, so that the restore's writes are the last to land everywhere.
			p.report("restore", "emptying the drive's cache before writing back")
			p.flush(p.roundFlush)
		}
		p.report("restore", fmt.Sprintf("writing back the %d blocks the probe overwrote", len(p.j.entries)))
		r, _ := p.j.restore(p.io)
		if r.Failed == 0 {
			r.Verified = p.verifyRestore()
		}
		res.Restore = &r
		if jf := p.j.file; jf != nil {
			if r.Failed == 0 && r.Verified {
				if err := jf.remove(); err != nil {
					p.notes = append(p.notes, fmt.Sprintf("everything was put back, but the journal %s could not be removed (%v): delete it", jf.path, err))
				}
			} else {
				// Kept whole: a restore from it writes every block again, which is what
				// the blocks that did go back hold already.
				if err := jf.close(); err != nil {
					p.notes = append(p.notes, fmt.Sprintf("closing the journal: %v", err))
				}
				r.RecoveryFile = jf.path
			}
		}
		again := ""
		if r.RecoveryFile != "" {
			again = fmt.Sprintf("; the journal %s holds every overwritten block — when the device is back, run: iomark verify --restore %s DEVICE --confirm DEVICE", r.RecoveryFile, r.RecoveryFile)
		}
		if r.Failed > 0 {
			runErr = errors.Join(runErr, fmt.Errorf("%d of %d overwritten blocks could not be written back%s", r.Failed, r.Blocks, again))
		} else if !r.Verified {
			runErr = errors.Join(runErr, fmt.Errorf("every overwritten block was written back, but reading them again did not match what was saved: the device may be failing%s", again))
		}
	}
	res.BytesRead, res.BytesWritten = p.io.bytesRead, p.io.bytesWritten
	res.DurationS = time.Since(start).Seconds()
	res.Notes = append(res.Notes, p.notes...)
	if ctx.Err() != nil && errors.Is(runErr, ctx.Err()) {
		res.Interrupted = true
		return res, fmt.Errorf("%w: %v", ErrInterrupted, runErr)
	}
	return res, runErr
}

func newProber(ctx context.Context, dev Device, o ProbeOptions) (*prober, error) {
	lbs, err := logicalBlock(o.LogicalBlockBytes)
	if err != nil {
		return nil, err
	}
	block := max(int64(probeBlockBytes), lbs)
	size := o.SizeBytes / block * block
	if size < MinProbeBytes {
		return nil, fmt.Errorf("the device holds %d bytes, less than the %d the probe needs (its granularity is %d-byte blocks): nothing to verify", o.SizeBytes, MinProbeBytes, block)
	}
	nonce := o.Nonce
	for nonce == 0 {
		var b [8]byte
		rand.Read(b[:])
		nonce = binary.LittleEndian.Uint64(b[:])
	}
	p := &prober{io: &blockIO{dev: dev}, o: o, ctx: ctx, size: size, block: block, nonce: nonce,
		samples: map[int64]*sample{}}
	if !o.Destructive {
		p.j = newJournal()
		if o.Journal != "" {
			jf, err := createJournal(o.Journal, JournalHeader{SizeBytes: o.SizeBytes, Nonce: nonce, BlockBytes: int(block),
				Identity: o.Identity, Device: o.Device, CreatedAt: time.Now()})
			if err != nil {
				return nil, fmt.Errorf("%w; nothing was written", err)
			}
			p.j.file = jf
		}
	}
	return p, nil
}

func (p *prober) report(phase, msg string) {
	p.step++
	if p.o.Progress != nil {
		p.o.Progress(Progress{Phase: phase, Message: msg, Done: p.step, WrittenBytes: p.io.bytesWritten})
	}
}

// surveySpacing is the distance between the first round's samples: it balances the
// samples written (random 4 KiB writes, slow on flash) against the watch region read
// sequentially (each sample needs the watch to span one spacing for a wrap to show):
// sqrt(size × 64 KiB) — 45 MB on a 32 GB card, ~700 samples.
func (p *prober) surveySpacing() int64 {
	s := int64(math.Sqrt(float64(p.size) * 65536))
	s = max(p.block, s/p.block*p.block)
	return min(s, 256<<20, max(p.block, (p.size/4)/p.block*p.block))
}

func (p *prober) run(res *Result) error {
	s1 := p.surveySpacing()
	p.watchEnd = min(p.size, s1+p.block)
	p.report("prepare", "reading the start of the disk")
	if err := p.readHead(); err != nil {
		return err
	}
	if len(p.unreadable) > 0 && p.unreadable[0].StartByte == 0 {
		res.Verdict, res.Failure = Damaged, FailureIOError
		res.BadRegions = p.unreadable
		first := p.unreadable[0].StartByte
		res.FirstBadByte, res.UsableBytes = &first, res.ClaimedBytes
		res.Notes = append(res.Notes, "the start of the disk cannot be read: nothing was written")
		return nil
	}
	p.flushStart = p.watchEnd
	p.maxFlush = p.o.MaxFlushBytes
	if p.maxFlush <= 0 {
		p.maxFlush = DefaultMaxFlushBytes
	}
	p.maxFlush = min(p.maxFlush/p.block*p.block, p.size-p.flushStart)
	p.flushEnd, p.flushCursor = p.flushStart+p.maxFlush, p.flushStart

	if err := p.writeSamples(s1); err != nil {
		return err
	}
	return p.verdict(res)
}

// verdict judges the samples written: where does the device fail? A bad tail (every sample
// from some point on is bad) is a fake, found to the byte; bad samples with good ones above
// them are damaged regions.
func (p *prober) verdict(res *Result) error {
	all := p.sortedSamples()
	tail := len(all)
	for tail > 0 && all[tail-1].bad {
		tail--
	}
	firstBad := -1
	for i, s := range all {
		if s.bad {
			firstBad = i
			break
		}
	}
	if firstBad < 0 {
		res.Verdict, res.UsableBytes = Genuine, res.ClaimedBytes
		res.CacheBytes = p.cacheBytes
		return nil
	}

	var tailStart int64 = -1
	if tail < len(all) {
		g := int64(0)
		if tail > 0 {
			g = all[tail-1].off + p.block
		}
		var err error
		tailStart, err = p.refine(g, all[tail].off)
		if err != nil {
			p.partial(res, tailStart, all[tail])
			return err
		}
		if p.wrapBytes > 0 && p.wrapBytes < tailStart {
			tailStart = p.wrapBytes / p.block * p.block
		}
	}
	// Damaged regions: runs of bad samples below the tail (all samples, the refining
	// rounds' included).
	tailOff := p.size
	if tail < len(all) {
		tailOff = all[tail].off
	}
	regions, firstRegion := p.regionsBelow(tailOff)
	res.BadRegions = append(res.BadRegions, regions...)
	if firstRegion != nil {
		// Find the first bad byte of the first region exactly.
		r := &res.BadRegions[0]
		if first, err := p.refine(r.StartByte, firstRegion.off); err == nil {
			r.StartByte = first
		} else {
			return err
		}
	}
	res.BadRegions = append(res.BadRegions, p.unreadable...)

	res.CacheBytes = p.cacheBytes
	worst := firstRegion
	if tailStart >= 0 {
		worst = all[tail]
		res.Verdict, res.UsableBytes = Fake, tailStart
		fb := tailStart
		res.FirstBadByte = &fb
		res.PartitionFix = partitionFix(tailStart)
	} else {
		res.Verdict, res.UsableBytes = Damaged, res.ClaimedBytes
		fb := res.BadRegions[0].StartByte
		res.FirstBadByte = &fb
	}
	if len(res.BadRegions) > 0 && tailStart >= 0 && res.BadRegions[0].StartByte < *res.FirstBadByte {
		fb := res.BadRegions[0].StartByte
		res.FirstBadByte = &fb
	}
	res.Failure, res.FailureDetail = worst.kind, p.detail(worst)
	if worst.kind == FailureWrap {
		res.WrapBytes = p.wrapBytes
	}
	return nil
}

// writeSamples writes the sample blocks and reads them back: a quick look across the device,
// then, unless it shows a clean bad tail, the survey s1 bytes apart with the start of the
// disk watched, and the cache check.
func (p *prober) writeSamples(s1 int64) error {
	// A quick look first: 64 blocks across the device, the last one included, and no watch
	// region. A drive that loses writes (the commonest fake) shows a clean bad tail here, and
	// the search goes straight to its edge.
	quick := p.spread(p.watchEnd, quickSamples)
	p.report("probe", fmt.Sprintf("writing %d blocks across the device", len(quick)))
	if err := p.writeRound(quick, 0); err != nil {
		return err
	}
	if err := p.unmaskHiding(quick, -1); err != nil {
		return err
	}
	if !p.cleanTail() {
		// Everything good, or good blocks above bad ones: a drive that wraps (whose blocks
		// read back fine at their own address), a genuine one, or damage. The survey writes
		// blocks one spacing apart and watches the start of the disk for writes landing
		// there.
		p.needWatch = true
		offs := p.spread(p.watchEnd, int((p.size-p.watchEnd)/s1)+1)
		p.report("probe", fmt.Sprintf("writing %d blocks across the device, watching its first %s", len(offs), sizeText(p.watchEnd)))
		if err := p.writeRound(offs, p.watchEnd); err != nil {
			return err
		}
		if err := p.unmaskHiding(offs, -1); err != nil {
			return err
		}
		if !p.anyBad() {
			if err := p.confirm(); err != nil {
				return err
			}
			// A cache found: the latest samples may still be in it.
			if err := p.unmaskHiding(offs, -1); err != nil {
				return err
			}
		}
	}
	return nil
}

// regionsBelow are the damaged regions: the runs of bad samples below tailOff (all samples,
// the refining rounds' included), with the first bad sample.
func (p *prober) regionsBelow(tailOff int64) (regions []Region, first *sample) {
	every := p.sortedSamples()
	for i := 0; i < len(every) && every[i].off < tailOff; i++ {
		if !every[i].bad {
			continue
		}
		if first == nil {
			first = every[i]
		}
		start := int64(0)
		if i > 0 {
			start = every[i-1].off + p.block
		}
		j := i
		for j+1 < len(every) && every[j+1].off < tailOff && every[j+1].bad {
			j++
		}
		end := tailOff
		if j+1 < len(every) {
			end = every[j+1].off
		}
		regions = append(regions, Region{StartByte: start, EndByte: end, Kind: every[i].kind})
		i = j
	}
	return regions, first
}

// verifyRestore reads back what the restore wrote, and the watch region (no stamp of the run
// may be left there). Blocks in regions that return corrupted data cannot read back as
// saved and are left out.
func (p *prober) verifyRestore() bool {
	skip := func(off int64) bool {
		s := p.samples[off]
		return s != nil && s.bad && s.kind == FailureCorrupt
	}
	if !p.j.verify(p.io, p.nonce, skip) {
		return false
	}
	if !p.watchScanned {
		return true // never looked at: no write was seen landing there
	}
	if p.wrapBytes > 0 {
		// The restore went back through the addresses that were written, and was read back
		// through them. Reading the places they land on through their own addresses can meet
		// a write cache keyed by address that still holds the restore's writes (seen on the
		// emulated card with a 64 KiB cache too small to notice).
		return true
	}
	return p.watchClean()
}

// partial fills what is known when a refinement stopped early: the device is fake, the
// usable size lies below the first bad sample.
func (p *prober) partial(res *Result, _ int64, bad *sample) {
	res.Verdict = Fake
	res.Failure, res.FailureDetail = bad.kind, p.detail(bad)
	fb := bad.off
	res.FirstBadByte = &fb
	res.UsableBytes = 0
	res.Notes = append(res.Notes, fmt.Sprintf("stopped before the exact usable size was found: the device fails at or before byte %d", bad.off))
}

func (p *prober) detail(s *sample) string {
	switch s.kind {
	case FailureWrap:
		if p.wrapBytes > 0 {
			return fmt.Sprintf("writes at and past %s land %s earlier, on data near the start", sizeText(p.wrapBytes), sizeText(p.wrapBytes))
		}
		return "writes land on other addresses"
	case FailureDropped:
		switch {
		case s.stale:
			return "writes are lost: reads return the old data"
		case s.seen == SectorZeros:
			return "writes are lost: reads return zeros"
		case s.seen == SectorOnes:
			return "writes are lost: reads return 0xff bytes"
		}
		return "writes are lost: reads return other data"
	case FailureIOError:
		return "reads or writes fail with I/O errors"
	case FailureCorrupt:
		return "data comes back with bits changed"
	}
	return ""
}

// spread returns about n block offsets evenly from start to the last block, which is always
// one of them, skipping blocks already written.
func (p *prober) spread(start int64, n int) []int64 {
	last := p.size - p.block
	if n < 1 || start > last {
		return []int64{last}
	}
	step := max(p.block, (last-start)/int64(n)/p.block*p.block)
	var out []int64
	for off := start; off < last; off += step {
		if p.samples[off] == nil {
			out = append(out, off)
		}
	}
	return append(out, last)
}

// cleanTail reports whether some blocks are bad and every block above the first bad one is
// bad too: a fake's end, with nothing that could hide a wrap. A wrap seen without the watch
// region is not clean: blocks landing on each other give multiples of the wrap distance.
func (p *prober) cleanTail() bool {
	if p.wrapBytes > 0 {
		return false
	}
	seenBad := false
	for _, s := range p.sortedSamples() {
		switch {
		case s.bad:
			seenBad = true
		case seenBad && s.written:
			return false
		}
	}
	return seenBad
}

func (p *prober) anyBad() bool {
	for _, s := range p.samples {
		if s.bad {
			return true
		}
	}
	return false
}

func (p *prober) sortedSamples() []*sample {
	out := make([]*sample, 0, len(p.samples))
	for _, s := range p.samples {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *sample) int { return cmp.Compare(a.off, b.off) })
	return out
}

// refine finds the first bad block in [g, h), given that block h is bad and everything
// before g is good, by rounds of up to refineSamples blocks. It returns the byte offset of
// the first bad block: h when every block of [g, h) is good.
func (p *prober) refine(g, h int64) (int64, error) {
	for g < h {
		blocks := (h - g) / p.block
		k := int64(refineSamples)
		if p.roundFlush > 0 {
			k = refineSamplesFlushed
		}
		n := min(k, blocks)
		s := (blocks + n - 1) / n * p.block
		var offs []int64
		for off := g; off < h; off += s {
			offs = append(offs, off)
		}
		// The known-bad block h is written last, with a fresh generation: if it reads back
		// good now, a cache is hiding this round's failures.
		sentinel := int64(-1)
		if hs := p.samples[h]; hs != nil && hs.bad && hs.kind != FailureIOError {
			sentinel = h
			offs = append(offs, h)
		}
		p.report("probe", fmt.Sprintf("narrowing the last good byte to between %s and %s", sizeText(g), sizeText(h)))
		watch := int64(0)
		if p.needWatch {
			watch = min(p.watchEnd, s+p.block)
		}
		if err := p.writeRound(offs, watch); err != nil {
			return h, err
		}
		if err := p.unmaskHiding(offs, sentinel); err != nil {
			return h, err
		}
		first := -1
		for i, off := range offs {
			if off != sentinel && p.samples[off].bad {
				first = i
				break
			}
		}
		if first < 0 {
			last := offs[len(offs)-1]
			if sentinel >= 0 {
				last = offs[len(offs)-2]
			}
			g = last + p.block
			continue
		}
		h = offs[first]
		if first > 0 {
			g = offs[first-1] + p.block
		}
	}
	return h, nil
}

// unmaskHiding deals with blocks a round wrote that read back good when they may not be:
// on a drive with a write cache, the most recent writes read back from the cache whatever
// the flash did with them. Two signs: good blocks written after a bad one in the round, and
// the known-bad block a refining round rewrites last (sentinel, -1 for none) reading good.
// It writes more (doubling) and reads the suspects again until the signs go away (a cache:
// later rounds flush a quarter more than it took) or the flush limit is reached (they are good: the
// bad ones are damage, not a fake's end).
func (p *prober) unmaskHiding(offs []int64, sentinel int64) error {
	suspicious := func() []int64 {
		if sentinel >= 0 && !p.samples[sentinel].bad {
			var all []int64
			for _, off := range offs {
				if s := p.samples[off]; s.written && !s.bad {
					all = append(all, off)
				}
			}
			return all
		}
		return p.goodAfterBad(offs)
	}
	suspects := suspicious()
	flushed := p.roundFlush
	step := max(p.roundFlush, 1<<20)
	for len(suspects) > 0 && flushed < p.maxFlush {
		add := min(step, p.maxFlush-flushed)
		p.report("flush", fmt.Sprintf("%d blocks may be read from the drive's cache: writing %s more (in place) to empty it", len(suspects), sizeText(add)))
		if err := p.flush(add); err != nil {
			return err
		}
		flushed += add
		step *= 2
		if err := p.readBack(suspects, p.lastWatch); err != nil {
			return err
		}
		if still := suspicious(); len(still) < len(suspects) {
			p.cacheBytes = max(p.cacheBytes, flushed)
			p.roundFlush = min(flushed+flushed/4, p.maxFlush)
			suspects = still
		}
	}
	return nil
}

// goodAfterBad lists the blocks of offs (written in that order) that read back good after
// one that read back bad.
func (p *prober) goodAfterBad(offs []int64) []int64 {
	var out []int64
	seenBad := false
	for _, off := range offs {
		s := p.samples[off]
		switch {
		case s.bad:
			seenBad = true
		case seenBad && s.written:
			out = append(out, off)
		}
	}
	return out
}

// confirm is for a drive whose every sample read back good: a drive that caches writes
// could have served them all from its cache. It writes up to maxFlush in growing steps and
// reads every sample again after each, and the whole watch region at the end.
func (p *prober) confirm() error {
	good := make([]int64, 0, len(p.samples))
	for _, s := range p.sortedSamples() {
		if s.written && !s.bad {
			good = append(good, s.off)
		}
	}
	flushed := p.roundFlush
	for step := int64(4 << 20); flushed < p.maxFlush; step *= 4 {
		add := min(max(step-flushed, p.block), p.maxFlush-flushed)
		p.report("confirm", fmt.Sprintf("writing %s (in place) to push the samples out of any cache, then reading them again", sizeText(add)))
		if err := p.flush(add); err != nil {
			return err
		}
		flushed += add
		watch := int64(0)
		if flushed >= p.maxFlush {
			watch = p.watchEnd
		}
		if err := p.readBack(good, watch); err != nil {
			return err
		}
		if p.anyBad() {
			p.cacheBytes = max(p.cacheBytes, flushed)
			p.roundFlush = min(flushed+flushed/4, p.maxFlush)
			if p.wrapBytes > 0 && watch == 0 {
				// Blocks landing on each other give multiples of the wrap; the first
				// block past it lands in the watch region and gives the wrap itself.
				return p.scanWatch(p.watchEnd)
			}
			return nil
		}
	}
	return nil
}

// flush writes n bytes of the flush region, continuing where the last flush stopped, so
// that every byte of a flush goes to a different address (a cache keeps one copy of an
// address however often it is written). The writes are stamped like samples (generation
// 0), so one that lands somewhere else is seen as such, and saved first like samples. (A
// rewrite of what the region holds would need no saving, but on a drive whose cache sits in
// front of its wrap a rewrite can land after a newer write through another address and undo
// it, which both corrupts the evidence and reorders the restore.)
func (p *prober) flush(n int64) error {
	const chunk = 1 << 20
	for n > 0 {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		if p.flushCursor >= p.flushEnd {
			p.flushCursor = p.flushStart
		}
		size := min(chunk, n, p.flushEnd-p.flushCursor)
		off := p.flushCursor
		p.flushCursor += size
		n -= size
		if p.j != nil && !p.j.hasAll(off, size, p.block) {
			b, err := p.io.read(off, int(size))
			if err != nil {
				if !isMediaError(err) {
					return p.fatal(err)
				}
				continue // unreadable: leave it alone
			}
			for i := int64(0); i < size; i += p.block {
				if err := p.j.add(off+i, b[i:i+p.block]); err != nil { // keeps an earlier copy of a block saved before
					return err
				}
			}
			if err := p.j.commit(); err != nil {
				return err
			}
		}
		buf := alignedBuf(int(size))
		stampBlock(buf, off, p.nonce, 0)
		// Samples in the region keep their own stamps: write around them.
		for i := int64(0); i < size; {
			if p.samples[off+i] != nil {
				i += p.block
				continue
			}
			j := i + p.block
			for j < size && p.samples[off+j] == nil {
				j += p.block
			}
			if err := p.io.write(buf[i:j], off+i); err != nil && !isMediaError(err) {
				return p.fatal(err)
			}
			i = j
		}
	}
	return nil
}

func sizeText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
