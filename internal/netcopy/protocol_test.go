package netcopy

import (
	"bufio"
	"strings"
	"testing"
)

func TestProtocolLines(t *testing.T) {
	tok, err := NewToken()
	if err != nil || len(tok) != 32 {
		t.Fatalf("token %q, %v", tok, err)
	}
	h, err := parseHello(strings.TrimSuffix(hello{token: tok, size: 10 << 30}.String(), "\n"))
	if err != nil || h.token != tok || h.size != 10<<30 {
		t.Errorf("hello round trip: %+v, %v", h, err)
	}
	for _, bad := range []string{"", "GET / HTTP/1.1", "IOMARK-COPY 2 t 5", "IOMARK-COPY 1 t -5", "IOMARK-COPY 1 t x", "IOMARK-COPY 1 t 5 extra"} {
		if _, err := parseHello(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if !tokenMatches(tok, tok) || tokenMatches(tok, tok[:31]+"x") || tokenMatches("", tok) {
		t.Error("token comparison wrong")
	}
	s := Summary{WrittenBytes: 123, NetMBPerS: 110.5, DriveMBPerS: 300.25, Limit: "network", Ended: "complete"}
	got, err := parseSummary(strings.TrimSuffix(s.line(), "\n"))
	if err != nil || got != s {
		t.Errorf("summary round trip: %+v, %v", got, err)
	}
	if _, err := readLine(bufio.NewReader(strings.NewReader(strings.Repeat("x", 600) + "\n"))); err == nil {
		t.Error("a 600-byte line was read")
	}
}

// FuzzParseHello: a hostile greeting never panics, and an accepted one has a sane size.
func FuzzParseHello(f *testing.F) {
	f.Add("IOMARK-COPY 1 0123456789abcdef0123456789abcdef 10737418240")
	f.Add("IOMARK-COPY 1 t 0")
	f.Add("\x00\xff")
	f.Fuzz(func(t *testing.T, line string) {
		h, err := parseHello(line)
		if err == nil && (h.size <= 0 || h.size > 1<<50) {
			t.Fatalf("size %d accepted", h.size)
		}
		if _, err := readLine(bufio.NewReader(strings.NewReader(line))); err != nil && len(line) < 10 {
			_ = err
		}
	})
}

// FuzzParseSummary: whatever a sink says, the sender never panics.
func FuzzParseSummary(f *testing.F) {
	f.Add("DONE written=1 net_mb_per_s=2 drive_mb_per_s=3 limit=drive ended=complete")
	f.Add("DONE written==")
	f.Fuzz(func(t *testing.T, line string) { _, _ = parseSummary(line) })
}
