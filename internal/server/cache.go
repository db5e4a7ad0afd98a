package server

import (
	"context"
	"sync"
	"time"
)

// cache keeps the data of expensive, shared views (home and board rankings, drive summaries,
// search counts) for a short time: they are the same for every visitor, and computing them
// reads many figures. Once a value is older than ttl the next request still gets it while one
// background refresh computes the new one, so no visitor waits for it after the first. A new
// upload shows there within about ttl; result lists and result pages are never cached.
type cache struct {
	ttl time.Duration
	now func() time.Time

	mu         sync.Mutex
	entries    map[string]*cacheEntry
	refreshing sync.WaitGroup // background refreshes, for tests
}

type cacheEntry struct {
	v          any
	at         time.Time
	refreshing bool
}

const (
	cacheTTL = 30 * time.Second
	// maxCacheEntries bounds memory: board names come from requests.
	maxCacheEntries = 1000
	// refreshTimeout bounds a background refresh, which no request waits for.
	refreshTimeout = time.Minute
)

func newCache(ttl time.Duration, now func() time.Time) *cache {
	return &cache{ttl: ttl, now: now, entries: map[string]*cacheEntry{}}
}

// get returns the value of key: computed now when there is none, else the kept one, refreshed
// in the background when stale. Errors are not kept.
func (c *cache) get(ctx context.Context, key string, compute func(ctx context.Context) (any, error)) (any, error) {
	if c.ttl <= 0 {
		return compute(ctx)
	}
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[key]
	if ok {
		v := e.v
		if now.Sub(e.at) >= c.ttl && !e.refreshing {
			e.refreshing = true
			c.refreshing.Add(1)
			go c.refresh(key, compute)
		}
		c.mu.Unlock()
		return v, nil
	}
	c.mu.Unlock()
	v, err := compute(ctx)
	if err != nil {
		return nil, err
	}
	c.put(key, v, now)
	return v, nil
}

func (c *cache) refresh(key string, compute func(ctx context.Context) (any, error)) {
	defer c.refreshing.Done()
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	defer cancel()
	v, err := compute(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		if e := c.entries[key]; e != nil {
			e.refreshing = false // the next request tries again
		}
		return
	}
	c.putLocked(key, v, c.now())
}

func (c *cache) put(key string, v any, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(key, v, at)
}

func (c *cache) putLocked(key string, v any, at time.Time) {
	if _, ok := c.entries[key]; !ok && len(c.entries) >= maxCacheEntries {
		clear(c.entries)
	}
	c.entries[key] = &cacheEntry{v: v, at: at}
}
