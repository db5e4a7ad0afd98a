package flash

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// Fill checks a mounted filesystem the way f3write and f3read do: it fills the free space
// (minus a margin, or SizeBytes) with files of stamped sectors in a working directory, reads
// them back, and removes them — also when ctx ends or anything fails. Leftovers of killed
// runs in the directory are removed first. The result's Fill holds the counts, where the bad
// bytes are, and the write and read rates by position.
func Fill(ctx context.Context, o FillOptions) (*Result, error) {
	start := time.Now()
	fi, err := os.Stat(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: give a directory on the mounted card, or the card's whole disk to probe", o.Dir)
	}
	swept, err := sweepLeftovers(o.Dir, o.Root)
	if err != nil {
		return nil, fmt.Errorf("looking for leftovers of earlier runs in %s: %w", o.Dir, err)
	}
	free, total, err := fillBytes(o)
	if err != nil {
		return nil, err
	}
	fileBytes := o.FileBytes
	if fileBytes <= 0 {
		fileBytes = defaultFillFileBytes
	}
	fileBytes = max(fillChunkBytes, fileBytes/fillChunkBytes*fillChunkBytes)
	nonce := o.Nonce
	for nonce == 0 {
		var b [8]byte
		rand.Read(b[:])
		nonce = binary.LittleEndian.Uint64(b[:])
	}

	wd := filepath.Join(o.Dir, fmt.Sprintf("%s%d-%016x", fillDirPrefix, os.Getpid(), nonce))
	if err := os.Mkdir(wd, 0o700); err != nil {
		return nil, fmt.Errorf("making the working directory in %s: %w", o.Dir, err)
	}
	f := &fill{o: o, ctx: ctx, wd: wd, nonce: nonce, total: total, fileBytes: fileBytes, direct: true,
		writeFailAt: -1, failedChunks: map[int64]bool{}, mapped: true, firstBad: -1, lastGood: -1}
	f.report = &FillReport{Dir: o.Dir, FreeBytes: free, FileBytes: fileBytes, Swept: swept, Direct: true}
	res := &Result{Mode: ModeFill, Target: o.Dir, Verdict: Unknown, GranularityBytes: SectorBytes, Fill: f.report}
	defer func() {
		if _, err := removeFillDir(wd); err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("could not remove %s: %v — remove it by hand", wd, err))
		}
	}()
	if err := os.WriteFile(filepath.Join(wd, ownerFile), []byte(selfOwner(o.Root).String()), 0o600); err != nil {
		return res, fmt.Errorf("writing %s: %w", filepath.Join(wd, ownerFile), err)
	}
	f.bucket = max(int64(8<<20), total/fillSeriesPoints/fillChunkBytes*fillChunkBytes)

	runErr := f.write()
	if runErr == nil {
		runErr = f.read()
	}
	res.ClaimedBytes = f.written
	if runErr == nil && f.writeFailAt >= 0 {
		res.ClaimedBytes = f.total
		f.bad(f.writeFailAt, f.total-f.writeFailAt, FailureIOError, SectorForeign, -1)
	}
	res.BytesWritten, res.BytesRead = f.written-f.refusedBytes, f.readBytes
	res.DurationS = time.Since(start).Seconds()
	res.VerdictS = res.DurationS
	f.report.Files = f.files
	f.report.Direct = f.direct
	if !f.direct {
		res.Notes = append(res.Notes, "the filesystem refused O_DIRECT: files were written through the page cache, flushed and dropped before reading back, so the write rates are less exact")
	}
	res.Notes = append(res.Notes, f.notes...)
	if runErr != nil {
		if ctx.Err() != nil {
			res.Interrupted = true
			return res, fmt.Errorf("%w: %v (the test files were removed)", ErrInterrupted, runErr)
		}
		return res, fmt.Errorf("%v (the test files were removed)", runErr)
	}
	fillVerdict(res, f.report, f.firstBad, f.fakeEnd(res), f.kind, f.seen)
	if res.Failure == FailureIOError {
		switch {
		case f.writesRefused && f.readsRefused:
			res.FailureDetail = "writes and reads fail with I/O errors"
		case f.writesRefused:
			res.FailureDetail = "writes fail with I/O errors"
		}
	}
	return res, nil
}

// fillBytes is the free space of o.Dir and how much of it the fill writes: o.SizeBytes, or all
// but a margin, in whole chunks.
func fillBytes(o FillOptions) (free, total int64, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(o.Dir, &st); err != nil {
		return 0, 0, fmt.Errorf("statfs %s: %w", o.Dir, err)
	}
	free = int64(st.Bavail) * int64(st.Bsize)
	margin := max(int64(fillMarginMinBytes), free/200)
	total = free - margin
	if o.SizeBytes > 0 {
		if o.SizeBytes > total {
			return 0, 0, fmt.Errorf("%s has %s free; iomark verify --size %s does not fit with the %s margin left free: give a smaller --size", o.Dir, sizeText(free), sizeText(o.SizeBytes), sizeText(margin))
		}
		total = o.SizeBytes
	}
	total = total / fillChunkBytes * fillChunkBytes
	if total < fillChunkBytes {
		return 0, 0, fmt.Errorf("%s has %s free: too little to test (at least %s beyond a %s margin)", o.Dir, sizeText(free), sizeText(fillChunkBytes), sizeText(margin))
	}
	return free, total, nil
}

// maxWriteFails is how many chunks in a row may fail to write before the fill stops: 64 MiB
// of refused writes is the end of the drive, not a bad spot.
const maxWriteFails = 16

type fill struct {
	o         FillOptions
	ctx       context.Context
	wd        string
	nonce     uint64
	total     int64 // bytes to write
	fileBytes int64
	direct    bool
	report    *FillReport
	bucket    int64
	written   int64
	readBytes int64
	files     int
	notes     []string

	firstBad, lastGood int64 // stream positions; -1 when none
	writeFailAt        int64 // where writing stopped after repeated media errors; -1 when it did not
	failedChunks       map[int64]bool
	// Where the good and bad bytes lie on the filesystem's device (FIEMAP), merged; mapped
	// is false when the filesystem cannot say.
	mapped            bool
	goodPhys, badPhys []Region
	unmappedBad       int64 // bad bytes whose device position is unknown
	exts              []extent
	cur               int
	badAfterFirst     int64 // bad bytes at or after firstBad
	kind              string
	seen              SectorState
	// A bucket of the series that held a refused write or read has no rate: failing I/O
	// returns at once and would read as the drive's fastest stretch.
	bucketFailed                bool
	writesRefused, readsRefused bool
	refusedBytes                int64 // writes the drive refused: counted in written, never landed
}

// write fills the files, one chunk at a time, stamping each sector with its position in
// the stream of all files.
func (f *fill) write() error {
	buf := alignedBuf(fillChunkBytes)
	var b bucket
	phaseStart := time.Now()
	fails := 0
	for f.written < f.total {
		path := filepath.Join(f.wd, fillFileName(f.files))
		fd, err := f.create(path)
		if err != nil {
			return err
		}
		f.files++
		full, err := f.writeFile(fd, path, buf, &b, &fails)
		if err != nil {
			unix.Close(fd)
			return err
		}
		if err := f.closeWritten(fd, path); err != nil {
			if !isMediaError(err) {
				return err
			}
			// The page cache took the data and the drive refused it at fsync: this
			// file's data is suspect; reading it back tells.
			f.notes = append(f.notes, fmt.Sprintf("flushing %s failed: %v", path, err))
		}
		if full {
			break
		}
	}
	if b.bytes > 0 {
		f.point(f.written-b.bytes, b.bytes, time.Since(b.start), true)
	}
	if d := time.Since(phaseStart).Seconds(); d > 0 {
		f.report.WriteMBPerS = float64(f.written) / d / 1e6 // file creation and fsync included
	}
	return nil
}

// bucket is the stretch of the series being timed: when its first I/O began and its bytes
// so far.
type bucket struct {
	start time.Time
	bytes int64
}

// writeFile writes the next file, open as fd, chunk by chunk, counting fails, the writes
// refused in a row; full says the filling ends with it (no room left, or the drive refuses
// everything from here on).
func (f *fill) writeFile(fd int, path string, buf []byte, b *bucket, fails *int) (full bool, err error) {
	size := min(f.fileBytes, f.total-f.written)
	for off := int64(0); off < size; {
		if err := f.ctx.Err(); err != nil {
			return false, err
		}
		pos := f.written
		stampBlock(buf, pos, f.nonce, 0)
		if b.bytes == 0 {
			b.start = time.Now()
		}
		n, err := unix.Pwrite(fd, buf, off)
		if n > 0 {
			off += int64(n)
			f.written += int64(n)
			b.bytes += int64(n)
		}
		if err != nil || n < len(buf) {
			if errors.Is(err, unix.ENOSPC) || err == nil {
				f.notes = append(f.notes, fmt.Sprintf("the filesystem ran out of room after %s, though it reported %s free", sizeText(f.written), sizeText(f.report.FreeBytes)))
				return true, nil
			}
			if !isMediaError(err) {
				return false, fmt.Errorf("writing %s at %d: %w", path, off, err)
			}
			// The drive refused this chunk: it is bad; go on with the next, unless the
			// drive refuses everything from here on (a fake's end, or a dead drive).
			f.failedChunks[pos] = true
			f.bucketFailed, f.writesRefused = true, true
			f.refusedBytes += int64(len(buf))
			f.bad(pos, int64(len(buf)), FailureIOError, SectorForeign, -1)
			off += int64(len(buf))
			f.written += int64(len(buf))
			b.bytes += int64(len(buf))
			if *fails++; *fails >= maxWriteFails {
				f.writeFailAt = f.written
				f.notes = append(f.notes, fmt.Sprintf("writing failed %d times in a row (%v) at %s: the rest of the space was not written", *fails, err, sizeText(f.written)))
				return true, nil
			}
			continue
		}
		*fails = 0
		if b.bytes >= f.bucket || f.written == f.total {
			f.point(pos+int64(len(buf))-b.bytes, b.bytes, time.Since(b.start), true)
			b.bytes, f.bucketFailed = 0, false
		}
		f.progress("write", f.written, f.total)
	}
	return false, nil
}

// create opens a new file with O_DIRECT, falling back to the page cache where the
// filesystem refuses O_DIRECT (then every file is fsynced and dropped from the cache).
func (f *fill) create(path string) (int, error) {
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_CLOEXEC
	if f.direct {
		fd, err := unix.Open(path, flags|unix.O_DIRECT, 0o600)
		if err == nil {
			return fd, nil
		}
		if !errors.Is(err, unix.EINVAL) {
			return -1, fmt.Errorf("creating %s: %w", path, err)
		}
		f.direct = false
		os.Remove(path)
	}
	fd, err := unix.Open(path, flags, 0o600)
	if err != nil {
		return -1, fmt.Errorf("creating %s: %w", path, err)
	}
	return fd, nil
}

func (f *fill) closeWritten(fd int, path string) error {
	err := unix.Fsync(fd)
	if err == nil && !f.direct {
		err = unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED)
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("flushing %s: %w", path, err)
	}
	return nil
}

// read reads every file back and judges every sector against its place in the stream.
func (f *fill) read() error {
	buf := alignedBuf(fillChunkBytes)
	var pos int64
	pt := 0
	var b bucket
	phaseStart := time.Now()
	for i := 0; i < f.files; i++ {
		var err error
		if pos, err = f.readFile(filepath.Join(f.wd, fillFileName(i)), pos, buf, &b, &pt); err != nil {
			return err
		}
	}
	if d := time.Since(phaseStart).Seconds(); d > 0 {
		f.report.ReadMBPerS = float64(f.readBytes) / d / 1e6
	}
	return nil
}

// readFile reads back the file at path, which holds the stream from pos, chunk by chunk, and
// returns where the next file's part of the stream begins; pt is the series point the
// bucket's read rate goes to.
func (f *fill) readFile(path string, pos int64, buf []byte, b *bucket, pt *int) (int64, error) {
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if f.direct {
		flags |= unix.O_DIRECT
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		return pos, fmt.Errorf("opening %s to read it back: %w", path, err)
	}
	defer unix.Close(fd)
	if !f.direct {
		unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED)
	}
	var exts []extent
	if f.mapped {
		if exts, err = fileExtents(fd); err != nil {
			f.mapped = false
		}
	}
	f.exts, f.cur = exts, 0
	size := min(f.fileBytes, f.written-pos)
	for off := int64(0); off < size; {
		if err := f.ctx.Err(); err != nil {
			return pos, err
		}
		want := int(min(int64(len(buf)), size-off))
		if b.bytes == 0 {
			b.start = time.Now()
		}
		if f.failedChunks[pos] { // its write failed: counted already, nothing to read
			f.bucketFailed = true
			off += int64(want)
			pos += int64(want)
			b.bytes += int64(want)
			continue
		}
		n, err := unix.Pread(fd, buf[:want], off)
		if n < 0 {
			n = 0
		}
		f.readBytes += int64(n)
		switch {
		case err != nil && (isMediaError(err) || errors.Is(err, unix.EUCLEAN) || errors.Is(err, unix.EBADMSG)):
			// EUCLEAN, EBADMSG: the filesystem found its own structures damaged (on a
			// fake card, by data written past the real size)
			f.bucketFailed, f.readsRefused = true, true
			f.readFailed(fd, buf[:want], pos, off)
		case err != nil:
			return pos, fmt.Errorf("reading %s at %d: %w", path, off, err)
		default:
			f.judge(buf[:n], pos, off)
			if n < want { // the file is shorter than written
				f.bad(pos+int64(n), int64(want-n), FailureDropped, SectorForeign, -1)
			}
		}
		off += int64(want)
		pos += int64(want)
		b.bytes += int64(want)
		if b.bytes >= f.bucket || pos == f.written {
			d := time.Since(b.start).Seconds()
			if *pt < len(f.report.Series) && d > 0 && !f.bucketFailed {
				f.report.Series[*pt].ReadMBPerS = float64(b.bytes) / d / 1e6
			}
			*pt++
			b.bytes, f.bucketFailed = 0, false
		}
		f.progress("read", pos, f.written)
	}
	return pos, nil
}

// readFailed reads a chunk that failed again in 64 KiB pieces, so one bad spot does not
// count a whole chunk.
func (f *fill) readFailed(fd int, buf []byte, pos, off int64) {
	const piece = 64 << 10
	for i := 0; i < len(buf); i += piece {
		p := buf[i:min(i+piece, len(buf))]
		n, err := unix.Pread(fd, p, off+int64(i))
		if err != nil || n < len(p) {
			f.bad(pos+int64(i), int64(len(p)), FailureIOError, SectorForeign, physAt(f.exts, &f.cur, off+int64(i)))
			continue
		}
		f.readBytes += int64(n)
		f.judge(p, pos+int64(i), off+int64(i))
	}
}

// judge counts each sector of b, which holds the stream from pos (file offset off).
func (f *fill) judge(b []byte, pos, off int64) {
	for i := 0; i+SectorBytes <= len(b); i += SectorBytes {
		st, _, _ := checkSector(b[i:i+SectorBytes], pos+int64(i), f.nonce)
		phys := int64(-1)
		if f.mapped {
			phys = physAt(f.exts, &f.cur, off+int64(i))
		}
		switch st {
		case SectorGood:
			f.report.OKBytes += SectorBytes
			f.lastGood = pos + int64(i)
			if phys >= 0 {
				f.goodPhys = addPhys(f.goodPhys, phys, SectorBytes)
			}
		case SectorMoved:
			f.bad(pos+int64(i), SectorBytes, FailureWrap, st, phys)
		case SectorCorrupt:
			f.bad(pos+int64(i), SectorBytes, FailureCorrupt, st, phys)
		default:
			f.bad(pos+int64(i), SectorBytes, FailureDropped, st, phys)
		}
	}
}

// addPhys adds [phys, phys+n) to sorted-by-arrival merged ranges: sequential reads of a
// file mostly extend the last one.
func addPhys(rs []Region, phys, n int64) []Region {
	if k := len(rs); k > 0 && rs[k-1].EndByte == phys {
		rs[k-1].EndByte += n
		return rs
	}
	return append(rs, Region{StartByte: phys, EndByte: phys + n})
}

func (f *fill) bad(pos, n int64, kind string, st SectorState, phys int64) {
	r := f.report
	switch kind {
	case FailureWrap:
		r.OverwrittenBytes += n
	case FailureCorrupt:
		r.CorruptedBytes += n
	case FailureIOError:
		r.FailedBytes += n
	default:
		r.ChangedBytes += n
	}
	if phys >= 0 {
		f.badPhys = addPhys(f.badPhys, phys, n)
	} else if kind != FailureIOError || f.writeFailAt < 0 || pos < f.writeFailAt {
		f.unmappedBad += n
	}
	if f.firstBad < 0 || pos < f.firstBad {
		f.firstBad, f.kind, f.seen = pos, kind, st
	}
	f.badAfterFirst += n
	if k := len(r.BadRanges); k > 0 && r.BadRanges[k-1].EndByte == pos && r.BadRanges[k-1].Kind == kind {
		r.BadRanges[k-1].EndByte += n
		return
	}
	if len(r.BadRanges) < maxBadRanges {
		r.BadRanges = append(r.BadRanges, Region{StartByte: pos, EndByte: pos + n, Kind: kind, Exact: true})
	}
}

// fakeEnd decides whether the bad bytes are a fake drive's end rather than damaged spots.
// With the filesystem's map (FIEMAP) it looks where they lie on the device: a fake loses
// everything past its real size, so the bad bytes sit above the good ones (up to what a
// drive cache may still serve: the larger of 64 MiB and 2% of the fill may read back good
// above them), and the usable size is where they start. Without a map it falls back to the
// stream: nearly everything from the first bad byte on is bad, or half the fill is.
func (f *fill) fakeEnd(res *Result) bool {
	if f.firstBad < 0 {
		return false
	}
	if f.writeFailAt >= 0 {
		// The filesystem keeps handing out the blocks a failed write gave back, so the fill
		// cannot get past a bad stretch and cannot tell a dying drive from a fake's end.
		res.Notes = append(res.Notes, "the drive refused writes part way: it is damaged, or a fake that fails I/O past its real size — iomark verify on the whole disk (probe) tells which")
		return false
	}
	if f.mapped && len(f.badPhys) > 0 && f.unmappedBad == 0 {
		minBad := f.badPhys[0].StartByte
		for _, r := range f.badPhys {
			minBad = min(minBad, r.StartByte)
		}
		var goodAbove int64
		for _, r := range f.goodPhys {
			if r.EndByte > minBad {
				goodAbove += r.EndByte - max(r.StartByte, minBad)
			}
		}
		f.report.FirstBadDeviceByte = &minBad
		return goodAbove <= max(64<<20, res.ClaimedBytes/50)
	}
	if f.tailBad() {
		return true
	}
	return float64(f.badAfterFirst) >= 0.5*float64(res.ClaimedBytes)
}

// tailBad reports whether nearly everything from the first bad byte on is bad: what a fake
// drive's end looks like, as opposed to damaged spots.
func (f *fill) tailBad() bool {
	if f.firstBad < 0 {
		return false
	}
	return float64(f.badAfterFirst) >= 0.9*float64(max(f.written, f.total*boolInt(f.writeFailAt >= 0))-f.firstBad)
}

func (f *fill) point(off, n int64, d time.Duration, write bool) {
	if s := d.Seconds(); s > 0 && write {
		p := SeriesPoint{OffsetBytes: off, Bytes: n}
		if !f.bucketFailed {
			p.WriteMBPerS = float64(n) / s / 1e6
		}
		f.report.Series = append(f.report.Series, p)
	}
}

func (f *fill) progress(phase string, done, total int64) {
	if f.o.Progress != nil {
		f.o.Progress(Progress{Phase: phase, Done: done, Total: total})
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
