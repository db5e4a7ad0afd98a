package flash

import (
	"bytes"
	"errors"
	"fmt"
)

// watchChunk is the unit of sequential reads (watch region, flush region).
const watchChunk = 1 << 20

// headBytes is the start of the disk read before the first write: a disk that cannot
// be read there is failing, and nothing is written to it; it is read again after every round
// to notice a disk that dies half-way.
const headBytes = 1 << 20

// readHead reads the head before the first write and notes blocks that fail.
func (p *prober) readHead() error {
	p.headOK = map[int64]bool{}
	return p.readRegion(p.headEnd(), func(off int64, b []byte) {
		p.headOK[off] = true
	}, func(off int64) {
		p.unreadable = appendRegion(p.unreadable, off, off+p.block, FailureIOError)
	})
}

func (p *prober) headEnd() int64 { return min(int64(headBytes), p.size) }

// checkHead reads the first block of the head that read fine before the first write
// again: failing now, the device is dying or went away.
func (p *prober) checkHead() error {
	for off := int64(0); off < p.headEnd(); off += p.block {
		if !p.headOK[off] {
			continue
		}
		_, err := p.io.read(off, int(p.block))
		switch {
		case err == nil:
			return nil
		case isMediaError(err) || isGone(err):
			return fmt.Errorf("%w: byte %d read fine before the first write and now fails — the device is dying or was pulled out", errFailing, off)
		default:
			return p.fatal(err)
		}
	}
	return nil
}

// readRegion reads [0, end) in chunks and calls each for every block read, bad for every
// block that fails with a media error (a chunk that fails is read again block by block).
func (p *prober) readRegion(end int64, each func(off int64, b []byte), bad func(off int64)) error {
	for off := int64(0); off < end; off += watchChunk {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		n := min(watchChunk, end-off)
		b, err := p.io.read(off, int(n))
		if err == nil {
			for i := int64(0); i < n; i += p.block {
				each(off+i, b[i:i+p.block])
			}
			continue
		}
		if !isMediaError(err) {
			return p.fatal(err)
		}
		for bo := off; bo < off+n; bo += p.block {
			bb, err := p.io.read(bo, int(p.block))
			switch {
			case err == nil:
				each(bo, bb)
			case isMediaError(err):
				bad(bo)
			default:
				return p.fatal(err)
			}
		}
	}
	return nil
}

// fatal words an I/O error that stops the probe.
func (p *prober) fatal(err error) error {
	if isGone(err) {
		return fmt.Errorf("%w (%v): was it unplugged or reset? see dmesg", errGone, err)
	}
	return fmt.Errorf("the device refused an I/O the probe needs: %w", err)
}

// appendRegion adds [start, end) to regions, merging it with the last one when they touch.
func appendRegion(regions []Region, start, end int64, kind string) []Region {
	if n := len(regions); n > 0 && regions[n-1].EndByte == start && regions[n-1].Kind == kind {
		regions[n-1].EndByte = end
		return regions
	}
	return append(regions, Region{StartByte: start, EndByte: end, Kind: kind, Exact: true})
}

// writeRound writes a fresh stamp at every offset of offs (ascending), then flushes and reads
// them all back, and the watch region below watchEnd. The round is one write group: every
// block is read and saved first, the journal committed, and only then is any of them written,
// so a run stopped at any point has every overwritten block in the journal.
func (p *prober) writeRound(offs []int64, watchEnd int64) error {
	p.gen++
	p.lastWatch = watchEnd
	write := make([]*sample, 0, len(offs))
	for _, off := range offs {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		s := p.samples[off]
		if s == nil {
			s = &sample{off: off}
			p.samples[off] = s
		}
		if s.bad && s.kind == FailureIOError {
			continue // it failed once; hammering a failing block helps nobody
		}
		if p.j != nil && !p.j.has(off) {
			b, err := p.readBlock(s)
			if err != nil {
				return err
			}
			if b == nil {
				continue // a media error marked it failed
			}
			stamped := p.alreadyStamped(s, b)
			if err := p.j.add(off, b); err != nil {
				return err
			}
			if stamped {
				continue
			}
		}
		write = append(write, s)
	}
	if p.j != nil {
		if err := p.j.commit(); err != nil {
			return err
		}
	}
	buf := alignedBuf(int(p.block))
	for _, s := range write {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		s.bad, s.kind, s.stale, s.seen = false, "", false, SectorGood
		stampBlock(buf, s.off, p.nonce, p.gen)
		if err := p.io.write(buf, s.off); err != nil {
			if err := p.ioFailed(s, err); err != nil {
				return err
			}
			continue
		}
		s.written, s.gen = true, p.gen
	}
	if p.roundFlush > 0 {
		p.report("flush", fmt.Sprintf("writing %s (in place) to push the new blocks out of the drive's cache", sizeText(p.roundFlush)))
		if err := p.flush(p.roundFlush); err != nil {
			return err
		}
	}
	return p.readBack(offs, watchEnd)
}

// readBlock reads s's block. A media error marks s failed and returns nil and no error: the
// probe goes on past a failing block; any other error ends it.
func (p *prober) readBlock(s *sample) ([]byte, error) {
	b, err := p.io.read(s.off, int(p.block))
	if err != nil {
		return nil, p.ioFailed(s, err)
	}
	return b, nil
}

// ioFailed marks s failed when err, from its I/O, is a media error, and returns nil: the
// probe goes on. Any other error ends the probe, and is returned.
func (p *prober) ioFailed(s *sample, err error) error {
	if !isMediaError(err) {
		return p.fatal(err)
	}
	s.bad, s.kind = true, FailureIOError
	return nil
}

// alreadyStamped looks at what a block held before its first write: one of this run's
// stamps there, for another offset, means two addresses share one place. The higher of the
// two is past the real capacity.
func (p *prober) alreadyStamped(s *sample, b []byte) bool {
	found := false
	for i := int64(0); i < p.block; i += SectorBytes {
		st, so, gen := checkSector(b[i:i+SectorBytes], s.off+i, p.nonce)
		if st != SectorMoved {
			continue
		}
		pos := s.off + i
		if so > pos {
			p.aggression(so, pos, gen)
			continue
		}
		found = true
		s.bad, s.kind = true, FailureWrap
		p.noteWrap(pos - so)
	}
	return found
}

// readBack reads the blocks of offs the round wrote and judges them, then looks for blocks
// of the watch region below watchEnd that changed.
func (p *prober) readBack(offs []int64, watchEnd int64) error {
	for _, off := range offs {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		s := p.samples[off]
		if s == nil || !s.written || (s.bad && s.kind == FailureIOError) {
			continue
		}
		b, err := p.readBlock(s)
		if err != nil {
			return err
		}
		if b != nil { // nil: a media error marked it failed
			p.judge(s, b)
		}
	}
	if watchEnd > 0 {
		if err := p.scanWatch(watchEnd); err != nil {
			return err
		}
	}
	p.applyWrap()
	return p.checkHead()
}

// applyWrap marks every block reaching past a proven wrap distance bad: on a drive where an
// address lands that far below itself, no address from there on holds its own data. (Only
// the first sample past the real size is sure to land in the watch region; the others land
// wherever their distance modulo the real size puts them.)
func (p *prober) applyWrap() {
	if p.wrapBytes <= 0 {
		return
	}
	for _, s := range p.samples {
		if !s.bad && s.off+p.block > p.wrapBytes {
			s.bad, s.kind = true, FailureWrap
		}
	}
}

// judge classifies what a written block read back as. A block only ever turns bad here:
// one that was found to land elsewhere stays bad however its own read-back looks.
func (p *prober) judge(s *sample, b []byte) {
	var lost, corrupt int
	seen, stale := SectorGood, true
	var before []byte
	if p.j != nil {
		before = p.j.get(s.off)
	}
	for i := int64(0); i < p.block; i += SectorBytes {
		sec := b[i : i+SectorBytes]
		st, so, gen := checkSector(sec, s.off+i, p.nonce)
		switch st {
		case SectorGood:
			if gen != s.gen { // an older write of this run: the latest one was lost
				lost++
				seen = SectorForeign
			}
		case SectorMoved:
			p.aggression(so, s.off+i, gen) // another address's write landed on this block
		case SectorCorrupt:
			corrupt++
		default:
			lost++
			seen = st
			if before == nil || !bytes.Equal(sec, before[i:i+SectorBytes]) {
				stale = false
			}
		}
	}
	if lost == 0 && corrupt == 0 {
		return
	}
	s.bad = true
	if lost == 0 {
		s.kind = FailureCorrupt
		return
	}
	s.kind, s.seen, s.stale = FailureDropped, seen, stale && seen == SectorForeign
}

// aggression records that the write of the sector stamped for stampOff (generation gen)
// was found at pos: the block written at stampOff lands elsewhere, so it is past the real
// capacity of a wrapping drive. Only evidence from a block's latest write counts against
// it (the known-bad block a refining round rewrites must be caught again); any evidence
// counts for the wrap distance.
//
// A stamp found above its own address means the reading address is the one that lands
// elsewhere (a write cache can reorder which of two aliases wrote last); that block is bad.
func (p *prober) aggression(stampOff, pos int64, gen uint32) {
	if stampOff < pos {
		p.noteWrap(pos - stampOff)
		if s := p.samples[pos/p.block*p.block]; s != nil {
			s.bad, s.kind = true, FailureWrap
		}
		return
	}
	p.noteWrap(stampOff - pos)
	qb := stampOff / p.block * p.block
	s := p.samples[qb]
	if s == nil || gen != s.gen {
		return // a flush block (generation 0), or an older write of a sample
	}
	s.bad, s.kind = true, FailureWrap
}

// noteWrap takes a distance at which an address was found landing below itself. On a
// drive that wraps at its real size R, every such distance is a multiple of R (two addresses
// past R can land on one place, 2R apart, and the later write hides the earlier), so the
// wrap distance is their greatest common divisor.
func (p *prober) noteWrap(d int64) {
	if d <= 0 {
		return
	}
	if p.wrapBytes == 0 {
		p.wrapBytes = d
		return
	}
	if g := gcd(p.wrapBytes, d); g >= SectorBytes {
		p.wrapBytes = g
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// scanWatch reads the watch region below end and looks for stamps of this run written for
// other addresses: the probe never writes there itself (but for samples, which are judged
// like any block: their own stamp is not "moved"), so any such stamp landed through an
// address past a wrapping drive's real size.
func (p *prober) scanWatch(end int64) error {
	end = min(end, p.watchEnd)
	p.watchScanned = true
	return p.readRegion(end, func(off int64, b []byte) {
		if !hasNonce(b, p.nonce) {
			return
		}
		for i := int64(0); i < p.block; i += SectorBytes {
			if st, so, gen := checkSector(b[i:i+SectorBytes], off+i, p.nonce); st == SectorMoved {
				p.aggression(so, off+i, gen)
			}
		}
	}, func(int64) {})
}

// watchClean reads the watch region after the restore: no stamp of this run may be left
// there (a write that landed through another address was undone by restoring that address).
func (p *prober) watchClean() bool {
	clean := true
	err := p.readRegion(p.watchEnd, func(off int64, b []byte) {
		if p.j.get(off) == nil && hasNonce(b, p.nonce) {
			clean = false
		}
	}, func(int64) {})
	return err == nil && clean
}

// errFailing is a device that fails I/O it served earlier in the run.
var errFailing = errors.New("the device started failing half-way")
