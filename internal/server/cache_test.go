package server

import (
	"errors"
	"testing"
	"time"
)

func TestCacheReusesUntilTTL(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newCache(30*time.Second, func() time.Time { return now })
	calls := 0
	compute := func() (any, error) { calls++; return calls, nil }
	for _, step := range []struct {
		advance time.Duration
		want    int
	}{{0, 1}, {10 * time.Second, 1}, {25 * time.Second, 2}, {time.Second, 2}} {
		now = now.Add(step.advance)
		if v, _ := c.get("k", compute); v != step.want {
			t.Errorf("after +%v: %v, want %d", step.advance, v, step.want)
		}
	}
	if _, err := c.get("e", func() (any, error) { return nil, errors.New("boom") }); err == nil {
		t.Error("error lost")
	}
	if v, _ := c.get("e", compute); v != 3 {
		t.Errorf("an error was cached: %v", v)
	}
	off := newCache(-1, time.Now)
	a, _ := off.get("k", compute)
	b, _ := off.get("k", compute)
	if a == b {
		t.Error("a disabled cache reused a value")
	}
}
