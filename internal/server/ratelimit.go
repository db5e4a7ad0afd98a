package server

import (
	"math"
	"net"
	"net/http"
	"sync"
	"time"
)

// limiter is a token bucket per client address. Addresses idle long enough to have refilled
// are forgotten, so memory stays bounded by the addresses active in the last few minutes.
type limiter struct {
	perS  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(perS float64, burst int, now func() time.Time) *limiter {
	if burst < 1 {
		burst = 1
	}
	return &limiter{perS: perS, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token for addr; when none is left it returns the seconds to wait.
func (l *limiter) allow(addr string) (waitS int, ok bool) {
	if l.perS < 0 {
		return 0, true
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		full := time.Duration(l.burst / l.perS * float64(time.Second))
		for k, b := range l.buckets {
			if now.Sub(b.at) > full {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b := l.buckets[addr]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[addr] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.perS)
	b.at = now
	if b.tokens < 1 {
		return int(math.Ceil((1 - b.tokens) / l.perS)), false
	}
	b.tokens--
	return 0, true
}

// clientAddr is the peer's IP address. Forwarding headers are not trusted: anyone can set them.
// Behind a reverse proxy every client shares the proxy's address; limit there instead.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
