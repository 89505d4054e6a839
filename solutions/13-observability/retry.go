package observe

import (
	"time"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 5: keeping up under load.
//
// A Reconcile that returns an error is put back in the workqueue through the controller's rate
// limiter, which says how long the request waits before its next try. When the Store is down,
// every object fails: the rate limiter is all that stands between an outage and a storm of
// retries against the Store (and the API server) that makes the outage worse.

// The retry policy, scaled down so that the specs see many retries in a few seconds.
const (
	// RetryBase and RetryMax: the retries of one request wait RetryBase, then twice as long
	// each time, never more than RetryMax.
	RetryBase = 5 * time.Millisecond
	RetryMax  = time.Second
	// RetryQPS and RetryBurst: all retries of the controller together, at most RetryQPS per
	// second on average, RetryBurst at once.
	RetryQPS   = 50
	RetryBurst = 50
)

// RetryLimiter returns the controller's rate limiter: each request backs off on its own
// (RetryBase doubling to RetryMax), and all requests together stay under RetryQPS per second
// (bursts of RetryBurst); a retry waits for whichever of the two says longer.
func RetryLimiter() workqueue.TypedRateLimiter[reconcile.Request] {
	return workqueue.NewTypedMaxOfRateLimiter(
		// One request that keeps failing waits longer each time (and Forget resets it).
		workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](RetryBase, RetryMax),
		// All requests together: a token bucket, so an outage of every object is not a storm.
		&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: rate.NewLimiter(rate.Limit(RetryQPS), RetryBurst)},
	)
}
