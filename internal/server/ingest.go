package server

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/iomark/iomark/internal/store"
)

// Uploads are saved by a saver goroutine (several on PostgreSQL) in batches: whatever arrived while the previous commit was
// running goes into the next transaction (group commit), so simultaneous uploads share one
// commit and one fsync. Each upload is answered only after the transaction holding it
// committed, so an acknowledged upload survives kill -9.

// maxBatch bounds one transaction.
const maxBatch = 64

var errClosed = errors.New("the server is shutting down; retry shortly")

type saveReq struct {
	run   store.BatchRun
	reply chan error
}

type batcher struct {
	st      *store.Store
	reqs    chan saveReq
	stop    chan struct{}
	done    chan struct{} // closed when every saver has stopped
	running sync.WaitGroup
	once    sync.Once
}

// Savers per back end: SQLite writes one transaction at a time, so more would only queue;
// PostgreSQL commits in parallel, so a few savers overlap their commits' waits.
const (
	sqliteSavers   = 1
	postgresSavers = 4
)

func newBatcher(st *store.Store) *batcher {
	savers := sqliteSavers
	if st != nil && st.Backend() == "postgres" {
		savers = postgresSavers
	}
	b := &batcher{st: st, reqs: make(chan saveReq), stop: make(chan struct{}), done: make(chan struct{})}
	b.running.Add(savers)
	for range savers {
		go b.loop()
	}
	go func() { b.running.Wait(); close(b.done) }()
	return b
}

// save stores one run through the next batch and returns SaveRun's error for it.
func (b *batcher) save(ctx context.Context, run store.Run, tests []store.Test) error {
	req := saveReq{run: store.BatchRun{Run: run, Tests: tests}, reply: make(chan error, 1)}
	select {
	case b.reqs <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-b.stop:
		return errClosed
	}
	// Once taken, the answer always comes: the batch is saved whatever this request does.
	return <-req.reply
}

func (b *batcher) loop() {
	defer b.running.Done()
	for {
		var batch []saveReq
		select {
		case r := <-b.reqs:
			batch = append(batch, r)
		case <-b.stop:
			return
		}
	collect:
		for len(batch) < maxBatch {
			select {
			case r := <-b.reqs:
				batch = append(batch, r)
			default:
				break collect
			}
		}
		errs := b.saveBatch(batch)
		for i, r := range batch {
			r.reply <- errs[i]
		}
	}
}

// saveBatch never lets a panic end the loop, which would leave every later upload waiting.
func (b *batcher) saveBatch(batch []saveReq) (errs []error) {
	defer func() {
		if v := recover(); v != nil {
			errs = make([]error, len(batch))
			for i := range errs {
				errs[i] = fmt.Errorf("saving a batch of uploads panicked: %v", v)
			}
		}
	}()
	runs := make([]store.BatchRun, len(batch))
	for i, r := range batch {
		runs[i] = r.run
	}
	// Not the requests' context: a client hanging up must not roll back the others' runs.
	return b.st.SaveBatch(context.Background(), runs)
}

// close stops taking uploads once the batch being saved is done.
func (b *batcher) close() {
	b.once.Do(func() { close(b.stop) })
	<-b.done
}
