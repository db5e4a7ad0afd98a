package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"
)

// dialFrom opens a TCP connection to the test server from a loopback address of 127.0.0.0/8.
func dialFrom(t *testing.T, ts *testServer, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatalf("dialing from %s: %v", from, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// startTrickle sends an upload's headers announcing size bytes and the first bytes of its body,
// and leaves the rest unsent.
func startTrickle(t *testing.T, c net.Conn, size int) {
	t.Helper()
	_, err := fmt.Fprintf(c, "POST /api/v1/results HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"id\":", size)
	if err != nil {
		t.Fatal(err)
	}
}

// answer reads the status of the one response on c.
func answer(t *testing.T, c net.Conn) int {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Uploads whose bodies trickle hold no processing slot: with the only read slot and the only
// upload slot free, pages and another client's upload are served beside them; a third body
// from one address is refused (429) while two are read; a stalled body is answered 408.
func testSlowBodies(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1, MaxInFlight: 1, MaxQueued: 1,
		QueueWait: 200 * time.Millisecond, bodyGrace: time.Second})
	slow := []net.Conn{dialFrom(t, ts, "127.0.0.2"), dialFrom(t, ts, "127.0.0.2")}
	for _, c := range slow {
		startTrickle(t, c, 200_000)
	}
	// Not a timing assertion: until both bodies are being read the third may be accepted for
	// reading too, so wait until the server counts them.
	srv := ts.Config.Handler.(*Server)
	for srv.bodies.count("127.0.0.2") < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	third := dialFrom(t, ts, "127.0.0.2")
	startTrickle(t, third, 200_000)
	if c := answer(t, third); c != http.StatusTooManyRequests {
		t.Errorf("a third body from one address: %d, want 429", c)
	}
	for _, path := range []string{"/", "/search?q=x", "/api/v1/home"} {
		if c, _ := ts.get(t, path); c != 200 {
			t.Errorf("%s beside two trickling uploads: %d", path, c)
		}
	}
	good := sampleRecord("beside-slow", "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 40)
	if c, out := ts.post(t, encode(t, good)); c != http.StatusCreated {
		t.Errorf("an upload beside two trickling ones: %d %v", c, out)
	}
	for i, c := range slow {
		if code := answer(t, c); code != http.StatusRequestTimeout {
			t.Errorf("trickling upload %d: %d, want 408", i, code)
		}
	}
	if n := srv.bodies.count("127.0.0.2"); n != 0 {
		t.Errorf("%d bodies still counted after the stalls were answered", n)
	}
}

// The bytes of bodies being read are bounded, counted as they arrive (a trickler holds only
// what it sent): past BodyMemory an upload is turned away with 503 and Retry-After, and
// accepted again once memory is free.
func testBodyMemory(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1, BodyMemory: 300_000, bodyGrace: time.Second})
	srv := ts.Config.Handler.(*Server)
	hog := dialFrom(t, ts, "127.0.0.4")
	startTrickle(t, hog, 300_000)
	if _, err := hog.Write(make([]byte, 250_000)); err != nil {
		t.Fatal(err)
	}
	for srv.bodies.held() < 250_000 {
		time.Sleep(5 * time.Millisecond)
	}
	other := dialFrom(t, ts, "127.0.0.5")
	startTrickle(t, other, 100_000)
	_ = other.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(other), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !retryLater(resp) {
		t.Errorf("past the body memory: %d Retry-After %q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if c := answer(t, hog); c != http.StatusRequestTimeout {
		t.Errorf("the stalled upload: %d, want 408", c)
	}
	good := sampleRecord("after-hog", "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 40)
	if c, out := ts.post(t, encode(t, good)); c != http.StatusCreated {
		t.Errorf("once memory is free: %d %v", c, out)
	}
	if srv.bodies.held() != 0 {
		t.Errorf("%d body bytes still reserved", srv.bodies.reserved)
	}
}
