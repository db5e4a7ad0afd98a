package netcopy

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runner"
)

// sink starts a sink on a loopback port for dir.
func startSink(t *testing.T, dir string, cfg SinkConfig) *Sink {
	t.Helper()
	cfg.Listen, cfg.Dir = "127.0.0.1:0", dir
	if cfg.Env.ToolVersion == "" {
		cfg.Env = runner.Env{ToolVersion: "test", Log: t.Logf}
	}
	cfg.Log = t.Logf
	s, err := Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type served struct {
	rec *record.Run
	err error
}

func serve(s *Sink, ctx context.Context) chan served {
	ch := make(chan served, 1)
	go func() {
		rec, err := s.Serve(ctx)
		ch <- served{rec, err}
	}()
	return ch
}

func dirEntries(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestLoopbackCopy: a sender with a wrong token is refused and the sink keeps waiting; the
// right one copies; the record says what arrived; nothing is left in the target, and the
// sink stops listening after its one copy.
func TestLoopbackCopy(t *testing.T) {
	dir := t.TempDir()
	s := startSink(t, dir, SinkConfig{})
	ch := serve(s, context.Background())
	addr := s.Addr().String()

	if _, err := Send(context.Background(), SendConfig{Addr: addr, Token: strings.Repeat("0", 32), Size: 1 << 20}); err == nil || !strings.Contains(err.Error(), "wrong token") {
		t.Fatalf("wrong token: %v", err)
	}
	const size = 48<<20 + 1000
	res, err := Send(context.Background(), SendConfig{Addr: addr, Token: s.Token(), Size: size})
	if err != nil {
		t.Fatal(err)
	}
	if res.SentBytes != size || res.Sink == nil || res.Sink.WrittenBytes != size || res.Sink.Ended != "complete" {
		t.Errorf("sender saw %+v, sink said %+v", res, res.Sink)
	}
	got := <-ch
	if got.err != nil {
		t.Fatal(got.err)
	}
	rec := got.rec
	if rec.Profile != Profile || len(rec.Tests) != 1 || rec.BytesWritten != size || rec.Target.Path != dir {
		t.Fatalf("record: profile %q, %d tests, %d bytes, target %q", rec.Profile, len(rec.Tests), rec.BytesWritten, rec.Target.Path)
	}
	ts := rec.Tests[0]
	n := ts.Network
	if ts.Name != TestName || n == nil || n.ReceivedBytes != size || n.Ended != "complete" || n.MBPerS <= 0 || n.DriveMBPerS <= 0 || n.Peer != "127.0.0.1" {
		t.Errorf("test %+v, network %+v", ts, n)
	}
	if n.Limit != "drive" && n.Limit != "network" && n.Limit != "balanced" {
		t.Errorf("limit %q", n.Limit)
	}
	if ts.Sustained == nil || ts.Sustained.WrittenBytes != size {
		t.Errorf("sustained %+v", ts.Sustained)
	}
	if l := dirEntries(t, dir); len(l) != 0 {
		t.Errorf("left in the target: %v", l)
	}
	// One copy only: the sink no longer listens.
	if _, err := Send(context.Background(), SendConfig{Addr: addr, Token: s.Token(), Size: 1 << 20, DialTimeout: time.Second}); err == nil {
		t.Error("a second copy was accepted")
	}
}

// TestSenderInterrupted: a sender that stops half-way ends the copy cleanly: the record keeps
// what arrived and says so, and the file is gone.
func TestSenderInterrupted(t *testing.T) {
	dir := t.TempDir()
	s := startSink(t, dir, SinkConfig{})
	ch := serve(s, context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	var sent int64
	res, err := Send(ctx, SendConfig{Addr: s.Addr().String(), Token: s.Token(), Size: 2 << 30,
		Progress: func(b int64, _ time.Duration) {
			if b > 0 {
				sent = b
				cancel()
			}
		}})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("sender: %v", err)
	}
	got := <-ch
	if got.err != nil {
		t.Fatal(got.err)
	}
	n := got.rec.Tests[0].Network
	if n.Ended != engine.StreamSourceEnded && n.Ended != engine.StreamSourceError {
		t.Errorf("ended %q", n.Ended)
	}
	if n.ReceivedBytes == 0 || n.ReceivedBytes > res.SentBytes || sent == 0 {
		t.Errorf("received %d of %d sent", n.ReceivedBytes, res.SentBytes)
	}
	found := false
	for _, w := range got.rec.Warnings {
		found = found || w.Code == "copy-incomplete"
	}
	if !found {
		t.Errorf("warnings %+v", got.rec.Warnings)
	}
	if l := dirEntries(t, dir); len(l) != 0 {
		t.Errorf("left in the target: %v", l)
	}
}

// TestSinkRefusesMoreThanFits: a copy larger than the free space is refused before a byte is
// written, and the sink keeps waiting.
func TestSinkRefusesMoreThanFits(t *testing.T) {
	dir := t.TempDir()
	s := startSink(t, dir, SinkConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	ch := serve(s, ctx)
	_, err := Send(context.Background(), SendConfig{Addr: s.Addr().String(), Token: s.Token(), Size: 1 << 50})
	if err == nil || !strings.Contains(err.Error(), "free") {
		t.Errorf("too large a copy: %v", err)
	}
	cancel()
	if got := <-ch; got.err == nil || got.rec != nil {
		t.Errorf("cancelled while waiting: %+v", got)
	}
	if l := dirEntries(t, dir); len(l) != 0 {
		t.Errorf("left in the target: %v", l)
	}
}

func TestSinkRefusesFileTarget(t *testing.T) {
	f := t.TempDir() + "/file"
	os.WriteFile(f, []byte("x"), 0o600)
	if _, err := Listen(SinkConfig{Listen: "127.0.0.1:0", Dir: f}); err == nil {
		t.Error("a file target was accepted")
	}
}

// TestSinkInterrupted: Ctrl-C on the sink during a copy (its context cancelled while it waits
// for data) ends the copy at once: the record is marked interrupted with what was written, the
// sender is told, and the file is gone. The sender here is raw: it sends 1 MiB of its 64 MiB
// and then nothing, so the sink is mid-copy when it is cancelled.
func TestSinkInterrupted(t *testing.T) {
	dir := t.TempDir()
	arrived := make(chan struct{})
	var once sync.Once
	s := startSink(t, dir, SinkConfig{Progress: func(p engine.StreamProgress) {
		if p.ReceivedBytes >= 1<<20 {
			once.Do(func() { close(arrived) })
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := serve(s, ctx)
	conn, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, hello{token: s.Token(), size: 64 << 20}.String())
	br := bufio.NewReader(conn)
	if line, err := readLine(br); err != nil || line != "OK" {
		t.Fatalf("handshake: %q %v", line, err)
	}
	if _, err := io.CopyN(conn, engine.NewStreamSource(), 1<<20); err != nil {
		t.Fatal(err)
	}
	// Cancel once the sink's progress shows the MiB received.
	select {
	case <-arrived:
	case <-time.After(time.Minute):
		t.Fatal("the sink never reported the first MiB")
	}
	cancel()
	got := <-ch
	if got.err != nil || got.rec == nil {
		t.Fatalf("serve: %v, record %v", got.err, got.rec)
	}
	n := got.rec.Tests[0].Network
	if !got.rec.Interrupted || n.Ended != engine.StreamInterrupted || n.ReceivedBytes != 1<<20 {
		t.Errorf("interrupted %v, network %+v", got.rec.Interrupted, n)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := readLine(br)
	if err != nil {
		t.Fatalf("no summary for the sender: %v", err)
	}
	if sum, err := parseSummary(line); err != nil || sum.Ended != engine.StreamInterrupted {
		t.Errorf("summary %q: %+v %v", line, sum, err)
	}
	if l := dirEntries(t, dir); len(l) != 0 {
		t.Errorf("left in the target: %v", l)
	}
}
