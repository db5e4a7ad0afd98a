package netcopy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runner"
	"github.com/iomark/iomark/internal/stats"
)

// Profile and TestName name the record a network copy makes.
const (
	Profile  = "network-copy"
	TestName = "network-copy"
)

// SinkConfig is what a sink needs.
type SinkConfig struct {
	Listen string // ADDR:PORT to listen on
	Dir    string // the target directory: the copy's one file goes there
	Token  string // the one-time token; NewToken when ""
	// Env is the record's environment (probe report, health, power, sensors, tool version);
	// its Target is set to Dir.
	Env runner.Env
	// BlockSize of the drive writes (0: 1 MiB) and Buffers in the ring (0: 16).
	BlockSize, Buffers int
	// HandshakeTimeout bounds a sender's first line (0: 10 s); IdleTimeout ends a copy when
	// no data arrived for that long (0: 60 s).
	HandshakeTimeout, IdleTimeout time.Duration
	// MaxPending bounds the connections being greeted at once (0: 64), at most
	// pendingPerHost of them from one host (beyond: closed at once). Each greeting runs on its
	// own, so an idle or garbage connection never delays another sender's; when the bound is
	// reached the oldest greeting is cut short for the newcomer (a sender presents its token
	// within milliseconds of connecting; a stranger holding a connection open is the oldest).
	MaxPending int
	// Progress is called once a second during the copy (may be nil).
	Progress func(engine.StreamProgress)
	// Log receives one-line notes for people: refused senders, the accepted one (may be nil).
	Log func(format string, args ...any)
}

// Sink listens for one sender.
type Sink struct {
	cfg SinkConfig
	ln  net.Listener

	claimed atomic.Bool // a sender presented the token: the one copy is taken

	mu       sync.Mutex
	refused  map[string]int        // refusals per peer host, the first of each logged
	greeting map[net.Conn]greeting // connections being greeted
	perHost  map[string]int
}

type greeting struct {
	host string
	at   time.Time
}

// pendingPerHost bounds the greetings of one host.
const pendingPerHost = 4

// maxRefusedHosts bounds the peers whose refusals are counted apart; beyond, they are counted
// together.
const maxRefusedHosts = 4096

// Listen binds the address and makes the token; nothing is written until a sender with the
// token arrives.
func Listen(cfg SinkConfig) (*Sink, error) {
	fi, err := os.Stat(cfg.Dir)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: the sink writes its one test file into a directory on the drive to measure", cfg.Dir)
	}
	if cfg.Token == "" {
		if cfg.Token, err = NewToken(); err != nil {
			return nil, err
		}
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = 10 * time.Second
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 60 * time.Second
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 64
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w — pick a free port (e.g. iomark sink --listen 0.0.0.0:5201)", cfg.Listen, err)
	}
	return &Sink{cfg: cfg, ln: ln}, nil
}

// Addr is the address the sink listens on.
func (s *Sink) Addr() net.Addr { return s.ln.Addr() }

// Token is the one-time token a sender must present.
func (s *Sink) Token() string { return s.cfg.Token }

// Close stops listening (Serve does it itself once a copy is accepted).
func (s *Sink) Close() error { return s.ln.Close() }

// Serve waits for the sender with the token, refusing others, receives its copy and returns
// the record. Each connection is greeted on its own goroutine, at most MaxPending at once, with
// HandshakeTimeout to present the token; nothing is written before one has. Cancelling ctx while
// waiting returns ctx's error and no record; during the copy it ends the copy and returns what
// was measured, Interrupted set.
func (s *Sink) Serve(ctx context.Context) (*record.Run, error) {
	stopAccept := context.AfterFunc(ctx, func() { s.ln.Close() })
	defer stopAccept()
	type accepted struct {
		conn net.Conn
		h    hello
	}
	winner := make(chan accepted, 1)
	acceptErr := make(chan error, 1)
	pending := make(chan struct{}, s.cfg.MaxPending)
	var greeters sync.WaitGroup
	go func() {
		for {
			conn, err := s.ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			if !s.track(conn, true) {
				s.refuseAtOnce(conn, fmt.Sprintf("%d connections from this host are already presenting a token", pendingPerHost))
				continue
			}
			select {
			case pending <- struct{}{}:
			default:
				s.evictOldest(conn)
				pending <- struct{}{} // the evicted greeting ends at once and frees its place
			}
			greeters.Add(1)
			go func() {
				defer greeters.Done()
				defer func() { <-pending }()
				h, ok := s.handshake(conn)
				s.track(conn, false)
				if ok {
					winner <- accepted{conn, h} // only one handshake can succeed (claimed)
				}
			}()
		}
	}()
	// Once the copy is taken, or the sink stops, the greetings still running are cut short and
	// waited for: none outlives Serve.
	defer func() {
		s.ln.Close()
		s.mu.Lock()
		for c := range s.greeting {
			c.SetDeadline(time.Now())
		}
		s.mu.Unlock()
		greeters.Wait()
		s.logRepeats()
	}()
	select {
	case a := <-winner:
		s.ln.Close() // one copy only
		return s.receive(ctx, a.conn, a.h)
	case err := <-acceptErr:
		select {
		case a := <-winner: // a handshake finished as the listener closed
			return s.receive(ctx, a.conn, a.h)
		default:
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("waiting for the sender: %w", err)
	}
}

// track adds or removes a connection being greeted; adding fails when its host has
// pendingPerHost already.
func (s *Sink) track(conn net.Conn, on bool) bool {
	host := hostOf(conn.RemoteAddr())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.greeting == nil {
		s.greeting, s.perHost = map[net.Conn]greeting{}, map[string]int{}
	}
	if !on {
		if _, ok := s.greeting[conn]; ok {
			delete(s.greeting, conn)
			if s.perHost[host]--; s.perHost[host] <= 0 {
				delete(s.perHost, host)
			}
		}
		return true
	}
	if s.perHost[host] >= pendingPerHost {
		return false
	}
	s.greeting[conn] = greeting{host: host, at: time.Now()}
	s.perHost[host]++
	return true
}

// evictOldest cuts short the longest-running greeting other than newcomer's.
func (s *Sink) evictOldest(newcomer net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var oldest net.Conn
	var at time.Time
	for c, g := range s.greeting {
		if c != newcomer && (oldest == nil || g.at.Before(at)) {
			oldest, at = c, g.at
		}
	}
	if oldest != nil {
		oldest.SetDeadline(time.Now())
	}
}

// noteRefusal logs the first refusal of each peer host; later ones are counted (logRepeats).
func (s *Sink) noteRefusal(peer, reason string) {
	host := peer
	if h, _, err := net.SplitHostPort(peer); err == nil {
		host = h
	}
	s.mu.Lock()
	if s.refused == nil {
		s.refused = map[string]int{}
	}
	if _, ok := s.refused[host]; !ok && len(s.refused) >= maxRefusedHosts {
		host = "other hosts"
	}
	s.refused[host]++
	first := s.refused[host] == 1
	s.mu.Unlock()
	if first {
		s.logf("refused %s: %s", peer, reason)
	}
}

// logRepeats says how many more connections each refused peer made.
func (s *Sink) logRepeats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for host, n := range s.refused {
		if n > 1 {
			s.logf("refused %d more connections from %s", n-1, host)
		}
	}
	s.refused = nil
}

// refuseAtOnce closes a connection without reading it.
func (s *Sink) refuseAtOnce(conn net.Conn, reason string) {
	peer := conn.RemoteAddr().String()
	conn.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	fmt.Fprintf(conn, "REFUSED %s\n", reason)
	conn.Close()
	s.noteRefusal(peer, reason)
}

// handshake reads the sender's line and answers it; false means the sender was refused and
// its connection closed.
func (s *Sink) handshake(conn net.Conn) (hello, bool) {
	peer := conn.RemoteAddr().String()
	refuse := func(reason string) (hello, bool) {
		conn.SetWriteDeadline(time.Now().Add(time.Second))
		fmt.Fprintf(conn, "REFUSED %s\n", reason)
		conn.Close()
		s.noteRefusal(peer, reason)
		return hello{}, false
	}
	conn.SetReadDeadline(time.Now().Add(s.cfg.HandshakeTimeout))
	line, err := readLine(bufio.NewReaderSize(conn, maxLineBytes))
	if err != nil {
		return refuse("no greeting: " + err.Error())
	}
	h, err := parseHello(line)
	if err != nil {
		return refuse(err.Error())
	}
	if !tokenMatches(h.token, s.cfg.Token) {
		time.Sleep(200 * time.Millisecond) // a guesser gets no fast feedback
		return refuse("wrong token")
	}
	if free, need := freeBytes(s.cfg.Dir), h.size+marginBytes(s.cfg.Dir); free >= 0 && free < need {
		return refuse(fmt.Sprintf("%s has %.1f GB free; the copy needs %.1f GB and room to spare: send less (iomark send --size)", s.cfg.Dir, float64(free)/1e9, float64(h.size)/1e9))
	}
	if !s.claimed.CompareAndSwap(false, true) {
		return refuse("a copy is already being received")
	}
	conn.SetReadDeadline(time.Time{})
	if _, err := io.WriteString(conn, "OK\n"); err != nil {
		conn.Close()
		s.claimed.Store(false) // the sender went away: the next one with the token may copy
		return hello{}, false
	}
	s.logf("receiving %.2f GB from %s", float64(h.size)/1e9, peer)
	return h, true
}

// receive writes the copy and builds its record.
func (s *Sink) receive(ctx context.Context, conn net.Conn, h hello) (*record.Run, error) {
	defer conn.Close()
	env := s.cfg.Env
	env.Target = s.cfg.Dir
	ext, err := runner.StartExternal(env, Profile, TestName)
	if err != nil {
		return nil, err
	}
	src := &idleReader{conn: conn, idle: s.cfg.IdleTimeout}
	res, werr := engine.WriteStream(ctx, engine.StreamSpec{Dir: s.cfg.Dir, BlockSize: s.cfg.BlockSize, Buffers: s.cfg.Buffers,
		MaxBytes: h.size, Progress: s.cfg.Progress, Abort: src.abort}, src)
	rec := ext.Record()
	if res != nil {
		t, n := copyTest(res, h.size)
		var ne net.Error
		if res.Ended == engine.StreamSourceError && errors.As(res.SourceErr, &ne) && ne.Timeout() {
			n.Ended = "sender-stalled"
		}
		n.Peer = hostOf(conn.RemoteAddr())
		t.Network = n
		rec.Tests = append(rec.Tests, *t)
		rec.BytesWritten = res.WrittenBytes
		rec.Interrupted = res.Ended == engine.StreamInterrupted
		// Tell the sender what the drive did; it may have gone already.
		conn.SetWriteDeadline(time.Now().Add(2 * time.Second))
		io.WriteString(conn, Summary{WrittenBytes: res.WrittenBytes, NetMBPerS: n.MBPerS, DriveMBPerS: n.DriveMBPerS, Limit: n.Limit, Ended: n.Ended}.line())
		if n.Ended == engine.StreamDriveFull {
			rec.Warnings = append(rec.Warnings, record.Warning{Code: "drive-full",
				Message: fmt.Sprintf("network-copy: the drive filled up after %.2f GB; the copy ended there and its file was removed", float64(res.WrittenBytes)/1e9)})
		} else if n.Ended != engine.StreamComplete && n.Ended != engine.StreamInterrupted {
			rec.Warnings = append(rec.Warnings, record.Warning{Code: "copy-incomplete",
				Message: fmt.Sprintf("network-copy: %s after %.2f of %.2f GB", endedSentence(n.Ended, res.SourceErr), float64(res.ReceivedBytes)/1e9, float64(h.size)/1e9)})
		}
	}
	return ext.Finish(), werr
}

func endedSentence(ended string, err error) string {
	switch ended {
	case engine.StreamSourceEnded:
		return "the sender stopped"
	case "sender-stalled":
		return "no data arrived for too long"
	case engine.StreamSourceError:
		return fmt.Sprintf("the connection failed (%v)", err)
	case engine.StreamDriveError:
		return "a write to the drive failed"
	}
	return ended
}

func (s *Sink) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		s.cfg.Log(format, args...)
	}
}

// idleReader ends a read that waits longer than idle for data, and every read once aborted.
type idleReader struct {
	conn    net.Conn
	idle    time.Duration
	mu      sync.Mutex
	aborted bool
}

func (r *idleReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	if r.aborted {
		r.mu.Unlock()
		return 0, io.EOF
	}
	r.conn.SetReadDeadline(time.Now().Add(r.idle))
	r.mu.Unlock()
	return r.conn.Read(p)
}

// abort makes a blocked Read return at once, and every later one.
func (r *idleReader) abort() {
	r.mu.Lock()
	r.aborted = true
	r.conn.SetReadDeadline(time.Now())
	r.mu.Unlock()
}

func hostOf(a net.Addr) string {
	if h, _, err := net.SplitHostPort(a.String()); err == nil {
		return h
	}
	return a.String()
}

// freeBytes is what an unprivileged writer may still use in dir (-1 when unknown).
func freeBytes(dir string) int64 {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return -1
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// marginBytes is the room a copy leaves on the filesystem: 64 MiB, or 5% of a small one (as
// the engine leaves for its test files).
func marginBytes(dir string) int64 {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return 64 << 20
	}
	return min(int64(64<<20), int64(st.Blocks)*int64(st.Bsize)/20)
}

// Shares of the copy's time beyond which one side is the limit.
const limitSharePct = 50

// copyTest is the record of a finished stream: the end-to-end rate, the drive's series and
// its cliff analysis, and the network side.
func copyTest(res *engine.StreamResult, size int64) (*record.Test, *record.Network) {
	n := &record.Network{ReceivedBytes: res.ReceivedBytes, Ended: res.Ended, Series: res.NetSeries}
	if res.DurationS > 0 {
		n.MBPerS = float64(res.ReceivedBytes) / res.DurationS / 1e6
		n.DriveWaitPct = res.WriterWaitS / res.DurationS * 100
		n.NetworkWaitPct = res.ReaderWaitS / res.DurationS * 100
	}
	if res.WriteBusyS > 0 {
		n.DriveMBPerS = float64(res.WrittenBytes) / res.WriteBusyS / 1e6
	}
	switch {
	case n.NetworkWaitPct >= limitSharePct:
		n.Limit = "drive" // the receiver waited for buffer room: the drive was slower
	case n.DriveWaitPct >= limitSharePct:
		n.Limit = "network" // the writer waited for data
	default:
		n.Limit = "balanced"
	}
	// The copy's own rate is what reached the drive per second, end to end: when it ended
	// early, blocks received but still in the ring were never written and do not count.
	mbPerS := 0.0
	if res.DurationS > 0 {
		mbPerS = float64(res.WrittenBytes) / res.DurationS / 1e6
	}
	t := &record.Test{Name: TestName, Op: string(engine.Write), BS: 1 << 20, QD: 1, Jobs: 1, Engine: string(engine.EnginePsync),
		Direct: res.Direct, MBPerS: mbPerS, MiBPerS: mbPerS * 1e6 / (1 << 20), Primary: "mb_per_s", Runs: 1,
		RunValues: []float64{mbPerS}, DurationS: res.DurationS, Bytes: res.WrittenBytes, Series: res.DriveSeries}
	if t.MBPerS > 0 {
		t.IOPS = t.MBPerS * 1e6 / float64(t.BS)
	}
	series := make([]stats.Interval, len(res.DriveSeries))
	for i, p := range res.DriveSeries {
		series[i] = stats.Interval{EndS: p.TS, MBPerS: p.MBPerS, IOPS: p.IOPS}
	}
	// Rounds of one sample at least, and of stats.SteadyMinIOs writes, so a slow drive's
	// rate is judged rather than the count of 1 MiB writes that fit in a second.
	a := stats.AnalyseSustained(series, 0)
	t.Sustained = &record.Sustained{CliffFound: a.CliffFound, CliffAtBytes: a.CliffAtBytes, CliffAtS: a.CliffAtS,
		BeforeMBPerS: a.BeforeMBPerS, AfterMBPerS: a.AfterMBPerS, DropPct: a.DropPct,
		SteadyState: a.SteadyState, SteadyMBPerS: a.SteadyMBPerS, WrittenBytes: res.WrittenBytes}
	return t, n
}
