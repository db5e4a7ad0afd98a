package engine

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// layoutChunk is the size of each layout write: large enough to run at the drive's
// sequential speed, a multiple of every direct-I/O alignment.
const layoutChunk = 1 << 20

// layout writes real, incompressible data over [0, t.sizeBytes) so that reads touch the drive
// and never a hole, then fsyncs. It reports progress and stops on ctx.
func layout(ctx context.Context, s *Spec, t *target, seed uint64) (written int64, err error) {
	return layoutRange(ctx, s, t, 0, t.sizeBytes, seed)
}

// layoutRange writes [from, to) of t in 1 MiB chunks of stamped random data and fsyncs.
func layoutRange(ctx context.Context, s *Spec, t *target, from, to int64, seed uint64) (written int64, err error) {
	bufs, err := newBuffers(1, layoutChunk)
	if err != nil {
		return 0, err
	}
	defer bufs.free()
	buf := bufs.bufs[0]
	fillRandom(buf, seed^0x6c61796f7574) // "layout"
	logf(s, "laying out %s of test data in %s", human(to-from), t.path)
	start := time.Now()
	lastReport, lastBytes := start, int64(0)
	for off := from; off < to; {
		if ctx.Err() != nil {
			return written, fmt.Errorf("interrupted while laying out the test file: %w", ctx.Err())
		}
		b := buf
		if rest := to - off; rest < int64(len(b)) {
			b = b[:rest]
		}
		stamp(b, uint64(off/layoutChunk)|1<<63, seed)
		n, err := unix.Pwrite(t.fd, b, off)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return written, ioError(t, true, off, len(b), err)
		}
		if n != len(b) {
			return written, errShortIO(t, true, off, len(b), n)
		}
		off += int64(n)
		written += int64(n)
		if now := time.Now(); now.Sub(lastReport) >= 500*time.Millisecond && s.Progress != nil {
			el := now.Sub(start)
			rate := float64(written) / el.Seconds()
			s.Progress(Progress{Phase: "layout", Elapsed: el,
				Remaining: time.Duration(float64(to-from-written) / rate * float64(time.Second)),
				MBPerS:    float64(written-lastBytes) / now.Sub(lastReport).Seconds() / 1e6,
				DoneBytes: written, TotalBytes: to - from})
			lastReport, lastBytes = now, written
		}
	}
	if err := unix.Fsync(t.fd); err != nil {
		return written, ioError(t, true, 0, 0, err)
	}
	return written, nil
}

func logf(s *Spec, format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}
