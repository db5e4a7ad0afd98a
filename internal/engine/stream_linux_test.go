package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteStreamComplete(t *testing.T) {
	dir := t.TempDir()
	// A size that is not a multiple of the block: the last write is padded and cut back.
	const size = 5<<20 + 4096 + 100
	res, err := WriteStream(context.Background(), StreamSpec{Dir: dir, BlockSize: 1 << 20, MaxBytes: size, SeriesInterval: 100 * time.Millisecond},
		io.LimitReader(NewStreamSource(), size+1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended != StreamComplete || res.ReceivedBytes != size || res.WrittenBytes != size {
		t.Errorf("result %+v", res)
	}
	if res.WriteBusyS <= 0 || res.DurationS < res.WriteBusyS*0.5 {
		t.Errorf("times: busy %.3f s of %.3f s", res.WriteBusyS, res.DurationS)
	}
	emptyDir(t, dir)
}

func TestWriteStreamSourceEndsEarly(t *testing.T) {
	dir := t.TempDir()
	res, err := WriteStream(context.Background(), StreamSpec{Dir: dir, MaxBytes: 64 << 20}, io.LimitReader(NewStreamSource(), 3<<20+512))
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended != StreamSourceEnded || res.ReceivedBytes != 3<<20+512 || res.WrittenBytes != res.ReceivedBytes {
		t.Errorf("result %+v", res)
	}
	boom := errors.New("connection reset")
	res, err = WriteStream(context.Background(), StreamSpec{Dir: dir, MaxBytes: 64 << 20},
		io.MultiReader(io.LimitReader(NewStreamSource(), 2<<20), errReader{boom}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended != StreamSourceError || !errors.Is(res.SourceErr, boom) || res.WrittenBytes != 2<<20 {
		t.Errorf("result %+v", res)
	}
	emptyDir(t, dir)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// blockingReader gives some data, then blocks until closed, as a stalled sender does.
type blockingReader struct {
	src    io.Reader
	left   int
	closed chan struct{}
}

func (b *blockingReader) Read(p []byte) (int, error) {
	if b.left > 0 {
		n, _ := b.src.Read(p[:min(len(p), b.left)])
		b.left -= n
		return n, nil
	}
	<-b.closed
	return 0, io.ErrClosedPipe
}

func TestWriteStreamInterrupted(t *testing.T) {
	dir := t.TempDir()
	br := &blockingReader{src: NewStreamSource(), left: 1 << 20, closed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	aborted := false
	res, err := WriteStream(ctx, StreamSpec{Dir: dir, MaxBytes: 1 << 30, Abort: func() { aborted = true; close(br.closed) }}, br)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended != StreamInterrupted || !aborted || res.WrittenBytes != 1<<20 {
		t.Errorf("result %+v, aborted %v", res, aborted)
	}
	emptyDir(t, dir)
}

func TestWriteStreamRefusesNonDirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteStream(context.Background(), StreamSpec{Dir: f, MaxBytes: 1 << 20}, NewStreamSource()); err == nil {
		t.Error("a file target was accepted")
	}
	if b, _ := os.ReadFile(f); string(b) != "keep" {
		t.Error("the file was touched")
	}
}

// TestStreamSourceNeverRepeats: no two sectors of the source are equal across more than the
// pool's length, and the data does not compress.
func TestStreamSourceNeverRepeats(t *testing.T) {
	src := NewStreamSource()
	b := make([]byte, streamPoolBytes+2<<20)
	if _, err := io.ReadFull(src, b); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b[:512], b[streamPoolBytes:streamPoolBytes+512]) {
		t.Error("the sector after the pool repeats the first")
	}
	seen := map[string]bool{}
	for off := 0; off < len(b); off += 512 {
		k := string(b[off : off+512])
		if seen[k] {
			t.Fatalf("sector at %d repeats", off)
		}
		seen[k] = true
	}
}
