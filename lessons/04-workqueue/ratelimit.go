package queues

import (
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
)

// Exercise 2: rate limiters, which decide how long a failed item waits before its retry.
//
// A rate limiter answers one question, When(item): how long should this item wait? The
// rate-limiting queue's AddRateLimited(item) asks it, then hands the item to the delaying
// queue with that delay. Forget(item) tells the limiter to stop counting the item's failures,
// and NumRequeues(item) says how many it has counted. Those three methods are the interface
// workqueue.TypedRateLimiter[T].

// PerItemBackoff is a per-item exponential backoff: the first When for an item is Base, and
// each further When for the same item doubles it (Base, 2×Base, 4×Base, ...) up to Max. Items
// are counted apart: one broken object must not slow down the others.
//
// Every worker of a controller calls it, at the same time: mu guards failures.
type PerItemBackoff[T comparable] struct {
	Base, Max time.Duration

	mu       sync.Mutex
	failures map[T]int // When calls per item since its last Forget
}

// The queue accepts it as its rate limiter.
var _ workqueue.TypedRateLimiter[string] = &PerItemBackoff[string]{}

// NewPerItemBackoff returns a backoff from base, doubling, up to max. This needs no edits.
func NewPerItemBackoff[T comparable](base, max time.Duration) *PerItemBackoff[T] {
	return &PerItemBackoff[T]{Base: base, Max: max, failures: map[T]int{}}
}

// Exercise 2a: count a failure of item and say how long it waits: Base × 2^(failures before
// this one), but never more than Max, however many failures there were.
func (b *PerItemBackoff[T]) When(item T) time.Duration {
	// TODO(exercise 2): under b.mu, read the item's failure count and add one to it; the delay
	// is Base doubled that many times, capped at Max. Mind overflow: after enough failures
	// Base × 2^n no longer fits in a time.Duration (an int64 of nanoseconds), so decide against
	// Max before the number can wrap around.
	panic(errNotImplemented(2))
}

// Exercise 2b: how many failures of item have been counted since its last Forget.
func (b *PerItemBackoff[T]) NumRequeues(item T) int {
	// TODO(exercise 2): the item's failure count, read under b.mu.
	panic(errNotImplemented(2))
}

// Exercise 2b: stop counting item's failures: its next failure starts again from Base.
func (b *PerItemBackoff[T]) Forget(item T) {
	// TODO(exercise 2): clear the item's failure count, under b.mu.
	panic(errNotImplemented(2))
}

// Exercise 2c: the controller default, the larger of two delays: your per-item backoff from
// 5 ms to 1000 s, and an overall token bucket of 10 a second with a burst of 100 for all items
// together. An item that keeps failing waits longer and longer; a storm of failures of many
// items is held to 10 retries a second, which protects the API server.
func ControllerRateLimiter[T comparable]() workqueue.TypedRateLimiter[T] {
	// TODO(exercise 2): the larger of two delays: your backoff, and one token bucket shared by
	// all items. The workqueue package has a limiter that takes the larger of others, and an
	// adapter that turns a golang.org/x/time/rate limiter into a workqueue one.
	panic(errNotImplemented(2))
}
