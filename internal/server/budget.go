package server

import "github.com/iomark/iomark/internal/store"

// MemoryPlan splits a server process's memory budget (`iomark serve --memory`) between what
// holds memory: SQLite's page caches (in this process; PostgreSQL keeps its cache in its own
// processes, so there the quarter stays unused), the kept rankings and summaries, and the Go
// runtime, which is told the rest as its soft limit (runtime/debug.SetMemoryLimit) so that it
// collects harder before passing it. Requests are bounded apart: at most Options.MaxInFlight run
// at once, each reading pages of at most maxPer rows and figures one by one (store.EachFigure).
type MemoryPlan struct {
	Store        store.Options // connections and SQLite's cache per connection
	CacheBytes   int64         // Options.CacheBytes
	GoLimitBytes int64         // for debug.SetMemoryLimit
}

// DBConns is the database connections a server opens at most: with 2 cores more only queue
// inside SQLite or PostgreSQL, and each SQLite connection keeps its own cache.
const DBConns = 8

// DefaultMemoryMiB is `iomark serve`'s budget when --memory is not given.
const DefaultMemoryMiB = 256

// PlanMemory splits budgetBytes: a quarter to SQLite's caches, an eighth to kept rankings, the
// remaining five eighths to the Go runtime.
func PlanMemory(budgetBytes int64) MemoryPlan {
	return MemoryPlan{
		Store:        store.Options{MaxConns: DBConns, CacheBytes: budgetBytes / 4 / DBConns},
		CacheBytes:   budgetBytes / 8,
		GoLimitBytes: budgetBytes * 5 / 8,
	}
}
