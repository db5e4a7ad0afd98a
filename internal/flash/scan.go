package flash

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"
)

// The full scan (`iomark verify DISK --full`): every block of the disk in large aligned
// O_DIRECT requests, with errors handled as ddrescue handles them, a speed map by position
// and the slow zones in it. In rewrite mode each request's data is also saved in the
// write-ahead journal, overwritten with a stamped pattern, checked and written back
// (badblocks -n); in destructive mode the pattern is written and checked, and nothing is
// kept (badblocks -w).

// Scan modes.
const (
	ScanRead        = "read"
	ScanRewrite     = "rewrite"
	ScanDestructive = "destructive"
)

// ModeFull is a verify that read (and with rewrite or destructive, wrote) every block.
const ModeFull = "full"

// DefaultScanRequestBytes is the size of a scan's reads: large enough that a USB or SD
// reader streams at its full rate, small enough that a failing request costs little to
// take apart.
const DefaultScanRequestBytes = 4 << 20

// DefaultScanErrorBudget is the default of ScanOptions.ErrorBudget.
const DefaultScanErrorBudget = 5 * time.Minute

// slowZoneMinBytes is the least a slow zone spans: shorter stretches are noise (a scheduler
// stall, the drive's own housekeeping), and timing is only trusted over a few requests.
const slowZoneMinBytes = 8 << 20

// seriesPoints is about how many points the speed map has.
const seriesPoints = 1000

// ScanOptions configures Scan.
type ScanOptions struct {
	// SizeBytes is the stretch scanned, from byte 0: the disk's size, or a fake's usable size.
	SizeBytes int64
	// DiskBytes is the whole disk's size (SizeBytes when 0), for the journal's header.
	DiskBytes int64
	// LogicalBlockBytes is the device's addressing unit (BLKSSZGET); 0 means 512.
	LogicalBlockBytes int
	// Mode is ScanRead (default), ScanRewrite or ScanDestructive.
	Mode string
	// RequestBytes is the size of each read; 0 means DefaultScanRequestBytes.
	RequestBytes int64
	// ErrorBudget bounds the time spent on errors after the first pass (reading the skipped
	// stretches backwards, trimming the edges of bad ones) and on the first pass's failed
	// requests; 0 means DefaultScanErrorBudget. What it leaves is reported unread.
	ErrorBudget time.Duration
	// Journal (rewrite mode) is the write-ahead journal: each request's original data is
	// appended and synced before the request is overwritten, and dropped once it is back.
	// Required for ScanRewrite. Identity and Device name the disk in it.
	Journal, Identity, Device string
	// Progress, if set, is called after every request.
	Progress func(Progress)
	// Nonce marks this scan's stamps; 0 picks a random one.
	Nonce uint64
}

// Surface is what a full scan saw: how much it read, the speed by position, and why it
// stopped early if it did.
type Surface struct {
	Mode         string `json:"mode"` // read, rewrite or destructive
	RequestBytes int64  `json:"request_bytes"`
	// ScannedBytes is the stretch the scan covered from byte 0 (a fake's usable size, else
	// the disk); OKBytes read (and, writing, held their pattern), BadBytes lie in
	// bad_regions, UnreadBytes were never read (error budget spent, interrupted, the device
	// gone).
	ScannedBytes int64 `json:"scanned_bytes"`
	OKBytes      int64 `json:"ok_bytes"`
	BadBytes     int64 `json:"bad_bytes"`
	UnreadBytes  int64 `json:"unread_bytes"`
	// Rates over the good requests, MB/s (10^6 bytes/s): the whole scan's and the median
	// request's (what slow zones are measured against).
	ReadMBPerS   float64 `json:"read_mb_per_s"`
	MedianMBPerS float64 `json:"median_mb_per_s"`
	WriteMBPerS  float64 `json:"write_mb_per_s,omitempty"`
	// Series is the read rate (and write rate, writing) by position, about 1000 points.
	Series []SeriesPoint `json:"series"`
	// Unread are the stretches never read, kind "unread".
	Unread []Region `json:"unread,omitempty"`
	// ErrorS is the time spent on errors; ErrorBudgetS the most it was allowed.
	ErrorS       float64 `json:"error_s"`
	ErrorBudgetS float64 `json:"error_budget_s"`
	DurationS    float64 `json:"duration_s"`
	// Stopped says why the scan ended early: "interrupted", "device-gone", "error-budget"
	// (errors left untrimmed), "" when it covered everything.
	Stopped string `json:"stopped,omitempty"`
}

// SlowZone is a stretch that read at less than half the median rate, in every request of
// at least slowZoneMinBytes, twice (read again to rule out a stall of the host).
type SlowZone struct {
	StartByte    int64   `json:"start_byte"`
	EndByte      int64   `json:"end_byte"`
	ReadMBPerS   float64 `json:"read_mb_per_s"`
	MedianMBPerS float64 `json:"median_mb_per_s"`
}

// RegionUnread is the kind of a stretch a scan never read.
const RegionUnread = "unread"

// Stop reasons.
const (
	StopInterrupted = "interrupted"
	StopDeviceGone  = "device-gone"
	StopErrorBudget = "error-budget"
)

// ErrDeviceGone is returned (wrapped) when the device stopped answering during a scan: a
// block that read fine before fails now.
var ErrDeviceGone = errors.New("the device stopped answering")

// ScanResult is what Scan returns: the surface, the bad regions (exact edges where they
// were trimmed), and the slow zones.
type ScanResult struct {
	Surface    Surface
	BadRegions []Region
	SlowZones  []SlowZone
	// BytesRead and BytesWritten count every I/O, retries and restores included.
	BytesRead, BytesWritten int64
	// RecoveryFile is the journal, kept because a request could not be put back.
	RecoveryFile string
}

// mapExt states of the scan's map.
type extState int

const (
	extNontried extState = iota // skipped, not read yet
	extFailed                   // a request that failed: bad blocks somewhere inside
	extBad                      // a block that failed alone (trimmed)
	extGood
)

type mapExt struct {
	start, end int64
	st         extState
	kind       string // failure kind of a bad mapExt
}

// timing is one good request of the first pass, for the speed map and slow zones.
type timing struct {
	off, n       int64
	read, wrote  time.Duration
	wroteAnyData bool
}

type scanner struct {
	o      ScanOptions
	ctx    context.Context
	io     *blockIO
	block  int64
	req    int64
	size   int64
	nonce  uint64
	jf     *journalFile
	exts   []mapExt // sorted, non-overlapping: what the scan knows
	timing []timing

	lastGood   int64 // a block that read fine most recently; -1 none
	errTime    time.Duration
	budget     time.Duration
	done       int64 // bytes dealt with, for progress
	start      time.Time
	corrupt    []Region
	wroteBytes int64
	wroteTime  time.Duration
	buf        []byte    // the read buffer of read mode, one request long
	reported   time.Time // the last progress report
}

// Scan reads (and in rewrite or destructive mode writes) every block of [0, SizeBytes) of
// dev. It returns what it saw even when it stops early (Ctrl-C, the device gone, an error);
// the error says why. Rewrite mode never leaves a request overwritten unless it cannot
// write it back, and then the journal holds it (RecoveryFile).
func Scan(ctx context.Context, dev Device, o ScanOptions) (*ScanResult, error) {
	lbs, err := logicalBlock(o.LogicalBlockBytes)
	if err != nil {
		return nil, err
	}
	block := max(int64(probeBlockBytes), lbs)
	if o.Mode == "" {
		o.Mode = ScanRead
	}
	if o.Mode != ScanRead && o.Mode != ScanRewrite && o.Mode != ScanDestructive {
		return nil, fmt.Errorf("scan mode %q: use %s, %s or %s", o.Mode, ScanRead, ScanRewrite, ScanDestructive)
	}
	req := o.RequestBytes
	if req <= 0 {
		req = DefaultScanRequestBytes
	}
	req = max(block, req/block*block)
	size := o.SizeBytes / block * block
	if size < block {
		return nil, fmt.Errorf("nothing to scan: %d bytes", o.SizeBytes)
	}
	budget := o.ErrorBudget
	if budget <= 0 {
		budget = DefaultScanErrorBudget
	}
	nonce := o.Nonce
	for nonce == 0 {
		var b [8]byte
		rand.Read(b[:])
		nonce = binary.LittleEndian.Uint64(b[:])
	}
	s := &scanner{o: o, ctx: ctx, io: &blockIO{dev: dev}, block: block, req: req, size: size, nonce: nonce,
		lastGood: -1, budget: budget, start: time.Now()}
	if o.Mode == ScanRewrite {
		if o.Journal == "" {
			return nil, errors.New("a rewrite scan needs a journal: nothing was written")
		}
		disk := o.DiskBytes
		if disk == 0 {
			disk = o.SizeBytes
		}
		jf, err := createJournal(o.Journal, JournalHeader{SizeBytes: disk, Nonce: nonce, BlockBytes: int(block),
			Identity: o.Identity, Device: o.Device, CreatedAt: time.Now()})
		if err != nil {
			return nil, fmt.Errorf("%w; nothing was written", err)
		}
		s.jf = jf
	}
	res := &ScanResult{}
	runErr := s.run()
	if s.jf != nil {
		if s.jf.pending {
			// A request that could not be put back: its original is in the journal.
			if err := s.jf.close(); err != nil {
				runErr = errors.Join(runErr, fmt.Errorf("closing the journal: %w", err))
			}
			res.RecoveryFile = s.jf.path
		} else if err := s.jf.remove(); err != nil {
			runErr = errors.Join(runErr, fmt.Errorf("every request is back, but the journal %s could not be removed (%v): delete it", s.jf.path, err))
		}
	}
	s.fill(res)
	switch {
	case runErr == nil:
	case errors.Is(runErr, ErrDeviceGone):
		res.Surface.Stopped = StopDeviceGone
	case ctx.Err() != nil && errors.Is(runErr, ctx.Err()):
		res.Surface.Stopped = StopInterrupted
		return res, fmt.Errorf("%w: %v", ErrInterrupted, runErr)
	}
	return res, runErr
}

// report calls Progress at most ten times a second (a fast drive finishes hundreds of
// requests a second), and always at the end.
func (s *scanner) report(msg string) {
	if s.o.Progress == nil {
		return
	}
	if now := time.Now(); now.Sub(s.reported) >= 100*time.Millisecond || s.done >= s.size {
		s.reported = now
		s.o.Progress(Progress{Phase: "scan", Message: msg, Done: s.done, Total: s.size})
	}
}

func (s *scanner) overBudget() bool { return s.errTime >= s.budget }

// run is the passes: forward in requests skipping ahead past errors, backwards over what was
// skipped, then each bad stretch's edges block by block; then the slow zones are read again.
func (s *scanner) run() error {
	s.exts = []mapExt{{0, s.size, extNontried, ""}}
	if err := s.forward(); err != nil {
		return err
	}
	if err := s.backward(); err != nil {
		return err
	}
	if err := s.trim(); err != nil {
		return err
	}
	return nil
}

// forward is the first pass: requests in order; after a failed one it skips ahead, the skip
// doubling with every failure in a row (ddrescue's), so a dead stretch costs a few failing
// reads, not one per request.
func (s *scanner) forward() error {
	skip := s.req
	maxSkip := max(s.req, s.size/64/s.block*s.block)
	for pos := int64(0); pos < s.size; {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		n := min(s.req, s.size-pos)
		t0 := time.Now()
		tm, err := s.try(pos, n)
		if err == nil {
			s.mark(pos, pos+n, extGood, "")
			s.timing = append(s.timing, tm)
			s.done += n
			pos += n
			skip = s.req
			s.report("reading every block")
			continue
		}
		if !isMediaError(err) {
			return s.fatal(err)
		}
		s.errTime += time.Since(t0)
		if err := s.checkGone(); err != nil {
			return err
		}
		s.mark(pos, pos+n, extFailed, FailureIOError)
		next := min(s.size, pos+n+skip)
		s.done += next - pos
		pos = next
		skip = min(skip*2, maxSkip)
		s.report("skipping past an unreadable stretch")
	}
	return nil
}

// backward reads each stretch the first pass skipped from its end towards its start, in
// requests, skipping again (doubling) past failures.
func (s *scanner) backward() error {
	var skipped []mapExt
	for _, e := range s.exts {
		if e.st == extNontried {
			skipped = append(skipped, e)
		}
	}
	for i := len(skipped) - 1; i >= 0; i-- {
		e := skipped[i]
		skip := s.req
		for pos := e.end; pos > e.start; {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			if s.overBudget() {
				return nil
			}
			n := min(s.req, pos-e.start)
			t0 := time.Now()
			_, err := s.try(pos-n, n)
			s.errTime += time.Since(t0)
			if err == nil {
				s.mark(pos-n, pos, extGood, "")
				pos -= n
				skip = s.req
				continue
			}
			if !isMediaError(err) {
				return s.fatal(err)
			}
			if err := s.checkGone(); err != nil {
				return err
			}
			s.mark(pos-n, pos, extFailed, FailureIOError)
			pos = max(e.start, pos-n-skip)
			skip *= 2
		}
		s.report("reading back over the skipped stretches")
	}
	return nil
}

// trim takes each stretch of failed and skipped extents apart from its edges, block by
// block, until a block fails at each end: what lies between is the bad region, its edges
// exact. Reading on into it (ddrescue's scraping) is not done: a bad stretch's inside costs
// the most time per byte and tells the least.
func (s *scanner) trim() error {
	for {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		if s.overBudget() {
			return nil
		}
		a, b, ok := s.nextUntrimmed()
		if !ok {
			return nil
		}
		s.report("trimming the edges of an unreadable stretch")
		first, stop, err := s.firstBadBlock(a, b, s.block)
		if err != nil || stop {
			return err
		}
		if first < 0 {
			continue // every block read: it was a transient failure
		}
		last, stop, err := s.firstBadBlock(b-s.block, first, -s.block)
		if err != nil || stop {
			return err
		}
		end := first + s.block
		if last > 0 {
			end = last + s.block
		}
		// The stretch between the two failing blocks is bad as a whole; its inside was read
		// only in the failed requests.
		s.mark(first, end, extBad, FailureIOError)
	}
}

// firstBadBlock tries the blocks from off towards end (not reached), step bytes apart, and
// returns the first that fails to read, -1 when none does; stop is set when the error budget
// runs out first.
func (s *scanner) firstBadBlock(off, end, step int64) (bad int64, stop bool, err error) {
	for ; (step > 0 && off < end) || (step < 0 && off > end); off += step {
		if s.overBudget() {
			return -1, true, nil
		}
		failed, err := s.tryBlock(off)
		if err != nil {
			return -1, false, err
		}
		if failed {
			return off, false, nil
		}
	}
	return -1, false, nil
}

// tryBlock reads (tests) one block at off in the trim phase, marking it; bad reports a
// media error.
func (s *scanner) tryBlock(off int64) (bool, error) {
	t0 := time.Now()
	_, err := s.try(off, s.block)
	s.errTime += time.Since(t0)
	if err == nil {
		s.mark(off, off+s.block, extGood, "")
		return false, nil
	}
	if !isMediaError(err) {
		return false, s.fatal(err)
	}
	if err := s.checkGone(); err != nil {
		return false, err
	}
	s.mark(off, off+s.block, extBad, FailureIOError)
	return true, nil
}

// nextUntrimmed returns the first maximal stretch of failed and skipped extents that holds
// a failed one (a skipped stretch alone was never tried: it stays unread).
func (s *scanner) nextUntrimmed() (int64, int64, bool) {
	for i := 0; i < len(s.exts); i++ {
		if s.exts[i].st != extFailed && s.exts[i].st != extNontried {
			continue
		}
		j := i
		failed := false
		for j < len(s.exts) && (s.exts[j].st == extFailed || s.exts[j].st == extNontried) {
			failed = failed || s.exts[j].st == extFailed
			j++
		}
		if failed {
			return s.exts[i].start, s.exts[j-1].end, true
		}
		i = j - 1
	}
	return 0, 0, false
}

// checkGone reads the block that read fine most recently again: failing now, the device is
// gone or dying, and the scan stops with the map so far.
func (s *scanner) checkGone() error {
	if s.lastGood < 0 {
		return nil
	}
	t0 := time.Now()
	_, err := s.io.read(s.lastGood, int(s.block))
	s.errTime += time.Since(t0)
	if err != nil {
		return fmt.Errorf("%w: byte %d read fine a moment ago and now fails (%v) — the device was pulled out, reset or is dying", ErrDeviceGone, s.lastGood, err)
	}
	return nil
}

func (s *scanner) fatal(err error) error {
	if isGone(err) {
		return fmt.Errorf("%w: %v", ErrDeviceGone, err)
	}
	return err
}

// try does the mode's I/O on [off, off+n): read; or read, journal, write the pattern, read
// it back and write the original back; or write the pattern and read it back. A media error
// is returned as it is (the caller skips or trims); blocks that read back wrong are kept as
// corrupt regions.
func (s *scanner) try(off, n int64) (timing, error) {
	tm := timing{off: off, n: n}
	switch s.o.Mode {
	case ScanDestructive:
		pat := alignedBuf(int(n))
		stampBlock(pat, off, s.nonce, 1)
		t0 := time.Now()
		if err := s.io.write(pat, off); err != nil {
			return tm, err
		}
		tm.wrote, tm.wroteAnyData = time.Since(t0), true
		t0 = time.Now()
		got, err := s.io.read(off, int(n))
		if err != nil {
			return tm, err
		}
		tm.read = time.Since(t0)
		s.check(got, pat, off)
	case ScanRead:
		if int64(len(s.buf)) < n {
			s.buf = alignedBuf(int(s.req))
		}
		t0 := time.Now()
		if err := s.io.readInto(s.buf[:n], off); err != nil {
			return tm, err
		}
		tm.read = time.Since(t0)
	default:
		t0 := time.Now()
		orig, err := s.io.read(off, int(n))
		if err != nil {
			return tm, err
		}
		tm.read = time.Since(t0)
		if s.o.Mode == ScanRewrite {
			w, err := s.rewrite(orig, off)
			if err != nil {
				return tm, err
			}
			tm.wrote, tm.wroteAnyData = w, true
		}
	}
	s.lastGood = off
	if tm.wroteAnyData {
		s.wroteBytes += n
		s.wroteTime += tm.wrote
	}
	return tm, nil
}

// rewrite saves orig (the data at off) in the journal, writes a stamped pattern over it,
// reads the pattern back and checks it, and writes orig back. The journal is emptied once
// orig is back; if it cannot be written back the journal keeps it and the scan stops.
func (s *scanner) rewrite(orig []byte, off int64) (time.Duration, error) {
	if err := s.jf.reset(); err != nil {
		return 0, errors.Join(errJournal, err)
	}
	for i := 0; i < len(orig); i += maxJournalEntryBytes {
		j := min(len(orig), i+maxJournalEntryBytes)
		if err := s.jf.append(off+int64(i), orig[i:j]); err != nil {
			return 0, errors.Join(errJournal, err)
		}
	}
	if err := s.jf.sync(); err != nil {
		return 0, errors.Join(errJournal, err)
	}
	s.jf.pending = true
	pat := alignedBuf(len(orig))
	stampBlock(pat, off, s.nonce, 1)
	t0 := time.Now()
	werr := s.io.write(pat, off)
	wrote := time.Since(t0)
	if werr == nil {
		if got, err := s.io.read(off, len(orig)); err == nil {
			s.check(got, pat, off)
		} else {
			werr = err
		}
	}
	// The original goes back whatever the pattern did; once more if the first write fails
	// (a USB reset can fail one command).
	back := s.io.write(orig, off)
	if back != nil {
		back = s.io.write(orig, off)
	}
	if back != nil && werr != nil && isMediaError(werr) {
		// A stretch that refuses writes: if it still holds the original, nothing landed.
		if got, err := s.io.read(off, len(orig)); err == nil && bytes.Equal(got, orig) {
			back = nil
		}
	}
	if back != nil {
		return wrote, fmt.Errorf("writing back what was at byte %d failed (%v): the journal %s holds it — when the device is back, run: iomark verify --restore %s DEVICE --confirm DEVICE",
			off, back, s.jf.path, s.jf.path)
	}
	s.jf.pending = false
	if werr != nil {
		return wrote, werr
	}
	return wrote, nil
}

var errJournal = errors.New("the journal cannot be written: stopped before overwriting anything more")

// check compares a pattern read back with what was written, and keeps the blocks that
// differ as corrupt regions (our stamp moved: a wrap; zeros or other data: lost writes).
func (s *scanner) check(got, pat []byte, off int64) {
	if bytes.Equal(got, pat) {
		return
	}
	for i := int64(0); i < int64(len(pat)); i += s.block {
		if bytes.Equal(got[i:i+s.block], pat[i:i+s.block]) {
			continue
		}
		kind := FailureCorrupt
		switch st, _, _ := checkSector(got[i:], off+i, s.nonce); st {
		case SectorMoved:
			kind = FailureWrap
		case SectorZeros, SectorOnes, SectorForeign:
			kind = FailureDropped
		}
		s.corrupt = appendRegion(s.corrupt, off+i, off+i+s.block, kind)
	}
}

// mark sets [a, b) to state st in the map.
func (s *scanner) mark(a, b int64, st extState, kind string) {
	out := make([]mapExt, 0, len(s.exts)+2)
	for _, e := range s.exts {
		if e.end <= a || e.start >= b {
			out = append(out, e)
			continue
		}
		if e.start < a {
			out = append(out, mapExt{e.start, a, e.st, e.kind})
		}
		if e.end > b {
			out = append(out, mapExt{b, e.end, e.st, e.kind})
		}
	}
	s.exts = append(out, mapExt{a, b, st, kind})
	s.mergeExts()
}

func (s *scanner) mergeExts() {
	sort.Slice(s.exts, func(i, j int) bool { return s.exts[i].start < s.exts[j].start })
	out := s.exts[:0]
	for _, e := range s.exts {
		if n := len(out); n > 0 && out[n-1].end == e.start && out[n-1].st == e.st && out[n-1].kind == e.kind {
			out[n-1].end = e.end
			continue
		}
		out = append(out, e)
	}
	s.exts = out
}

// fill turns the map and timings into the result.
func (s *scanner) fill(res *ScanResult) {
	sf := &res.Surface
	sf.Mode, sf.RequestBytes, sf.ScannedBytes = s.o.Mode, s.req, s.size
	sf.ErrorS, sf.ErrorBudgetS = s.errTime.Seconds(), s.budget.Seconds()
	untrimmed := false
	for _, e := range s.exts {
		switch e.st {
		case extGood:
			sf.OKBytes += e.end - e.start
		case extBad:
			res.BadRegions = append(res.BadRegions, Region{StartByte: e.start, EndByte: e.end, Kind: e.kind, Exact: true})
			sf.BadBytes += e.end - e.start
		case extFailed:
			// Failed, not trimmed (the budget ran out): bad blocks lie somewhere inside.
			res.BadRegions = append(res.BadRegions, Region{StartByte: e.start, EndByte: e.end, Kind: e.kind})
			sf.BadBytes += e.end - e.start
			untrimmed = true
		case extNontried:
			sf.Unread = append(sf.Unread, Region{StartByte: e.start, EndByte: e.end, Kind: RegionUnread})
			sf.UnreadBytes += e.end - e.start
		}
	}
	res.BadRegions = mergeRegions(res.BadRegions)
	for _, c := range s.corrupt {
		res.BadRegions = append(res.BadRegions, Region{StartByte: c.StartByte, EndByte: c.EndByte, Kind: c.Kind, Exact: true})
		sf.BadBytes += c.EndByte - c.StartByte
		sf.OKBytes -= c.EndByte - c.StartByte
	}
	slices.SortFunc(res.BadRegions, func(a, b Region) int { return int(a.StartByte - b.StartByte) })
	if untrimmed || (sf.UnreadBytes > 0 && s.overBudget()) {
		sf.Stopped = StopErrorBudget
	}
	var bytesOK int64
	var readT time.Duration
	for _, t := range s.timing {
		bytesOK += t.n
		readT += t.read
	}
	if readT > 0 {
		sf.ReadMBPerS = float64(bytesOK) / readT.Seconds() / 1e6
	}
	if s.wroteTime > 0 {
		sf.WriteMBPerS = float64(s.wroteBytes) / s.wroteTime.Seconds() / 1e6
	}
	sf.MedianMBPerS = medianRate(s.timing, s.req)
	sf.Series = s.series()
	res.SlowZones = s.slowZones(sf.MedianMBPerS)
	res.BytesRead, res.BytesWritten = s.io.bytesRead, s.io.bytesWritten
	sf.DurationS = time.Since(s.start).Seconds()
}

func mergeRegions(rs []Region) []Region {
	var out []Region
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1].EndByte == r.StartByte && out[n-1].Kind == r.Kind {
			out[n-1].EndByte = r.EndByte
			out[n-1].Exact = out[n-1].Exact && r.Exact
			continue
		}
		out = append(out, r)
	}
	return out
}

func rateOf(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds() / 1e6
}

// medianRate is the median read rate of the full-size requests.
func medianRate(ts []timing, req int64) float64 {
	var r []float64
	for _, t := range ts {
		if t.n == req && t.read > 0 {
			r = append(r, rateOf(t.n, t.read))
		}
	}
	if len(r) == 0 {
		return 0
	}
	slices.Sort(r)
	if len(r)%2 == 1 {
		return r[len(r)/2]
	}
	return (r[len(r)/2-1] + r[len(r)/2]) / 2
}

// series sums the first pass's good requests into about seriesPoints stretches.
func (s *scanner) series() []SeriesPoint {
	step := max(s.req, (s.size/seriesPoints+s.req-1)/s.req*s.req)
	var out []SeriesPoint
	var cur *SeriesPoint
	var rt, wt time.Duration
	flush := func() {
		if cur != nil {
			cur.ReadMBPerS = rateOf(cur.Bytes, rt)
			cur.WriteMBPerS = rateOf(cur.Bytes, wt)
			out = append(out, *cur)
		}
	}
	for _, t := range s.timing {
		at := t.off / step * step
		if cur == nil || cur.OffsetBytes != at {
			flush()
			cur, rt, wt = &SeriesPoint{OffsetBytes: at}, 0, 0
		}
		cur.Bytes += t.n
		rt += t.read
		wt += t.wrote
	}
	flush()
	return out
}

// slowZones finds runs of requests reading below half the median, at least
// slowZoneMinBytes long, reads each again and keeps the requests that are slow both times
// (a stall of the host or a drive's housekeeping does not come back at the same place).
func (s *scanner) slowZones(median float64) []SlowZone {
	if median <= 0 {
		return nil
	}
	slow := func(n int64, d time.Duration) bool { return rateOf(n, d) < median/2 }
	runs := slowRuns(s.timing, slow)
	if len(runs) == 0 {
		return nil
	}
	// Read each candidate again (read only: never rewritten for this), keeping the faster
	// time of the two.
	again := slices.Clone(s.timing)
	for _, r := range runs {
		for i := r[0]; i < r[1]; i++ {
			if s.ctx.Err() != nil {
				break
			}
			t0 := time.Now()
			if _, err := s.io.read(again[i].off, int(again[i].n)); err == nil {
				again[i].read = min(again[i].read, time.Since(t0))
			}
		}
	}
	var out []SlowZone
	for _, r := range slowRuns(again, slow) {
		var n int64
		var d time.Duration
		for i := r[0]; i < r[1]; i++ {
			n += again[i].n
			d += again[i].read
		}
		out = append(out, SlowZone{StartByte: again[r[0]].off, EndByte: again[r[1]-1].off + again[r[1]-1].n,
			ReadMBPerS: rateOf(n, d), MedianMBPerS: median})
	}
	return out
}

// slowRuns returns [i, j) index ranges of adjacent slow requests covering at least
// slowZoneMinBytes.
func slowRuns(ts []timing, slow func(int64, time.Duration) bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(ts); {
		if !slow(ts[i].n, ts[i].read) {
			i++
			continue
		}
		j, n := i, int64(0)
		for j < len(ts) && slow(ts[j].n, ts[j].read) && (j == i || ts[j].off == ts[j-1].off+ts[j-1].n) {
			n += ts[j].n
			j++
		}
		if n >= slowZoneMinBytes {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

// logicalBlock is the device's logical block size in bytes (0 means 512), refused unless a
// power of two from 512 bytes to 64 KiB.
func logicalBlock(n int) (int64, error) {
	lbs := int64(n)
	if lbs == 0 {
		lbs = SectorBytes
	}
	if lbs < SectorBytes || lbs&(lbs-1) != 0 || lbs > 64<<10 {
		return 0, fmt.Errorf("logical block size %d bytes is not a power of two between 512 and 64 KiB", lbs)
	}
	return lbs, nil
}
