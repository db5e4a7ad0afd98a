package server

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestCacheServesStaleWhileRefreshing(t *testing.T) {
	ctx := context.Background()
	var now atomic.Int64
	clock := func() time.Time { return time.Unix(now.Load(), 0) }
	c := newCache(30*time.Second, clock)
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
	off := newCache(-1, time.Now)
	a, _ := off.get(ctx, "k", compute)
	b, _ := off.get(ctx, "k", compute)
	if a == b {
		t.Error("a disabled cache reused a value")
	}
}
