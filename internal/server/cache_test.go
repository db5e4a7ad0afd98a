package server

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

func TestCacheServesStaleWhileRefreshing(t *testing.T) {
	ctx := context.Background()
	var now atomic.Int64
	clock := func() time.Time { return time.Unix(now.Load(), 0) }
	c := newCache(30*time.Second, 1<<20, clock)
	var calls atomic.Int64
	compute := func(context.Context) (any, error) { return int(calls.Add(1)), nil }
	get := func() any {
		v, err := c.get(ctx, "k", compute)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := get(); v != 1 {
		t.Fatalf("first = %v", v)
	}
	now.Add(10)
	if v := get(); v != 1 || calls.Load() != 1 {
		t.Errorf("fresh value recomputed: %v, %d calls", v, calls.Load())
	}
	now.Add(25) // stale: still served, refreshed behind
	if v := get(); v != 1 {
		t.Errorf("stale get = %v, want the kept 1", v)
	}
	c.refreshing.Wait()
	if v := get(); v != 2 {
		t.Errorf("after the refresh = %v, want 2", v)
	}
	if _, err := c.get(ctx, "e", func(context.Context) (any, error) { return nil, errors.New("boom") }); err == nil {
		t.Error("error lost")
	}
	if v, _ := c.get(ctx, "e", compute); v != 3 {
		t.Errorf("an error was kept: %v", v)
	}
	off := newCache(-1, 1<<20, time.Now)
	a, _ := off.get(ctx, "k", compute)
	b, _ := off.get(ctx, "k", compute)
	if a == b {
		t.Error("a disabled cache reused a value")
	}
}

// The kept values stay within the byte bound, the oldest going first; a value larger than the
// whole bound is not kept.
func TestCacheBoundedInBytes(t *testing.T) {
	ctx := context.Background()
	var now atomic.Int64
	c := newCache(time.Hour, 64<<10, func() time.Time { return time.Unix(now.Add(1), 0) })
	for i := range 100 {
		key := string(rune('a'+i%26)) + string(rune('a'+i/26))
		if _, err := c.get(ctx, key, func(context.Context) (any, error) { return make([]float64, 1000), nil }); err != nil {
			t.Fatal(err)
		}
		if c.bytes > 64<<10 {
			t.Fatalf("after %d values the cache holds %d bytes, over its 64 KiB", i+1, c.bytes)
		}
	}
	if n := len(c.entries); n < 5 || n > 8 {
		t.Errorf("%d values of 8 KB kept in 64 KiB", n)
	}
	if _, ok := c.entries["aa"]; ok { // the first ones went first
		t.Error("an old value outlived newer ones")
	}
	if _, err := c.get(ctx, "huge", func(context.Context) (any, error) { return make([]float64, 100000), nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.entries["huge"]; ok {
		t.Error("a value larger than the cache was kept")
	}
	if got := sizeOf(reflect.ValueOf(driveStats{Tests: []TestStats{{Test: "seq-read-1m"}}, Chart: Distribution{Values: make([]float64, 1000)}})); got < 8000 || got > 12000 {
		t.Errorf("sizeOf a drive summary with 1,000 values = %d bytes", got)
	}
}

// Requests for a key nobody has computed yet share one computation.
func TestCacheComputesOnceForConcurrentMisses(t *testing.T) {
	c := newCache(time.Minute, 1<<20, time.Now)
	var calls atomic.Int64
	release := make(chan struct{})
	compute := func(context.Context) (any, error) {
		calls.Add(1)
		<-release
		return 42, nil
	}
	results := make(chan any, 10)
	for range 10 {
		go func() {
			v, _ := c.get(context.Background(), "k", compute)
			results <- v
		}()
	}
	for calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	for range 10 {
		if v := <-results; v != 42 {
			t.Errorf("got %v", v)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d computations for 10 concurrent misses, want 1", n)
	}
}

// A computation that panics ends its flight: the next request computes again instead of waiting.
func TestCachePanicEndsTheFlight(t *testing.T) {
	c := newCache(time.Minute, 1<<20, time.Now)
	func() {
		defer func() { _ = recover() }()
		_, _ = c.get(context.Background(), "k", func(context.Context) (any, error) { panic("boom") })
	}()
	done := make(chan any, 1)
	go func() {
		v, _ := c.get(context.Background(), "k", func(context.Context) (any, error) { return 7, nil })
		done <- v
	}()
	select {
	case v := <-done:
		if v != 7 {
			t.Errorf("got %v", v)
		}
	case <-time.After(time.Minute):
		t.Fatal("a request waited for a flight that panicked")
	}
}
