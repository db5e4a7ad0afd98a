package server

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"
)

// cache keeps the data of expensive, shared views (home and board rankings, drive summaries,
// search counts) for a short time: they are the same for every visitor, and computing them
// reads many figures. Once a value is older than ttl the next request still gets it while one
// background refresh computes the new one, so no visitor waits for it after the first. A new
// upload shows there within about ttl; result lists and result pages are never cached.
//
// What it keeps is bounded in bytes (estimated by sizeOf): when a new value would pass the
// bound, the values kept longest go first. Keys come from requests (boards, drives, searches),
// so without the bound a crawler walking every drive would grow it without end.
type cache struct {
	ttl      time.Duration
	maxBytes int64
	now      func() time.Time

	mu         sync.Mutex
	entries    map[string]*cacheEntry
	bytes      int64
	gen        int64 // raised by clear: a refresh begun before does not keep its value
	pending    map[string]*flight
	refreshing sync.WaitGroup // background refreshes, for tests
}

type cacheEntry struct {
	v          any
	at         time.Time
	size       int64
	refreshing bool
}

const (
	cacheTTL = 30 * time.Second
	// refreshTimeout bounds a background refresh, which no request waits for.
	refreshTimeout = time.Minute
)

func newCache(ttl time.Duration, maxBytes int64, now func() time.Time) *cache {
	return &cache{ttl: ttl, maxBytes: maxBytes, now: now, entries: map[string]*cacheEntry{}}
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
	// One computation per key at a time: requests arriving while it runs wait for its value
	// instead of each reading the same figures (at a start, every visitor of a popular page).
	if f, ok := c.pending[key]; ok {
		c.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.err == nil || !errors.Is(f.err, context.Canceled) && !errors.Is(f.err, context.DeadlineExceeded) {
			return f.v, f.err
		}
		return compute(ctx) // the one computing gave up (its client left): this request still wants it
	}
	f := &flight{done: make(chan struct{})}
	if c.pending == nil {
		c.pending = map[string]*flight{}
	}
	c.pending[key] = f
	gen := c.gen
	c.mu.Unlock()
	var panicked any
	func() {
		// A panic must still end the flight, or every later request for the key would wait.
		defer func() {
			if v := recover(); v != nil {
				panicked, f.err = v, fmt.Errorf("computing %q panicked: %v", key, v)
			}
		}()
		f.v, f.err = compute(ctx)
	}()
	c.mu.Lock()
	delete(c.pending, key)
	if f.err == nil && gen == c.gen {
		c.putLocked(key, f.v, now)
	}
	c.mu.Unlock()
	close(f.done)
	if panicked != nil {
		panic(panicked) // on to ServeHTTP's recover, which logs it
	}
	return f.v, f.err
}

// flight is a computation others wait for.
type flight struct {
	done chan struct{}
	v    any
	err  error
}

func (c *cache) refresh(key string, compute func(ctx context.Context) (any, error)) {
	defer c.refreshing.Done()
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	defer cancel()
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	v, err := func() (v any, err error) {
		defer func() { // no request waits here to recover it: a panic would end the process
			if p := recover(); p != nil {
				err = fmt.Errorf("refreshing %q panicked: %v", key, p)
			}
		}()
		return compute(ctx)
	}()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return // cleared meanwhile: the value may show what is no longer listed
	}
	if err != nil {
		if e := c.entries[key]; e != nil {
			e.refreshing = false // the next request tries again
		}
		return
	}
	c.putLocked(key, v, c.now())
}

// clear drops every kept value (moderation changed what is listed).
func (c *cache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.bytes = 0
	c.gen++
}

func (c *cache) putLocked(key string, v any, at time.Time) {
	size := int64(len(key)) + sizeOf(reflect.ValueOf(v))
	if old, ok := c.entries[key]; ok {
		c.bytes -= old.size
		delete(c.entries, key)
	}
	if size > c.maxBytes {
		return // larger than the whole cache: computed for each request instead
	}
	for c.bytes+size > c.maxBytes {
		oldest := ""
		for k, e := range c.entries {
			if oldest == "" || e.at.Before(c.entries[oldest].at) {
				oldest = k
			}
		}
		c.bytes -= c.entries[oldest].size
		delete(c.entries, oldest)
	}
	c.entries[key] = &cacheEntry{v: v, at: at, size: size}
	c.bytes += size
}

// sizeOf estimates the bytes a value holds: its own size and what its pointers, slices, strings
// and maps reach (shared memory is counted each time it is reached).
func sizeOf(v reflect.Value) int64 {
	if !v.IsValid() {
		return 0
	}
	n := int64(v.Type().Size())
	return n + reached(v)
}

// reached is what v points at, beyond its own size.
func reached(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return sizeOf(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		elem := v.Type().Elem()
		n := int64(v.Cap()) * int64(elem.Size())
		if hasPointers(elem) {
			for i := range v.Len() {
				n += reached(v.Index(i))
			}
		}
		return n
	case reflect.Array:
		var n int64
		if hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				n += reached(v.Index(i))
			}
		}
		return n
	case reflect.Struct:
		var n int64
		for i := range v.NumField() {
			n += reached(v.Field(i))
		}
		return n
	case reflect.Map:
		var n int64
		it := v.MapRange()
		for it.Next() {
			n += sizeOf(it.Key()) + sizeOf(it.Value()) + 16 // a bucket slot's overhead, roughly
		}
		return n
	}
	return 0
}

// hasPointers reports whether values of t reach other memory (strings, slices, pointers…).
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func:
		return true
	case reflect.Array:
		return hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
