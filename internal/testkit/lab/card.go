package lab

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Failure is how an emulated card behaves at and past its real capacity, the ways fake
// cards are known to fail (f3's documentation calls them wraparound and limbo drives).
type Failure string

// Failure kinds.
const (
	// FailWrap maps every address at or past the real capacity onto address mod real
	// capacity: a write there overwrites data near the start of the card.
	FailWrap Failure = "wrap"
	// FailDropZeros discards writes past the real capacity; reads there return zeros.
	FailDropZeros Failure = "drop-zeros"
	// FailDropOnes discards writes past the real capacity; reads there return 0xff bytes, as
	// erased NAND reads.
	FailDropOnes Failure = "drop-ones"
	// FailDropStale discards writes past the real capacity; reads there return what the card
	// held before (its initial content), so a test that compares with what it wrote fails but
	// a test that only looks for zeros does not.
	FailDropStale Failure = "drop-stale"
	// FailIOError answers every read or write touching the space past the real capacity with
	// an I/O error.
	FailIOError Failure = "io-error"
)

// BadKind is how a bad region inside the real capacity misbehaves.
type BadKind string

// Bad region kinds.
const (
	BadIOError BadKind = "io-error" // reads and writes touching it fail with EIO
	BadCorrupt BadKind = "corrupt"  // writes succeed; reads return the data with bits flipped
)

// BadRegion is a damaged stretch of the card's storage, in card addresses.
type BadRegion struct {
	OffsetBytes, LengthBytes int64
	Kind                     BadKind
}

// CardSpec describes an emulated flash card: what it claims, what it really stores, how it
// fails, and how long its I/O takes. Zero values mean "honest" and "instant".
type CardSpec struct {
	Name         string // short label used in file names: letters, digits, '-', '_' (required)
	ClaimedBytes int64  // the size the card reports; a multiple of 512 (required)
	// RealBytes is the storage it really has, a multiple of 512; 0 means ClaimedBytes (an
	// honest card). Only written data is kept in memory, so a large honest card costs RAM
	// only for what a test writes.
	RealBytes int64
	Failure   Failure // behaviour past RealBytes; required when RealBytes < ClaimedBytes
	// CacheBytes is a write cache in front of the flash, keyed by card address: the most
	// recent writes (of any address) are read back from it until later writes evict them, so
	// a dropped or wrapped write looks fine until enough else has been written.
	CacheBytes int64
	// Seed picks the card's initial content (pseudo-random bytes, different at every offset)
	// and is what FailDropStale reads return. Two cards with one seed start identical.
	Seed uint64

	// Timing. An I/O waits for the card to be free, then takes its latency plus its size at
	// the rate (0 means unlimited). Rates are 10^6 bytes/s.
	ReadLatency, WriteLatency time.Duration
	ReadMBps, WriteMBps       float64
	// EraseBlockBytes is the erase block / allocation unit: an I/O that crosses a multiple
	// of it costs BoundaryLatency more, as reads straddling an AU boundary do on SD cards
	// (flashbench's -a test looks for exactly this). 0: no boundary effect.
	EraseBlockBytes int64
	BoundaryLatency time.Duration
	// An SLC cache: the first SLCBytes written go at WriteMBps, the rest at SLCSlowMBps; the
	// cache empties again while the card is idle, fully after SLCRecover of idle time
	// (linearly). SLCBytes 0: no SLC cache.
	SLCBytes    int64
	SLCSlowMBps float64
	SLCRecover  time.Duration

	BadRegions []BadRegion
	// SlowZones are stretches that transfer slower than the rest of the card (a worn or
	// remapped area, a card's slower die): the bytes of an I/O inside a zone go at the zone's
	// rates, the rest at the card's.
	SlowZones []SlowZone
}

// SlowZone is a stretch of card addresses with rates of its own (10^6 bytes/s; 0 keeps the
// card's rate for that direction).
type SlowZone struct {
	OffsetBytes, LengthBytes int64
	ReadMBps, WriteMBps      float64
}

const sectorBytes = 512

// maxCardBytes bounds a card's claimed size so a typo cannot make a card larger than any
// test needs (16 TiB; only written data uses memory).
const maxCardBytes = 16 << 40

func (s CardSpec) check() (CardSpec, error) {
	if !namePattern.MatchString(s.Name) {
		return s, fmt.Errorf("lab: card name %q: use 1-40 letters, digits, '-' or '_'", s.Name)
	}
	if s.ClaimedBytes <= 0 || s.ClaimedBytes%sectorBytes != 0 || s.ClaimedBytes > maxCardBytes {
		return s, fmt.Errorf("lab: card %s: claimed size %d must be a positive multiple of 512 up to 16 TiB", s.Name, s.ClaimedBytes)
	}
	if s.RealBytes == 0 {
		s.RealBytes = s.ClaimedBytes
	}
	if s.RealBytes < 0 || s.RealBytes%sectorBytes != 0 || s.RealBytes > s.ClaimedBytes {
		return s, fmt.Errorf("lab: card %s: real size %d must be a multiple of 512 between 512 and the claimed %d", s.Name, s.RealBytes, s.ClaimedBytes)
	}
	if s.RealBytes < s.ClaimedBytes {
		switch s.Failure {
		case FailWrap, FailDropZeros, FailDropOnes, FailDropStale, FailIOError:
		default:
			return s, fmt.Errorf("lab: card %s: real size %d < claimed %d needs a failure kind, got %q", s.Name, s.RealBytes, s.ClaimedBytes, s.Failure)
		}
	}
	for _, v := range []struct {
		name string
		val  float64
	}{{"read MB/s", s.ReadMBps}, {"write MB/s", s.WriteMBps}, {"SLC slow MB/s", s.SLCSlowMBps},
		{"cache bytes", float64(s.CacheBytes)}, {"erase block bytes", float64(s.EraseBlockBytes)},
		{"SLC bytes", float64(s.SLCBytes)}, {"read latency", float64(s.ReadLatency)},
		{"write latency", float64(s.WriteLatency)}, {"boundary latency", float64(s.BoundaryLatency)},
		{"SLC recover", float64(s.SLCRecover)}} {
		if v.val < 0 {
			return s, fmt.Errorf("lab: card %s: %s %v is negative", s.Name, v.name, v.val)
		}
	}
	if s.SLCBytes > 0 && (s.SLCSlowMBps <= 0 || s.SLCRecover <= 0) {
		return s, fmt.Errorf("lab: card %s: an SLC cache needs SLCSlowMBps and SLCRecover", s.Name)
	}
	for _, b := range s.BadRegions {
		if b.OffsetBytes < 0 || b.LengthBytes <= 0 || b.OffsetBytes+b.LengthBytes > s.RealBytes {
			return s, fmt.Errorf("lab: card %s: bad region %+v must lie inside the real %d bytes", s.Name, b, s.RealBytes)
		}
		if b.Kind != BadIOError && b.Kind != BadCorrupt {
			return s, fmt.Errorf("lab: card %s: bad region kind %q: use %q or %q", s.Name, b.Kind, BadIOError, BadCorrupt)
		}
	}
	for _, z := range s.SlowZones {
		if z.OffsetBytes < 0 || z.LengthBytes <= 0 || z.OffsetBytes+z.LengthBytes > s.ClaimedBytes {
			return s, fmt.Errorf("lab: card %s: slow zone %+v must lie inside the claimed %d bytes", s.Name, z, s.ClaimedBytes)
		}
		if z.ReadMBps < 0 || z.WriteMBps < 0 || (z.ReadMBps == 0 && z.WriteMBps == 0) {
			return s, fmt.Errorf("lab: card %s: slow zone %+v needs a positive read or write rate", s.Name, z)
		}
	}
	return s, nil
}

// chunkBytes is the unit of the card's sparse storage.
const chunkBytes = 64 << 10

// Card is the behaviour of an emulated flash card, without any transport: ReadAt and
// WriteAt act on its storage as the spec says, Schedule says when an I/O would complete.
// MountCard serves it to the kernel as a block device; tests of algorithms can use it
// directly. It is safe for concurrent use.
type Card struct {
	spec CardSpec

	mu      sync.Mutex
	chunks  map[int64][]byte // chunk index -> content, for written chunks of the real storage
	cache   map[int64]cacheEntry
	fifo    []cacheRef // cache entries in write order, oldest first
	seq     uint64
	broken  bool
	breakIn int64 // I/Os until the card breaks; <0: never

	// timing state
	busyUntil time.Time
	slcUsed   float64       // bytes of the SLC cache in use
	credit    time.Duration // time the transport overslept, given back to later transfers

	reads, writes           atomic.Int64
	bytesRead, bytesWritten atomic.Int64

	hold writeHold
}

// writeHold stops writes at a chosen point, so a test can kill the writer there.
type writeHold struct {
	mu      sync.Mutex
	after   int64         // writes still let through before the hold
	ch      chan struct{} // nil: no hold; closed by ReleaseWrites
	waiting int           // writes blocked at the hold
	drop    bool          // the held writes fail with EIO when released
}

// HoldWrites lets the next n writes through and blocks every later one until ReleaseWrites:
// a test can then kill the writing process at an exact point (a process blocked in a write
// to the loop device dies once the write returns).
func (c *Card) HoldWrites(n int64) {
	c.hold.mu.Lock()
	c.hold.after, c.hold.ch, c.hold.waiting, c.hold.drop = n, make(chan struct{}), 0, false
	c.hold.mu.Unlock()
}

// WritesHeld is how many writes wait at the hold.
func (c *Card) WritesHeld() int {
	c.hold.mu.Lock()
	defer c.hold.mu.Unlock()
	return c.hold.waiting
}

// ReleaseWrites ends the hold: the held writes go through, or, with drop, fail with EIO and
// change nothing (the power went before they landed).
func (c *Card) ReleaseWrites(drop bool) {
	c.hold.mu.Lock()
	if c.hold.ch != nil {
		c.hold.drop = drop
		close(c.hold.ch)
		c.hold.ch = nil
	}
	c.hold.mu.Unlock()
}

// waitHold blocks a write at the hold; an error means it is dropped.
func (c *Card) waitHold() error {
	h := &c.hold
	h.mu.Lock()
	if h.ch == nil {
		h.mu.Unlock()
		return nil
	}
	if h.after > 0 {
		h.after--
		h.mu.Unlock()
		return nil
	}
	ch := h.ch
	h.waiting++
	h.mu.Unlock()
	<-ch
	h.mu.Lock()
	defer h.mu.Unlock()
	h.waiting--
	if h.drop {
		return errIO
	}
	return nil
}

type cacheEntry struct {
	data [sectorBytes]byte
	seq  uint64
}

type cacheRef struct {
	sector int64
	seq    uint64
}

// NewCard makes a card from a spec.
func NewCard(s CardSpec) (*Card, error) {
	s, err := s.check()
	if err != nil {
		return nil, err
	}
	return &Card{spec: s, chunks: map[int64][]byte{}, cache: map[int64]cacheEntry{}, breakIn: -1}, nil
}

// Spec returns the card's spec with defaults filled in.
func (c *Card) Spec() CardSpec { return c.spec }

// Size is the claimed size in bytes.
func (c *Card) Size() int64 { return c.spec.ClaimedBytes }

// Break makes every later I/O fail with EIO, as a card that died or was pulled out does;
// Break(false) heals it.
func (c *Card) Break(broken bool) {
	c.mu.Lock()
	c.broken, c.breakIn = broken, -1
	c.mu.Unlock()
}

// AddBadRegion makes a stretch of the card go bad from now on, as flash wears out under a
// filesystem already made on it.
func (c *Card) AddBadRegion(b BadRegion) error {
	s := c.spec
	s.BadRegions = append(slices.Clone(s.BadRegions), b)
	if _, err := s.check(); err != nil {
		return err
	}
	c.mu.Lock()
	c.spec.BadRegions = s.BadRegions
	c.mu.Unlock()
	return nil
}

// BreakAfter makes the card fail every I/O after n more I/Os.
func (c *Card) BreakAfter(n int64) {
	c.mu.Lock()
	c.breakIn = n
	c.mu.Unlock()
}

// Counters is what the card has served since it was made.
type Counters struct {
	Reads, Writes           int64
	BytesRead, BytesWritten int64
}

// Counters returns the I/O counts so far: what a tool really read and wrote, measured at
// the card.
func (c *Card) Counters() Counters {
	return Counters{Reads: c.reads.Load(), Writes: c.writes.Load(), BytesRead: c.bytesRead.Load(), BytesWritten: c.bytesWritten.Load()}
}

// StoredBytes is the memory the card's written data takes.
func (c *Card) StoredBytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return int64(len(c.chunks)) * chunkBytes
}

var errIO = syscall.EIO

func (c *Card) checkRange(n int, off int64) error {
	if off < 0 || off%sectorBytes != 0 || n%sectorBytes != 0 {
		return syscall.EINVAL
	}
	if off+int64(n) > c.spec.ClaimedBytes {
		return syscall.EINVAL
	}
	return nil
}

// admitLocked counts an I/O on [off, off+n) against BreakAfter and refuses it where the card
// is broken or fails.
func (c *Card) admitLocked(off, n int64) error {
	if c.breakIn == 0 {
		c.broken, c.breakIn = true, -1
	}
	if c.breakIn > 0 {
		c.breakIn--
	}
	if c.broken || c.failsLocked(off, n) {
		return errIO
	}
	return nil
}

// ReadAt fills p from card address off. Both must be multiples of 512. It returns
// syscall.EIO where the card fails.
func (c *Card) ReadAt(p []byte, off int64) error {
	if err := c.checkRange(len(p), off); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.admitLocked(off, int64(len(p))); err != nil {
		return err
	}
	c.reads.Add(1)
	c.bytesRead.Add(int64(len(p)))
	for i := 0; i < len(p); i += sectorBytes {
		sec := (off + int64(i)) / sectorBytes
		if e, ok := c.cache[sec]; ok {
			copy(p[i:i+sectorBytes], e.data[:])
			continue
		}
		c.readBackingLocked(p[i:i+sectorBytes], off+int64(i))
	}
	return nil
}

// WriteAt stores p at card address off, as the spec says (dropped, wrapped, cached).
func (c *Card) WriteAt(p []byte, off int64) error {
	if err := c.checkRange(len(p), off); err != nil {
		return err
	}
	if err := c.waitHold(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.admitLocked(off, int64(len(p))); err != nil {
		return err
	}
	c.writes.Add(1)
	c.bytesWritten.Add(int64(len(p)))
	if c.spec.CacheBytes < sectorBytes {
		c.writeBackingLocked(p, off)
		return nil
	}
	for i := 0; i < len(p); i += sectorBytes {
		sec := (off + int64(i)) / sectorBytes
		c.seq++
		var e cacheEntry
		copy(e.data[:], p[i:i+sectorBytes])
		e.seq = c.seq
		c.cache[sec] = e
		c.fifo = append(c.fifo, cacheRef{sector: sec, seq: c.seq})
	}
	c.evictLocked(c.spec.CacheBytes / sectorBytes)
	return nil
}

// evictLocked writes the oldest cached sectors to flash until at most keep remain.
func (c *Card) evictLocked(keep int64) {
	for int64(len(c.cache)) > keep && len(c.fifo) > 0 {
		ref := c.fifo[0]
		c.fifo = c.fifo[1:]
		e, ok := c.cache[ref.sector]
		if !ok || e.seq != ref.seq {
			continue // superseded by a later write of the same sector
		}
		delete(c.cache, ref.sector)
		c.writeBackingLocked(e.data[:], ref.sector*sectorBytes)
	}
	if len(c.fifo) > 0 && cap(c.fifo) > 4*len(c.fifo)+1024 {
		c.fifo = append([]cacheRef(nil), c.fifo...) // let the consumed head be freed
	}
}

// Digest returns a hash of the card's state: every chunk of its storage whose content
// differs from the initial content, after flushing its cache. Two cards made from one spec
// have equal digests exactly when a full read of both (through the same failure) would be
// equal; it costs only what was written, so tests of large sparse cards can check that a
// tool left the card as it found it.
func (c *Card) Digest() [32]byte {
	c.FlushCache()
	c.mu.Lock()
	defer c.mu.Unlock()
	idx := make([]int64, 0, len(c.chunks))
	for i := range c.chunks {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	h := sha256.New()
	initial := make([]byte, chunkBytes)
	var key [8]byte
	for _, i := range idx {
		fillInitial(initial, i*chunkBytes, c.spec.Seed)
		if bytes.Equal(c.chunks[i], initial) {
			continue
		}
		binary.LittleEndian.PutUint64(key[:], uint64(i))
		h.Write(key[:])
		h.Write(c.chunks[i])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// FlushCache writes every cached sector to flash, as a card does given time or a reset.
func (c *Card) FlushCache() {
	c.mu.Lock()
	c.evictLocked(0)
	c.fifo = nil
	c.mu.Unlock()
}

// failsLocked reports whether an I/O on [off, off+n) meets an I/O error: a bad region of that
// kind, or the space past the real capacity of an io-error card.
func (c *Card) failsLocked(off, n int64) bool {
	end := off + n
	if c.spec.Failure == FailIOError && end > c.spec.RealBytes {
		return true
	}
	for _, b := range c.spec.BadRegions {
		if b.Kind == BadIOError && off < b.OffsetBytes+b.LengthBytes && b.OffsetBytes < end {
			return true
		}
	}
	return false
}

// slot maps a card address to where its data lives: its storage address and whether it is
// stored at all (false: past the real capacity of a card that drops writes there).
func (c *Card) slot(addr int64) (int64, bool) {
	if addr < c.spec.RealBytes {
		return addr, true
	}
	if c.spec.Failure == FailWrap {
		return addr % c.spec.RealBytes, true
	}
	return 0, false
}

func (c *Card) readBackingLocked(p []byte, addr int64) {
	s, stored := c.slot(addr)
	if !stored {
		switch c.spec.Failure {
		case FailDropZeros:
			clear(p)
		case FailDropOnes:
			for i := range p {
				p[i] = 0xff
			}
		default: // FailDropStale: what was there before
			fillInitial(p, addr, c.spec.Seed)
		}
		return
	}
	if ch, ok := c.chunks[s/chunkBytes]; ok {
		copy(p, ch[s%chunkBytes:])
	} else {
		fillInitial(p, s, c.spec.Seed)
	}
	for _, b := range c.spec.BadRegions {
		if b.Kind == BadCorrupt && s < b.OffsetBytes+b.LengthBytes && b.OffsetBytes < s+int64(len(p)) {
			for i := range p {
				if a := s + int64(i); a >= b.OffsetBytes && a < b.OffsetBytes+b.LengthBytes && a%64 == 17 {
					p[i] ^= 0x10 // a flipped bit every 64 bytes
				}
			}
		}
	}
}

// writeBackingLocked stores one or more whole sectors (they never cross a chunk boundary
// in the middle of a sector because chunks are sector multiples).
func (c *Card) writeBackingLocked(p []byte, addr int64) {
	for i := 0; i < len(p); i += sectorBytes {
		s, stored := c.slot(addr + int64(i))
		if !stored {
			continue
		}
		idx := s / chunkBytes
		ch, ok := c.chunks[idx]
		if !ok {
			ch = make([]byte, chunkBytes)
			fillInitial(ch, idx*chunkBytes, c.spec.Seed)
			c.chunks[idx] = ch
		}
		copy(ch[s%chunkBytes:s%chunkBytes+sectorBytes], p[i:i+sectorBytes])
	}
}

// fillInitial writes the card's initial content for address addr into p: pseudo-random
// 64-bit words that depend on the seed and their address only.
func fillInitial(p []byte, addr int64, seed uint64) {
	for i := 0; i+8 <= len(p); i += 8 {
		v := splitmix(seed ^ uint64(addr+int64(i))*0x9e3779b97f4a7c15)
		p[i], p[i+1], p[i+2], p[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		p[i+4], p[i+5], p[i+6], p[i+7] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
	}
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Op is a kind of I/O, for Schedule.
type Op int

// I/O kinds.
const (
	OpRead Op = iota
	OpWrite
)

// Schedule returns when an I/O of n bytes at off, arriving at now, completes: the card serves
// one I/O at a time, each taking its latency, the boundary penalty when it crosses an erase
// block boundary, and its size at the (SLC-dependent) rate.
func (c *Card) Schedule(op Op, off, n int64, now time.Time) time.Time {
	s := c.spec
	c.mu.Lock()
	defer c.mu.Unlock()
	start := now
	if c.busyUntil.After(start) {
		start = c.busyUntil
	} else if !c.busyUntil.IsZero() {
		idle := start.Sub(c.busyUntil)
		// The host's own time between one I/O and the next (FUSE, loop, the tool) would
		// otherwise add to every transfer: a card streams while the host turns around.
		c.credit = min(c.credit+idle, maxCredit)
		if s.SLCBytes > 0 {
			c.slcUsed = max(0, c.slcUsed-float64(s.SLCBytes)*float64(idle)/float64(s.SLCRecover))
		}
	}
	// Fixed latencies are never discounted (they are what latency tests look for); the
	// transfer time is, by what earlier sleeps overslept, so rates hold over a run.
	var fixed, transfer time.Duration
	switch op {
	case OpRead:
		fixed, transfer = s.ReadLatency, atRate(n, s.ReadMBps)
	case OpWrite:
		fixed = s.WriteLatency
		if s.SLCBytes > 0 {
			fast := min(float64(n), max(0, float64(s.SLCBytes)-c.slcUsed))
			c.slcUsed = min(c.slcUsed+float64(n), float64(s.SLCBytes))
			transfer = atRate(int64(fast), s.WriteMBps) + atRate(n-int64(fast), s.SLCSlowMBps)
		} else {
			transfer = atRate(n, s.WriteMBps)
		}
	}
	transfer += c.slowZonesExtra(op, off, n)
	if eb := s.EraseBlockBytes; eb > 0 && n > 0 && off/eb != (off+n-1)/eb {
		fixed += s.BoundaryLatency
	}
	given := min(c.credit, transfer)
	c.credit -= given
	c.busyUntil = start.Add(fixed + transfer - given)
	return c.busyUntil
}

// slowZonesExtra is the time the bytes of [off, off+n) inside slow zones take beyond what
// the card's own rate gave them.
func (c *Card) slowZonesExtra(op Op, off, n int64) time.Duration {
	var extra time.Duration
	for _, z := range c.spec.SlowZones {
		in := min(off+n, z.OffsetBytes+z.LengthBytes) - max(off, z.OffsetBytes)
		if in <= 0 {
			continue
		}
		base, slow := c.spec.ReadMBps, z.ReadMBps
		if op == OpWrite {
			base, slow = c.spec.WriteMBps, z.WriteMBps
		}
		if slow > 0 {
			extra += atRate(in, slow) - atRate(in, base)
		}
	}
	return max(extra, 0)
}

// maxCredit bounds the time a card gives back (oversleep, host turnaround), so a pause or a
// stall of the machine does not turn into a long burst faster than the card.
const maxCredit = 10 * time.Millisecond

// overslept records that a transport woke d after an I/O's completion time.
func (c *Card) overslept(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.credit = min(c.credit+d, maxCredit)
	c.mu.Unlock()
}

func atRate(n int64, mbPerS float64) time.Duration {
	if mbPerS <= 0 || n <= 0 {
		return 0
	}
	return time.Duration(float64(n) / (mbPerS * 1e6) * float64(time.Second))
}
