package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// TestFile is a test file laid out once and shared by every job of a profile run, so a slow
// card pays for the layout once rather than once per test. Jobs open it as an existing file
// (Spec.Target = Path, Spec.Destructive set: the file is iomark's own); the run removes it.
//
// Where the filesystem supports O_TMPFILE the file has no name: Path is /proc/self/fd/N of
// the descriptor the TestFile holds, and the kernel frees the file when that closes — at
// Remove, or when the process dies however it dies. Elsewhere it is a hidden named file in
// Dir, removed by Remove, and by the next run's SweepLeftovers after a crash.
type TestFile struct {
	// Path is what jobs open; Dir the directory it lives in; Name how messages call it.
	Path, Dir, Name string
	// Unnamed: linked nowhere (O_TMPFILE), nothing survives the process.
	Unnamed   bool
	SizeBytes int64
	// LayoutBytes counts every byte written to lay the file out, grows included.
	LayoutBytes int64
	// LayoutMBPerS is the rate of the first layout (1 MiB O_DIRECT sequential writes, then
	// fsync), a first estimate of the drive's sequential write speed; 0 if unknown.
	LayoutMBPerS float64
	seed         uint64
	fd           int // held while the file is in use; -1 once removed
}

// PrepareTestFile creates a test file in dir (unnamed where the filesystem allows it, see
// TestFile) and lays out sizeBytes of incompressible data over it with O_DIRECT, then
// fsyncs, reporting progress as the "layout" phase. Leftovers of earlier runs in dir are
// removed first, and said through log. On error or cancellation it removes the file. The
// caller removes it with Remove when done.
func PrepareTestFile(ctx context.Context, dir string, sizeBytes int64, progress func(Progress), log func(string, ...any)) (*TestFile, error) {
	if sizeBytes < layoutChunk {
		return nil, fmt.Errorf("test file size %s is below the 1m minimum", FormatSize(sizeBytes))
	}
	sizeBytes -= sizeBytes % layoutChunk
	s := &Spec{Target: dir, Pattern: Write, BlockSize: layoutChunk, QD: 1, Jobs: 1,
		Direct: true, WorkingSetBytes: sizeBytes, Progress: progress, Log: log}
	SweepLeftovers(dir, log)
	if err := checkFreeSpace(dir, sizeBytes); err != nil {
		return nil, err
	}
	if _, err := dioAlign(dir, true); err != nil {
		return nil, err
	}
	tf, err := newTempFile(dir, "run", openFlags(s, true))
	if err != nil {
		return nil, openError(dir, true, err)
	}
	f := &TestFile{Dir: dir, Name: tf.name, Path: tf.name, Unnamed: !tf.named, seed: newSeed(), fd: tf.fd}
	if f.Unnamed {
		f.Path, f.Name = fmt.Sprintf("/proc/self/fd/%d", tf.fd), "the unnamed test file in "+dir
		// Jobs reopen the file through /proc with their own flags; where /proc cannot do that
		// (not mounted), fall back to a named file.
		if probe, err := unix.Open(f.Path, unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
			unix.Close(tf.fd)
			tf, err = newNamedTempFile(dir, "run", openFlags(s, true))
			if err != nil {
				return nil, openError(dir, true, err)
			}
			f.Path, f.Name, f.Unnamed, f.fd = tf.name, tf.name, false, tf.fd
		} else {
			unix.Close(probe)
		}
	}
	t := &target{kind: kindFile, path: f.Name, fd: f.fd, direct: true, align: layoutChunk, sizeBytes: sizeBytes}
	start := time.Now()
	written, err := layoutRange(ctx, s, t, 0, sizeBytes, f.seed)
	f.LayoutBytes = written
	if err != nil {
		_ = f.Remove()
		if ctx.Err() != nil {
			return f, fmt.Errorf("%w: %v", ErrInterrupted, err)
		}
		return f, err
	}
	f.SizeBytes = sizeBytes
	if el := time.Since(start).Seconds(); el > 0 {
		f.LayoutMBPerS = float64(written) / el / 1e6
	}
	return f, nil
}

// NewPartFile creates an empty test file in dir (unnamed where the filesystem allows it, see
// TestFile), nothing laid out: the next part of a write that goes on past the filesystem's
// largest file (Spec.NextFile). The caller removes it with Remove.
func NewPartFile(dir string) (*TestFile, error) {
	tf, err := newTempFile(dir, "run", unix.O_RDWR|unix.O_CLOEXEC)
	if err != nil {
		return nil, openError(dir, false, err)
	}
	f := &TestFile{Dir: dir, Name: tf.name, Path: tf.name, Unnamed: !tf.named, seed: newSeed(), fd: tf.fd}
	if f.Unnamed {
		f.Path, f.Name = fmt.Sprintf("/proc/self/fd/%d", tf.fd), "an unnamed test file in "+dir
	}
	return f, nil
}

// Grow extends the file to sizeBytes, laying out only the new range. It returns the bytes
// written; a smaller or equal size is a no-op.
func (f *TestFile) Grow(ctx context.Context, sizeBytes int64, progress func(Progress), log func(string, ...any)) (int64, error) {
	sizeBytes -= sizeBytes % layoutChunk
	if sizeBytes <= f.SizeBytes {
		return 0, nil
	}
	s := &Spec{Target: f.Path, Pattern: Write, BlockSize: layoutChunk, QD: 1, Jobs: 1, Direct: true,
		Progress: progress, Log: log}
	if err := checkFreeSpace(f.Dir, sizeBytes-f.SizeBytes); err != nil {
		return 0, err
	}
	fd, err := unix.Open(f.Path, openFlags(s, true), 0)
	if err != nil {
		return 0, openError(f.Name, true, err)
	}
	t := &target{kind: kindFile, path: f.Name, fd: fd, direct: true, sizeBytes: sizeBytes}
	written, err := layoutRange(ctx, s, t, f.SizeBytes, sizeBytes, f.seed)
	f.LayoutBytes += written
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return written, err
	}
	f.SizeBytes = sizeBytes
	return written, nil
}

// Truncate sets the file's size without writing (a sparse extension, or a cut).
func (f *TestFile) Truncate(sizeBytes int64) error {
	if err := unix.Ftruncate(f.fd, sizeBytes); err != nil {
		return fmt.Errorf("sizing %s: %w", f.Name, err)
	}
	f.SizeBytes = sizeBytes
	return nil
}

// Remove deletes the file: closes the descriptor that keeps an unnamed file alive, and
// unlinks a named one. Removing one already gone is not an error.
func (f *TestFile) Remove() error {
	if f == nil || f.fd < 0 {
		return nil
	}
	err := unix.Close(f.fd)
	f.fd = -1
	if !f.Unnamed && f.Path != "" {
		if rmErr := os.Remove(f.Path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			return fmt.Errorf("removing test file %s: %w — remove it by hand", f.Path, rmErr)
		}
	}
	if err != nil {
		return fmt.Errorf("closing test file %s: %w", f.Name, err)
	}
	return nil
}

// DropCache writes back and evicts the page cache of a file or block device, as hdparm -t
// does before timing buffered reads (it uses BLKFLSBUF on the device; fadvise DONTNEED works
// for files and devices alike and needs no privilege beyond opening the path).
func DropCache(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("dropping the cache of %s: %w", path, err)
	}
	defer unix.Close(fd)
	_ = unix.Fdatasync(fd) // a read-only fd may refuse on some filesystems; fadvise still helps
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("dropping the cache of %s: %w", path, err)
	}
	return nil
}
