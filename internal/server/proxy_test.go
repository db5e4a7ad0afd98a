package server

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"testing"
	"time"
)

// clientFrom is an HTTP client whose connections come from a loopback address of 127.0.0.0/8.
func clientFrom(from string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

func uploadWith(t *testing.T, c *http.Client, base, id string, header http.Header) int {
	t.Helper()
	rec := sampleRecord(id, "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 40)
	req, err := http.NewRequest("POST", base+"/api/v1/results", bytes.NewReader(encode(t, rec)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Behind a real reverse proxy (net/http/httputil, which appends the address it received each
// request from to X-Forwarded-For) two clients get two upload budgets when the server trusts the
// proxy, a client's own forged X-Forwarded-For through the proxy changes nothing, and the same
// header sent straight to the server by an untrusted peer changes nothing either.
func testTrustedProxy(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: 0.0001, SubmitBurst: 2, PrefixSubmitBurst: 1000, PrefixSubmitPerS: 1,
		GlobalSubmitBurst: 1000, GlobalSubmitPerS: 1, RequestPerS: -1,
		// The proxy below connects to the server from 127.0.0.1.
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	target, _ := url.Parse(ts.URL)
	proxy := httptest.NewServer(httputil.NewSingleHostReverseProxy(target))
	t.Cleanup(proxy.Close)

	n := 0
	next := func() string { n++; return fmt.Sprintf("proxied-%d", n) }
	a, b := clientFrom("127.0.0.10"), clientFrom("127.0.0.11")
	for i := range 2 {
		if c := uploadWith(t, a, proxy.URL, next(), nil); c != 201 {
			t.Errorf("client A's upload %d through the proxy: %d, want 201", i, c)
		}
	}
	if c := uploadWith(t, a, proxy.URL, next(), nil); c != 429 {
		t.Errorf("client A past its budget: %d, want 429", c)
	}
	// A forged header through the proxy: the proxy appends A's address, which is what counts.
	forged := http.Header{"X-Forwarded-For": {"198.51.100.1"}}
	if c := uploadWith(t, a, proxy.URL, next(), forged); c != 429 {
		t.Errorf("client A with a forged X-Forwarded-For through the proxy: %d, want 429", c)
	}
	for i := range 2 {
		if c := uploadWith(t, b, proxy.URL, next(), nil); c != 201 {
			t.Errorf("client B's upload %d through the proxy: %d, want 201 (a budget of its own)", i, c)
		}
	}
	// An untrusted peer sending the header straight to the server gets its own address's budget
	// whatever it names.
	direct := clientFrom("127.0.0.20")
	for i := range 3 {
		h := http.Header{"X-Forwarded-For": {fmt.Sprintf("203.0.113.%d", i+1)}}
		want := 201
		if i == 2 {
			want = 429
		}
		if c := uploadWith(t, direct, ts.URL, next(), h); c != want {
			t.Errorf("untrusted peer's upload %d with a forged X-Forwarded-For: %d, want %d", i, c, want)
		}
	}
}

func TestResolveClient(t *testing.T) {
	proxies, err := ParseTrustedProxies([]string{"10.0.0.0/8,127.0.0.1", "fd00::/8"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{opts: Options{TrustedProxies: proxies}}
	for _, tt := range []struct {
		peer string
		xff  []string
		want string
	}{
		{"192.0.2.1:5000", []string{"198.51.100.7"}, "192.0.2.1"},                      // untrusted peer: header ignored
		{"10.1.1.1:5000", nil, "10.1.1.1"},                                             // trusted, no header: the proxy itself
		{"10.1.1.1:5000", []string{"198.51.100.7"}, "198.51.100.7"},                    // one proxy
		{"10.1.1.1:5000", []string{"6.6.6.6, 198.51.100.7, 10.2.2.2"}, "198.51.100.7"}, // two proxies, a forged hop left
		{"10.1.1.1:5000", []string{"6.6.6.6", "198.51.100.7"}, "198.51.100.7"},         // two header lines
		{"10.1.1.1:5000", []string{"198.51.100.7, garbage"}, "10.1.1.1"},               // unreadable hop: the last trusted one
		{"[::ffff:127.0.0.1]:5000", []string{"198.51.100.9"}, "198.51.100.9"},          // IPv4-mapped peer
		{"[fd00::1]:5000", []string{"2001:db8::5"}, "2001:db8::5"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.peer
		for _, h := range tt.xff {
			r.Header.Add("X-Forwarded-For", h)
		}
		if got := s.resolveClient(r); got.String() != tt.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %s, want %s", tt.peer, tt.xff, got, tt.want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "not-an-address", "10.0.0.0/8,x"} {
		if _, err := ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("--trusted-proxy %q accepted", bad)
		}
	}
}
