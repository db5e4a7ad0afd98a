package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/testkit/pg"
)

// Two servers start at once on one fresh PostgreSQL database: it is migrated and seeded once.
// Then one address uploading to both, turn about, gets one budget between them, not two.
func TestTwoInstancesPostgres(t *testing.T) {
	dsn := pg.Start(t)
	ctx := context.Background()
	stores := make([]*store.Store, 2)
	added := make([]int, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := store.Open(ctx, dsn)
			if err != nil {
				errs[i] = err
				return
			}
			stores[i] = st
			added[i], errs[i] = SeedPublished(ctx, st)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("server %d starting: %v", i, err)
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	results, err := refdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	if added[0]+added[1] != len(results) {
		t.Errorf("the two servers seeded %d + %d published results, want %d in all (each once)", added[0], added[1], len(results))
	}
	if n, err := stores[0].CountRuns(ctx, store.Filter{Source: store.SourcePublished}); err != nil || n > len(results) {
		t.Errorf("%d published results listed (%v), at most %d", n, err, len(results))
	}

	const burst = 6
	var urls []string
	for i, st := range stores {
		s, err := New(st, Options{SubmitPerS: 0.0001, SubmitBurst: burst, RequestPerS: -1})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s)
		t.Cleanup(ts.Close)
		urls = append(urls, ts.URL)
		_ = i
	}
	client := clientFrom("127.0.0.30")
	accepted, refused := 0, 0
	for i := range 2 * burst {
		switch c := uploadWith(t, client, urls[i%2], fmt.Sprintf("shared-%d", i), nil); c {
		case 201:
			accepted++
		case 429:
			refused++
		default:
			t.Fatalf("upload %d: %d", i, c)
		}
	}
	if accepted != burst || refused != burst {
		t.Errorf("one address uploading to two servers: %d accepted, %d refused; want %d and %d (one budget)", accepted, refused, burst, burst)
	}
}
