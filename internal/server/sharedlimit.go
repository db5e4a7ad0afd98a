package server

import (
	"context"
	"math"
	"net/netip"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// Upload limits shared by every server on one PostgreSQL database: the per-address, per-network
// and whole-site buckets live in the database (store.TakeTokens), so N instances behind a load
// balancer accept what one would. On SQLite (one server per file) they stay in memory
// (ratelimit.go), as does the per-client request limit everywhere: it guards this process's CPU,
// which each instance has its own of.

// pruneEvery is how often a server deletes the shared buckets that have refilled.
const pruneEvery = time.Minute

type sharedLimits struct {
	st   *store.Store
	sets [3]store.Bucket // per address, per network, global: PerS and Burst; Key is a prefix
	off  bool
	now  func() time.Time

	mu     sync.Mutex
	pruned time.Time
}

func newSharedLimits(st *store.Store, opts Options) *sharedLimits {
	return &sharedLimits{st: st, off: opts.SubmitPerS < 0, now: opts.now, sets: [3]store.Bucket{
		{Key: "upload-addr:", PerS: opts.SubmitPerS, Burst: math.Max(1, float64(opts.SubmitBurst))},
		{Key: "upload-net:", PerS: opts.PrefixSubmitPerS, Burst: math.Max(1, float64(opts.PrefixSubmitBurst))},
		{Key: "upload-all", PerS: opts.GlobalSubmitPerS, Burst: math.Max(1, float64(opts.GlobalSubmitBurst))},
	}}
}

func (l *sharedLimits) allow(ctx context.Context, ip netip.Addr) (waitS int, ok bool, err error) {
	if l.off {
		return 0, true, nil
	}
	now := l.now()
	buckets := []store.Bucket{l.sets[0], l.sets[1], l.sets[2]}
	buckets[0].Key += ip.String()
	buckets[1].Key += prefixKey(ip)
	wait, ok, err := l.st.TakeTokens(ctx, buckets, now)
	if err != nil {
		return 0, false, err
	}
	l.prune(ctx, now)
	return int(wait), ok, nil
}

// prune deletes, at most once a minute, the buckets untouched for longer than the slowest takes
// to refill: a bucket that is gone starts full, so nothing is forgiven.
func (l *sharedLimits) prune(ctx context.Context, now time.Time) {
	l.mu.Lock()
	if now.Sub(l.pruned) < pruneEvery && !now.Before(l.pruned) {
		l.mu.Unlock()
		return
	}
	l.pruned = now
	l.mu.Unlock()
	var fullS float64
	for _, b := range l.sets {
		fullS = math.Max(fullS, b.Burst/b.PerS)
	}
	_ = l.st.PruneTokens(ctx, now.Add(-time.Duration(fullS*float64(time.Second))-time.Second))
}

// allowUpload takes an upload token for ip from the shared buckets on PostgreSQL, else from the
// process's own.
func (s *Server) allowUpload(ctx context.Context, ip netip.Addr) (waitS int, ok bool, err error) {
	if s.shared != nil {
		return s.shared.allow(ctx, ip)
	}
	waitS, ok = s.submits.allow(ip.String(), prefixKey(ip), "all")
	return waitS, ok, nil
}
