package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// StreamSpec describes a sequential write of data that arrives from a reader, as a network
// copy's receiving side does: what arrives goes, block after block, to one new test file in
// Dir, written with O_DIRECT from a ring of aligned buffers that decouples the reader from the
// drive, and the file is removed at the end whatever happens.
type StreamSpec struct {
	Dir       string // an existing directory: the only place anything is written
	BlockSize int    // bytes per write; 0 means 1 MiB
	Buffers   int    // blocks in the ring between the reader and the writer; 0 means 16
	// MaxBytes is what the stream carries; reading stops there (0: until the source ends).
	MaxBytes int64
	// SeriesInterval spaces the per-interval rates; 0 means 1 s.
	SeriesInterval time.Duration
	// Abort, if set, is called once when the stream stops before its source ended (the
	// drive is full, ctx was cancelled): it must make a blocked Read of the source return
	// (closing a connection does).
	Abort func()
	// Progress, if set, is called once per interval from the sampling goroutine.
	Progress func(StreamProgress)
}

// StreamProgress is one interval of a running stream.
type StreamProgress struct {
	Elapsed       time.Duration
	ReceivedBytes int64
	WrittenBytes  int64
	NetMBPerS     float64 // received over the last interval
	DriveMBPerS   float64 // written over the last interval
}

// How a stream ended (StreamResult.Ended).
const (
	StreamComplete    = "complete"      // MaxBytes arrived and were written
	StreamSourceEnded = "sender-closed" // the source ended before MaxBytes
	StreamSourceError = "source-error"  // reading the source failed (SourceErr says how)
	StreamDriveFull   = "drive-full"    // the filesystem ran out of space
	StreamDriveError  = "drive-error"   // a write or the final sync failed (the error says how)
	StreamInterrupted = "interrupted"   // ctx was cancelled
)

// StreamResult is what a stream measured.
type StreamResult struct {
	Path          string // the test file (removed)
	ReceivedBytes int64
	WrittenBytes  int64
	DurationS     float64 // first byte received to the end of the final fsync
	WriteBusyS    float64 // time inside pwrite and the final fsync
	// WriterWaitS is the time the writer waited for data (the source was slower than the
	// drive); ReaderWaitS the time the reader waited for a free buffer (the drive was slower).
	WriterWaitS, ReaderWaitS float64
	DriveSeries              []Point // bytes written per interval, as MB/s
	NetSeries                []Point // bytes received per interval, as MB/s
	Ended                    string
	SourceErr                error
	Direct                   bool
}

// streamSlot is one buffer of the ring and how many bytes it holds.
type streamSlot struct {
	buf []byte
	n   int
}

// WriteStream writes what src carries to a new file in s.Dir and removes the file at the end
// (success, error and cancellation alike). It returns the figures even when the stream ended
// early (Ended says why); the error is for failures of the drive or the file other than a
// full disk, and for a named copy it could not remove (the figures stand: the error names the
// file to remove).
func WriteStream(ctx context.Context, s StreamSpec, src io.Reader) (res *StreamResult, err error) {
	s, align, err := checkStream(s)
	if err != nil {
		return nil, err
	}
	t, err := openStreamFile(s.Dir, align)
	if err != nil {
		return nil, err
	}
	res = &StreamResult{Path: t.path, Direct: true}
	defer func() {
		_ = unix.Close(t.fd)
		if !t.unlink {
			return // an O_TMPFILE copy has no name: closing it freed its space
		}
		if rmErr := os.Remove(t.path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) && err == nil {
			err = fmt.Errorf("removing the copy's file %s: %w — remove it by hand", t.path, rmErr)
		}
	}()

	st := newStream(s, src)
	readerDone := make(chan struct{})
	go st.read(readerDone)
	samplerDone := make(chan struct{})
	samplerStop := make(chan struct{})
	go st.sample(res, samplerStop, samplerDone)
	start := time.Now()

	w := st.write(ctx, t, align)
	busy, offset, writeErr, ended := w.busy, w.offset, w.err, w.ended
	if ended != "" {
		st.halt()
	}
	// Wait for the reader (Abort unblocks it); one that never returns is abandoned.
	select {
	case <-readerDone:
	case <-time.After(5 * time.Second):
	}
	// Make what was written durable, and timed as the drive's work.
	t0 := time.Now()
	if err := unix.Fdatasync(t.fd); err != nil && writeErr == nil && ended != StreamDriveFull {
		writeErr = ioError(t, true, 0, 0, err)
		ended = StreamDriveError
	}
	busy += time.Since(t0)
	if offset%int64(align) != 0 {
		_ = unix.Ftruncate(t.fd, offset)
	}
	end := time.Now()
	close(samplerStop)
	<-samplerDone

	firstByte := start
	if ns := st.firstByteNS.Load(); ns != 0 {
		firstByte = time.Unix(0, ns)
	}
	res.ReceivedBytes, res.WrittenBytes = st.received.Load(), st.written.Load()
	res.DurationS = end.Sub(firstByte).Seconds()
	res.WriteBusyS = busy.Seconds()
	res.WriterWaitS, res.ReaderWaitS = w.wait.Seconds(), time.Duration(st.readerWaitNS.Load()).Seconds()
	res.Ended, res.SourceErr = st.end(ended, res.ReceivedBytes)
	return res, writeErr
}

// writerTally is what the writer did: the time in writes and waiting for data, how far it
// wrote, and why it stopped before the ring closed ("" when it did not).
type writerTally struct {
	busy, wait time.Duration
	offset     int64
	ended      string
	err        error
}

// write is the writer: block after block from the ring, in the order read, until the ring
// closes, ctx ends or a write fails.
func (st *stream) write(ctx context.Context, t *target, align int) (w writerTally) {
	for {
		w0 := time.Now()
		var slot *streamSlot
		var ok bool
		select {
		case slot, ok = <-st.full:
		case <-ctx.Done():
			w.ended = StreamInterrupted
			return w
		}
		if !ok {
			return w
		}
		w.wait += time.Since(w0)
		n := slot.n
		b := slot.buf[:n]
		if n%align != 0 { // the last, partial block: pad to the alignment, cut the file after
			padded := (n + align - 1) / align * align
			clear(slot.buf[n:padded])
			b = slot.buf[:padded]
		}
		t0 := time.Now()
		_, err := pwriteFull(t.fd, b, w.offset)
		w.busy += time.Since(t0)
		if err != nil {
			if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) {
				w.ended = StreamDriveFull
			} else {
				w.err = ioError(t, true, w.offset, len(b), err)
				w.ended = StreamDriveError
			}
			return w
		}
		w.offset += int64(n)
		st.written.Add(int64(n))
		slot.n = 0
		st.free <- slot
	}
}

// checkStream fills in s's defaults and checks it against s.Dir, returning the alignment
// direct I/O needs there.
func checkStream(s StreamSpec) (StreamSpec, int, error) {
	if s.BlockSize == 0 {
		s.BlockSize = 1 << 20
	}
	if s.Buffers <= 0 {
		s.Buffers = 16
	}
	if s.SeriesInterval <= 0 {
		s.SeriesInterval = time.Second
	}
	if s.BlockSize < MinBlockSize || s.BlockSize > MaxBlockSize || s.BlockSize%MinBlockSize != 0 {
		return s, 0, fmt.Errorf("block size %d: use a multiple of 512 between 512 and 16m", s.BlockSize)
	}
	fi, err := os.Stat(s.Dir)
	if err != nil || !fi.IsDir() {
		return s, 0, fmt.Errorf("%s is not a directory: the copy is written to one file inside a directory you name", s.Dir)
	}
	align, err := dioAlign(s.Dir, true)
	if err != nil {
		return s, 0, err
	}
	if s.BlockSize%align != 0 {
		return s, 0, fmt.Errorf("block size %d is not a multiple of the %d-byte alignment direct I/O needs here", s.BlockSize, align)
	}
	return s, align, nil
}

// stream is what a WriteStream's reader, writer and sampler share: the ring's free and full
// slots, the counts, and the signal that stops the reader.
type stream struct {
	s          StreamSpec
	src        io.Reader
	free, full chan *streamSlot

	received, written, readerWaitNS, firstByteNS atomic.Int64

	stop     chan struct{}
	stopOnce sync.Once
	srcMu    sync.Mutex
	srcEnd   error // io.EOF when the source ended cleanly
}

// newStream makes the ring of s.Buffers blocks, every slot free. The buffers are allocated by
// Go and aligned by hand: the reader may still hold one when the stream is abandoned, which
// an unmapped buffer would not survive.
func newStream(s StreamSpec, src io.Reader) *stream {
	st := &stream{s: s, src: src, free: make(chan *streamSlot, s.Buffers), full: make(chan *streamSlot, s.Buffers),
		stop: make(chan struct{})}
	ring := make([]byte, s.Buffers*s.BlockSize+4096)
	off := (4096 - int(uintptr(unsafe.Pointer(&ring[0]))%4096)) % 4096
	for i := 0; i < s.Buffers; i++ {
		b := ring[off+i*s.BlockSize : off+(i+1)*s.BlockSize : off+(i+1)*s.BlockSize]
		st.free <- &streamSlot{buf: b}
	}
	return st
}

// halt stops the reader, once, and calls Abort to unblock a Read of the source.
func (st *stream) halt() {
	st.stopOnce.Do(func() {
		close(st.stop)
		if st.s.Abort != nil {
			st.s.Abort()
		}
	})
}

// read is the reader: it fills free slots from the source and hands them to the writer until
// the source ends, MaxBytes have arrived or the stream is halted; then it closes full and done.
func (st *stream) read(done chan<- struct{}) {
	defer close(done)
	defer close(st.full)
	s := st.s
	for {
		if s.MaxBytes > 0 && st.received.Load() >= s.MaxBytes {
			return
		}
		w0 := time.Now()
		var slot *streamSlot
		select {
		case slot = <-st.free:
		case <-st.stop:
			return
		}
		st.readerWaitNS.Add(int64(time.Since(w0)))
		want := len(slot.buf)
		if s.MaxBytes > 0 {
			want = int(min(int64(want), s.MaxBytes-st.received.Load()))
		}
		n, rerr := io.ReadFull(st.src, slot.buf[:want])
		if n > 0 {
			st.firstByteNS.CompareAndSwap(0, time.Now().UnixNano())
			st.received.Add(int64(n))
			slot.n = n
			st.full <- slot
		}
		if rerr != nil {
			if errors.Is(rerr, io.ErrUnexpectedEOF) {
				rerr = io.EOF
			}
			st.srcMu.Lock()
			st.srcEnd = rerr
			st.srcMu.Unlock()
			return
		}
	}
}

// sample is the sampler: one point of both rates into res per interval, and a progress
// report, until stop is closed; then it closes done.
func (st *stream) sample(res *StreamResult, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	s := st.s
	tick := time.NewTicker(s.SeriesInterval)
	defer tick.Stop()
	var lastR, lastW int64
	last := time.Now()
	start := last
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			r, w := st.received.Load(), st.written.Load()
			dt := now.Sub(last).Seconds()
			ts := now.Sub(start).Seconds()
			netRate, driveRate := float64(r-lastR)/dt/1e6, float64(w-lastW)/dt/1e6
			res.NetSeries = append(res.NetSeries, Point{TS: ts, MBPerS: netRate})
			res.DriveSeries = append(res.DriveSeries, Point{TS: ts, MBPerS: driveRate, IOPS: float64(w-lastW) / float64(s.BlockSize) / dt})
			if s.Progress != nil {
				s.Progress(StreamProgress{Elapsed: now.Sub(start), ReceivedBytes: r, WrittenBytes: w, NetMBPerS: netRate, DriveMBPerS: driveRate})
			}
			lastR, lastW, last = r, w, now
		}
	}
}

// end says how the stream ended, given how the writer ended ("" when the ring ran dry) and
// the bytes received, with the source's error when that ended it.
func (st *stream) end(writer string, received int64) (string, error) {
	st.srcMu.Lock()
	defer st.srcMu.Unlock()
	switch {
	case writer != "":
		return writer, nil
	case st.srcEnd != nil && !errors.Is(st.srcEnd, io.EOF):
		return StreamSourceError, st.srcEnd
	case st.s.MaxBytes > 0 && received < st.s.MaxBytes:
		return StreamSourceEnded, nil
	default:
		return StreamComplete, nil
	}
}

// pwriteFull writes all of b at off, retrying interrupted and short writes.
func pwriteFull(fd int, b []byte, off int64) (int, error) {
	done := 0
	for done < len(b) {
		n, err := unix.Pwrite(fd, b[done:], off+int64(done))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, err
		}
		if n == 0 {
			return done, unix.EIO
		}
		done += n
	}
	return done, nil
}

// openStreamFile creates the stream's file in dir: an unnamed O_TMPFILE where the filesystem
// has it (nothing to leave behind even if the process is killed), else a hidden named file
// created exclusively. The returned target's path is what to remove.
func openStreamFile(dir string, align int) (*target, error) {
	flags := unix.O_RDWR | unix.O_DIRECT | unix.O_CLOEXEC
	if fd, err := unix.Open(dir, flags|unix.O_TMPFILE, 0o600); err == nil {
		return &target{kind: kindDir, path: filepath.Join(dir, "(unnamed O_TMPFILE)"), fd: fd, direct: true, align: align}, nil
	}
	name := filepath.Join(dir, fmt.Sprintf(".iomark-sink-%d-%x.tmp", os.Getpid(), newSeed()&0xffffff))
	fd, err := unix.Open(name, flags|unix.O_CREAT|unix.O_EXCL, 0o600)
	if err != nil {
		return nil, openError(name, true, err)
	}
	_ = unix.Fsetxattr(fd, xattrMark, []byte("test-file"), 0)
	return &target{kind: kindDir, path: name, fd: fd, direct: true, align: align, unlink: true}, nil
}
