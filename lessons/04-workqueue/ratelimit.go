package queues

import (
	"time"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/workqueue"
)

// Exercise 2: rate limiters, which decide how long a failed item waits before its retry.
//
// A rate limiter answers one question, When(item): how long should this item wait? The
// rate-limiting queue's AddRateLimited(item) asks it, then hands the item to the delaying
// queue with that delay. Forget(item) tells the limiter to stop counting the item's failures,
// and NumRequeues(item) says how many it has counted.
//
// The limiters come from k8s.io/client-go/util/workqueue; use the generic "Typed" ones.

// Exercise 2a: back off per item. The first When for an item is base, and each further When
// for the same item doubles it (base, 2×base, 4×base, ...) up to max. Items are counted
// separately: one broken object must not slow down the others. Forget resets the item.
func PerItemBackoff[T comparable](base, max time.Duration) workqueue.TypedRateLimiter[T] {
	// TODO(exercise 2): the exponential failure rate limiter does exactly this.
	panic(errNotImplemented(2))
}

// Exercise 2b: limit all items together with a token bucket from golang.org/x/time/rate.
//
// The bucket holds up to burst tokens and refills at perSecond tokens a second. Each When
// takes a token, whatever the item: while tokens are left it returns 0, after that it returns
// how long until the token it reserved will be there. With rate.NewLimiter(1, 3), three items
// go at once, then one a second. It protects the API server when many items fail at once.
func OverallLimit[T comparable](perSecond rate.Limit, burst int) workqueue.TypedRateLimiter[T] {
	// TODO(exercise 2): wrap rate.NewLimiter(perSecond, burst) in the workqueue's bucket rate
	// limiter.
	panic(errNotImplemented(2))
}

// Exercise 2c: the controller default, the larger of the two delays: a per-item backoff
// from 5 ms to 1000 s, and an overall bucket of 10 a second with a burst of 100. An item that
// keeps failing waits longer and longer; a storm of failures is held to 10 retries a second.
func ControllerRateLimiter[T comparable]() workqueue.TypedRateLimiter[T] {
	// TODO(exercise 2): combine your two limiters with the max-of rate limiter.
	panic(errNotImplemented(2))
}
