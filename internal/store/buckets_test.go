package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestTakeTokens(t *testing.T) { onEachBackend(t, testTakeTokens) }

// Buckets shared through the database: two stores on one database together take no more than
// the burst, a refusal takes nothing from the other buckets, tokens refill with time, and
// pruning forgets only refilled buckets.
func testTakeTokens(t *testing.T, dsn string) {
	ctx := context.Background()
	a, b := openT(t, dsn), openT(t, dsn)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	addr := Bucket{Key: "addr:192.0.2.1", PerS: 0.5, Burst: 5}
	all := Bucket{Key: "all", PerS: 10, Burst: 100}
	var mu sync.Mutex
	taken := 0
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func(s *Store) {
			defer wg.Done()
			_, ok, err := s.TakeTokens(ctx, []Bucket{addr, all}, now)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				taken++
				mu.Unlock()
			}
		}([]*Store{a, b}[i%2])
	}
	wg.Wait()
	if taken != 5 {
		t.Errorf("two stores took %d tokens from a bucket of 5, want 5", taken)
	}
	wait, ok, err := a.TakeTokens(ctx, []Bucket{addr, all}, now)
	if err != nil || ok || wait != 2 {
		t.Errorf("past the burst: wait %v ok %v err %v; want a refusal with 2 s to wait", wait, ok, err)
	}
	// The global bucket lost only the 5 accepted tokens: 95 left, so 95 other addresses pass.
	for i := range 95 {
		other := Bucket{Key: "addr:other" + string(rune('a'+i%26)) + string(rune('a'+i/26)), PerS: 0.5, Burst: 5}
		if _, ok, err := b.TakeTokens(ctx, []Bucket{other, all}, now); err != nil || !ok {
			t.Fatalf("address %d refused (%v): refused uploads took global tokens", i, err)
		}
	}
	if _, ok, _ := b.TakeTokens(ctx, []Bucket{{Key: "addr:new", PerS: 0.5, Burst: 5}, all}, now); ok {
		t.Error("the global bucket gave a 101st token")
	}
	if _, ok, err := a.TakeTokens(ctx, []Bucket{addr, all}, now.Add(2*time.Second)); err != nil || !ok {
		t.Errorf("after 2 s a token refilled: ok %v err %v", ok, err)
	}
	if err := a.PruneTokens(ctx, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := a.db.QueryRowContext(ctx, `SELECT count(*) FROM token_buckets`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 2 { // addr and all, touched at now+2s
		t.Errorf("%d buckets kept after pruning, want 2", rows)
	}
}
