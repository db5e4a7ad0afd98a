package netcopy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/iomark/iomark/internal/engine"
)

// SendConfig is what a sender needs.
type SendConfig struct {
	Addr  string // HOST:PORT of the sink
	Token string // the sink's one-time token
	Size  int64  // bytes to send
	// Progress is called about once a second with the bytes sent so far (may be nil).
	Progress func(sentBytes int64, elapsed time.Duration)
	// DialTimeout bounds connecting and the sink's answer (0: 10 s); DoneTimeout bounds the
	// wait for the sink's summary after the last byte (0: 5 min: the sink syncs the drive).
	DialTimeout, DoneTimeout time.Duration
}

// SendResult is what the sender saw, and what the sink said at the end.
type SendResult struct {
	SentBytes int64
	DurationS float64
	MBPerS    float64
	Sink      *Summary // nil when the sink said nothing (it went away)
}

// Send connects to a sink, presents the token and sends Size bytes of incompressible data.
// Cancelling ctx stops sending (the sink then records a copy the sender ended).
func Send(ctx context.Context, cfg SendConfig) (*SendResult, error) {
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = 10 * time.Second
	}
	if cfg.DoneTimeout <= 0 {
		cfg.DoneTimeout = 5 * time.Minute
	}
	if cfg.Size <= 0 {
		return nil, errors.New("nothing to send: give iomark send a --size")
	}
	if strings.ContainsAny(cfg.Token, " \n\t") || cfg.Token == "" {
		return nil, errors.New("give the token the sink printed (iomark send --token)")
	}
	// The data is made before connecting: its random pool takes a moment (seconds on a slow
	// CPU) that belongs neither to the sender's rate nor to the sink's wait.
	src := engine.NewStreamSource()
	d := net.Dialer{Timeout: cfg.DialTimeout}
	conn, err := d.DialContext(ctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("connecting to the sink at %s: %w — is `iomark sink` running there, and the port open?", cfg.Addr, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()

	br := bufio.NewReaderSize(conn, maxLineBytes)
	if err := greet(conn, br, cfg); err != nil {
		return nil, err
	}

	var sent atomic.Int64
	start := time.Now()
	done := make(chan struct{})
	if cfg.Progress != nil {
		go func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					cfg.Progress(sent.Load(), time.Since(start))
				}
			}
		}()
	}
	_, sendErr := io.Copy(conn, &countingReader{r: io.LimitReader(src, cfg.Size), n: &sent})
	close(done)
	res := &SendResult{SentBytes: sent.Load(), DurationS: time.Since(start).Seconds()}
	if res.DurationS > 0 {
		res.MBPerS = float64(res.SentBytes) / res.DurationS / 1e6
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.CloseWrite() // the sink reads EOF after the last byte
	}
	// The sink's summary: after the last byte is synced, or at once when it stopped early
	// (a full drive), in which case the send failed.
	conn.SetReadDeadline(time.Now().Add(cfg.DoneTimeout))
	if ctx.Err() != nil {
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	}
	if line, err := readLine(br); err == nil {
		if s, err := parseSummary(line); err == nil {
			res.Sink = &s
		}
	}
	switch {
	case ctx.Err() != nil:
		return res, fmt.Errorf("interrupted after %.2f GB", float64(res.SentBytes)/1e9)
	case sendErr != nil && res.Sink != nil:
		return res, fmt.Errorf("the sink ended the copy after %.2f GB: %s", float64(res.Sink.WrittenBytes)/1e9, res.Sink.Ended)
	case sendErr != nil:
		return res, fmt.Errorf("sending to %s: %w", cfg.Addr, sendErr)
	}
	return res, nil
}

// greet presents the token and the size to the sink on conn, whose answers br reads, and
// returns an error unless the sink accepts the copy within cfg.DialTimeout.
func greet(conn net.Conn, br *bufio.Reader, cfg SendConfig) error {
	conn.SetDeadline(time.Now().Add(cfg.DialTimeout))
	if _, err := io.WriteString(conn, hello{token: cfg.Token, size: cfg.Size}.String()); err != nil {
		return fmt.Errorf("greeting the sink: %w", err)
	}
	answer, err := readLine(br)
	if err != nil {
		return fmt.Errorf("the sink at %s did not answer: %w", cfg.Addr, err)
	}
	if reason, refused := strings.CutPrefix(answer, "REFUSED "); refused {
		return fmt.Errorf("the sink refused the copy: %s", reason)
	}
	if answer != "OK" {
		return fmt.Errorf("the sink answered %q", answer)
	}
	conn.SetDeadline(time.Time{})
	return nil
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
