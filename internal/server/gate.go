package server

import (
	"context"
	"time"
)

// gate bounds the requests served at once: beyond its slots a request waits in a short queue,
// and beyond the queue, or after waiting too long, it is turned away (503 with Retry-After).
// Whatever the number of clients, the memory requests hold is then bounded by the slots.
type gate struct {
	slots chan struct{}
	queue chan struct{}
	wait  time.Duration
}

func newGate(slots, queued int, wait time.Duration) *gate {
	return &gate{slots: make(chan struct{}, slots), queue: make(chan struct{}, queued), wait: wait}
}

// enter takes a slot, waiting in the queue if need be; false means turn the request away.
func (g *gate) enter(ctx context.Context) bool {
	select {
	case g.slots <- struct{}{}:
		return true
	default:
	}
	select {
	case g.queue <- struct{}{}:
	default:
		return false // the queue is full
	}
	defer func() { <-g.queue }()
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// leave gives the slot back.
func (g *gate) leave() { <-g.slots }
