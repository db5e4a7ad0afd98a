package server

import (
	"sync"
	"time"
)

// cache keeps the data of expensive, shared views (home, board rankings) for a short time:
// they are the same for every visitor, and ranking reads many figures. A new upload shows there
// within cacheTTL; search, drive and result pages are never cached.
type cache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]cacheEntry
}

type cacheEntry struct {
	v  any
	at time.Time
}

const cacheTTL = 30 * time.Second

// maxCacheEntries bounds memory: board names come from requests.
const maxCacheEntries = 1000

func newCache(ttl time.Duration, now func() time.Time) *cache {
	return &cache{ttl: ttl, now: now, entries: map[string]cacheEntry{}}
}

// get returns the cached value of key, or computes and keeps it. Errors are not cached.
func (c *cache) get(key string, compute func() (any, error)) (any, error) {
	if c.ttl <= 0 {
		return compute()
	}
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < c.ttl {
		return e.v, nil
	}
	v, err := compute()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.entries) >= maxCacheEntries {
		clear(c.entries)
	}
	c.entries[key] = cacheEntry{v: v, at: now}
	c.mu.Unlock()
	return v, nil
}
