package engine_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// squatter hands the stream its data and, after the first block, puts a non-empty directory
// where the copy's named file was: the copy goes on writing through its open descriptor, and
// the removal at the end fails as it would on a drive gone read-only.
type squatter struct {
	src  io.Reader
	dir  string
	done bool
	err  error
}

func (s *squatter) Read(p []byte) (int, error) {
	n, err := s.src.Read(p)
	if s.done {
		return n, err
	}
	s.done = true
	names, _ := filepath.Glob(filepath.Join(s.dir, ".iomark-sink-*"))
	if len(names) != 1 {
		s.err = os.ErrNotExist
		return n, err
	}
	if s.err = os.Remove(names[0]); s.err == nil {
		if s.err = os.Mkdir(names[0], 0o700); s.err == nil {
			s.err = os.WriteFile(filepath.Join(names[0], "kept"), []byte("x"), 0o600)
		}
	}
	return n, err
}

// TestWriteStreamSaysWhenItsFileStays: on a filesystem without O_TMPFILE the copy has a name;
// when it cannot be removed, WriteStream returns the figures and an error naming the path.
func TestWriteStreamSaysWhenItsFileStays(t *testing.T) {
	mnt := lab.PassthroughFS(t, t.TempDir())
	src := &squatter{src: io.LimitReader(engine.NewStreamSource(), 4<<20), dir: mnt}
	res, err := engine.WriteStream(context.Background(), engine.StreamSpec{Dir: mnt, MaxBytes: 4 << 20}, src)
	if src.err != nil {
		t.Fatalf("could not put a directory in the copy's place: %v", src.err)
	}
	if res == nil || res.Ended != engine.StreamComplete || res.WrittenBytes != 4<<20 {
		t.Fatalf("result %+v: the figures of a finished copy are lost", res)
	}
	if err == nil || !strings.Contains(err.Error(), res.Path) || !strings.Contains(err.Error(), "remove it by hand") {
		t.Errorf("error %v: want the path that stays and what to do", err)
	}
	if err := os.RemoveAll(res.Path); err != nil {
		t.Fatal(err)
	}
}
