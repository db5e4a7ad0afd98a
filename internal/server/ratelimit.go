package server

import (
	"math"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// Abuse control. Requests are limited per client (an IPv4 address, or an IPv6 /64: one host
// holds a whole /64). Uploads are limited three ways at once: per address, per network prefix
// (IPv4 /24, IPv6 /64), so a thousand cheap addresses in one network share one budget, and a
// global rate for the whole server. Each is a token bucket; the buckets kept are bounded
// (maxBuckets per limit): buckets that have refilled are forgotten, and when the bound is
// reached anyway new clients share one overflow bucket, so no flood of addresses can grow memory
// or reset another client's bucket.

// maxBuckets bounds the clients one limit keeps (a few MiB at most).
const maxBuckets = 16384

// overflowKey is the bucket clients share once maxBuckets are kept.
const overflowKey = "\x00overflow"

// buckets are token buckets by key.
type buckets struct {
	perS, burst float64
	m           map[string]*bucket
	swept       time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newBuckets(perS float64, burst int) *buckets {
	return &buckets{perS: perS, burst: math.Max(1, float64(burst)), m: map[string]*bucket{}}
}

// get returns key's bucket refilled to now, forgetting full ones once a minute.
func (b *buckets) get(key string, now time.Time) *bucket {
	if now.Sub(b.swept) > time.Minute {
		full := time.Duration(b.burst / b.perS * float64(time.Second))
		for k, x := range b.m {
			if now.Sub(x.at) > full {
				delete(b.m, k)
			}
		}
		b.swept = now
	}
	x := b.m[key]
	if x == nil {
		if len(b.m) >= maxBuckets {
			key = overflowKey
			x = b.m[key]
		}
		if x == nil {
			x = &bucket{tokens: b.burst, at: now}
			b.m[key] = x
		}
	}
	x.tokens = math.Min(b.burst, x.tokens+now.Sub(x.at).Seconds()*b.perS)
	x.at = now
	return x
}

// wait is the seconds until x holds a token.
func (b *buckets) wait(x *bucket) int {
	return max(1, int(math.Ceil((1-x.tokens)/b.perS)))
}

// limiter takes one token from each of several buckets at once, or none: a refused upload
// costs no budget.
type limiter struct {
	now func() time.Time
	mu  sync.Mutex
	off bool
	// per address, per prefix, global: a nil one is not limited
	sets []*buckets
}

// allow takes a token for each key (one per bucket set, in order); when one set has none left it
// returns the seconds to wait and takes nothing.
func (l *limiter) allow(keys ...string) (waitS int, ok bool) {
	if l.off {
		return 0, true
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	got := make([]*bucket, len(l.sets))
	for i, set := range l.sets {
		got[i] = set.get(keys[i], now)
		if got[i].tokens < 1 {
			return set.wait(got[i]), false
		}
	}
	for _, x := range got {
		x.tokens--
	}
	return 0, true
}

// size is how many buckets the limiter keeps (tests).
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.sets {
		n += len(s.m)
	}
	return n
}

// clientIP is the client's address as ServeHTTP resolved it (proxy.go): the peer's, or behind a
// trusted proxy the one it forwarded.
func clientIP(r *http.Request) netip.Addr {
	if a, ok := r.Context().Value(clientKeyCtx{}).(netip.Addr); ok {
		return a
	}
	return peerIP(r)
}

// clientKey names a client: an IPv4 address, or the /64 of an IPv6 one.
func clientKey(a netip.Addr) string {
	if !a.IsValid() {
		return "unknown"
	}
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// prefixKey names a client's network: its IPv4 /24 or IPv6 /64.
func prefixKey(a netip.Addr) string {
	if !a.IsValid() {
		return "unknown"
	}
	bits := 64
	if a.Is4() {
		bits = 24
	}
	p, _ := a.Prefix(bits)
	return p.String()
}
