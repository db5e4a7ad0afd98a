package netcopy

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// dialFrom connects to addr from a loopback address of 127.0.0.0/8.
func dialFrom(from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", addr)
}

// TestSinkSurvivesStrangers: 100 garbage connections from 25 loopback addresses — some held
// open without a word, some sending junk, some wrong tokens — arrive before and while a real
// sender connects; the sender's copy is accepted and completes, the sink does not stop
// listening for the strangers, and each stranger's address is logged once.
func TestSinkSurvivesStrangers(t *testing.T) {
	dir := t.TempDir()
	var logMu sync.Mutex
	var logs []string
	s := startSink(t, dir, SinkConfig{HandshakeTimeout: time.Minute})
	s.cfg.Log = func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		logs = append(logs, fmt.Sprintf(format, args...))
	}
	ch := serve(s, context.Background())
	addr := s.Addr().String()
	var strangers []net.Conn
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dialFrom(fmt.Sprintf("127.0.0.%d", 100+i%25), addr)
			if err != nil {
				return // refused at once by a full sink is what a stranger may get
			}
			switch i % 4 {
			case 1:
				fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			case 2:
				fmt.Fprintf(c, "%s\n", strings.Repeat("\x00\xff", 3000))
			case 3:
				fmt.Fprintf(c, "IOMARK-COPY 1 %s 1048576\n", strings.Repeat("0", 32))
			} // 0: says nothing and holds the connection open
			mu.Lock()
			strangers = append(strangers, c)
			mu.Unlock()
		}()
	}
	wg.Wait()
	defer func() {
		for _, c := range strangers {
			c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const size = 64 << 20
	res, err := Send(ctx, SendConfig{Addr: addr, Token: s.Token(), Size: size})
	if err != nil {
		t.Fatalf("the real sender among 100 strangers: %v", err)
	}
	if res.Sink == nil || res.Sink.WrittenBytes != size || res.Sink.Ended != "complete" {
		t.Fatalf("the copy among strangers: %+v", res.Sink)
	}
	// The rate is logged beside a quiet copy's for people (not asserted: the machine is shared).
	quiet := startSink(t, t.TempDir(), SinkConfig{})
	qch := serve(quiet, context.Background())
	qres, err := Send(ctx, SendConfig{Addr: quiet.Addr().String(), Token: quiet.Token(), Size: size})
	if err == nil && qres.Sink != nil {
		t.Logf("copy among 100 strangers: %.0f MB/s over the network, %.0f MB/s to the drive; a quiet copy: %.0f and %.0f MB/s",
			res.Sink.NetMBPerS, res.Sink.DriveMBPerS, qres.Sink.NetMBPerS, qres.Sink.DriveMBPerS)
	}
	<-qch
	got := <-ch
	if got.err != nil || got.rec == nil {
		t.Fatalf("Serve: %v", got.err)
	}
	logMu.Lock()
	defer logMu.Unlock()
	firsts := map[string]int{}
	for _, l := range logs {
		if strings.HasPrefix(l, "refused 127.0.0.") {
			host := strings.SplitN(strings.TrimPrefix(l, "refused "), ":", 2)[0]
			firsts[host]++
		}
	}
	for host, n := range firsts {
		if n != 1 {
			t.Errorf("%s's refusals were logged %d times one by one, want once (then counted)", host, n)
		}
	}
	if len(firsts) == 0 {
		t.Errorf("no stranger was logged: %q", logs)
	}
}
