package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestNextFileAtAFileSizeLimit: a sequential write split across files (Spec.NextFile) goes
// on from the start of a new file where the filesystem refuses to grow one (EFBIG), counts
// every byte once, and ends with its figures when no further file can be had. The limit is
// RLIMIT_FSIZE on this process, set only around each job: the kernel refuses a write past it
// through the same check as past a filesystem's largest file (generic_write_check_limits),
// giving a short write across it and EFBIG at it; Go ignores SIGXFSZ.
func TestNextFileAtAFileSizeLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name       string
		limit      int64
		nextOK     int // NextFile calls that give a file
		wantBytes  int64
		wantFiles  int
		wantReason bool
	}{
		{"aligned limit, files enough", 3 * mib, 10, 8 * mib, 3, false},
		{"a short write before the limit", 3*mib + mib/2, 10, 8 * mib, 3, false},
		{"no third file", 3 * mib, 1, 6 * mib, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			first := filepath.Join(dir, "part-0")
			if err := os.WriteFile(first, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			calls := 0
			s := Spec{Target: first, Pattern: Write, BlockSize: mib, QD: 1, Jobs: 1, Engine: EnginePsync,
				WorkingSetBytes: 8 * mib, IOBudgetBytes: 8 * mib, Direct: true, Destructive: true, EndFsync: true,
				NextFile: func() (string, error) {
					calls++
					if calls > c.nextOK {
						return "", errors.New("no room for another file")
					}
					p := filepath.Join(dir, fmt.Sprintf("part-%d", calls))
					return p, os.WriteFile(p, nil, 0o600)
				}}
			var old unix.Rlimit
			if err := unix.Prlimit(0, unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: uint64(c.limit), Max: unix.RLIM_INFINITY}, &old); err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), s)
			if rerr := unix.Prlimit(0, unix.RLIMIT_FSIZE, &old, nil); rerr != nil {
				t.Fatal(rerr)
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Bytes != c.wantBytes || res.Files != c.wantFiles || res.FileSizeLimitBytes != c.limit-c.limit%mib ||
				(res.NextFileErr != "") != c.wantReason {
				t.Errorf("bytes %d, files %d, limit %d, next-file error %q: want %d bytes in %d files at %d", res.Bytes, res.Files,
					res.FileSizeLimitBytes, res.NextFileErr, c.wantBytes, c.wantFiles, c.limit-c.limit%mib)
			}
			for i := 0; i < c.wantFiles; i++ {
				fi, err := os.Stat(filepath.Join(dir, fmt.Sprintf("part-%d", i)))
				if err != nil || fi.Size() > c.limit {
					t.Errorf("part %d: %v, size %d above the %d limit", i, err, fi.Size(), c.limit)
				}
			}
		})
	}
}
