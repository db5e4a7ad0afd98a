package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// TestFile is a test file laid out once and shared by every job of a profile run, so a slow
// card pays for the layout once rather than once per test. Jobs open it as an existing file
// (Spec.Target = Path, Spec.Destructive set: the file is iomark's own); the run removes it.
type TestFile struct {
	Path      string
	SizeBytes int64
	// LayoutBytes counts every byte written to lay the file out, grows included.
	LayoutBytes int64
	// LayoutMBPerS is the rate of the first layout (1 MiB O_DIRECT sequential writes, then
	// fsync), a first estimate of the drive's sequential write speed; 0 if unknown.
	LayoutMBPerS float64
	seed         uint64
}

// PrepareTestFile creates a hidden test file in dir and lays out sizeBytes of incompressible
// data over it with O_DIRECT, then fsyncs, reporting progress as the "layout" phase. On error
// or cancellation it removes the file. The caller removes it with Remove when done.
func PrepareTestFile(ctx context.Context, dir string, sizeBytes int64, progress func(Progress), log func(string, ...any)) (*TestFile, error) {
	if sizeBytes < layoutChunk {
		return nil, fmt.Errorf("test file size %s is below the 1m minimum", FormatSize(sizeBytes))
	}
	sizeBytes -= sizeBytes % layoutChunk
	name := fmt.Sprintf(".iomark-run-%d-%x.tmp", os.Getpid(), newSeed()&0xffffff)
	s := &Spec{Target: filepath.Join(dir, name), Pattern: Write, BlockSize: layoutChunk, QD: 1, Jobs: 1,
		Direct: true, WorkingSetBytes: sizeBytes, Progress: progress, Log: log}
	t, err := createFile(s, s.Target, true)
	if err != nil {
		return nil, err
	}
	f := &TestFile{Path: t.path, seed: newSeed()}
	start := time.Now()
	written, err := layoutRange(ctx, s, t, 0, sizeBytes, f.seed)
	f.LayoutBytes = written
	if cerr := unix.Close(t.fd); err == nil && cerr != nil {
		err = fmt.Errorf("closing test file %s: %w", t.path, cerr)
	}
	if err != nil {
		_ = os.Remove(t.path)
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

// Grow extends the file to sizeBytes, laying out only the new range. It returns the bytes
// written; a smaller or equal size is a no-op.
func (f *TestFile) Grow(ctx context.Context, sizeBytes int64, progress func(Progress), log func(string, ...any)) (int64, error) {
	sizeBytes -= sizeBytes % layoutChunk
	if sizeBytes <= f.SizeBytes {
		return 0, nil
	}
	s := &Spec{Target: f.Path, Pattern: Write, BlockSize: layoutChunk, QD: 1, Jobs: 1, Direct: true,
		Progress: progress, Log: log}
	if err := checkFreeSpace(filepath.Dir(f.Path), sizeBytes-f.SizeBytes); err != nil {
		return 0, err
	}
	fd, err := unix.Open(f.Path, openFlags(s, true), 0)
	if err != nil {
		return 0, openError(f.Path, true, err)
	}
	t := &target{kind: kindFile, path: f.Path, fd: fd, direct: true, sizeBytes: sizeBytes}
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

// Remove deletes the file; removing one already gone is not an error.
func (f *TestFile) Remove() error {
	if f == nil || f.Path == "" {
		return nil
	}
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing test file %s: %w — remove it by hand", f.Path, err)
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
