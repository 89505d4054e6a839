package queues

import (
	"context"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

// Exercise 1: the worker loop, the heart of a client-go controller.
//
// Event handlers only Add keys to the queue. Workers take them off one at a time and call
// sync, the function that makes the cluster match what the key's object asks for. A worker
// runs ProcessNextItem in a loop until it returns false:
//
//	for ProcessNextItem(ctx, queue, sync) {
//	}
//
// Three calls tell the queue how it went, and each one matters:
//
//   - Done(item), always, whatever happened: until then the queue treats the item as being
//     processed and will not hand it to another worker. If the item was added again meanwhile,
//     Done puts it back in line, so the change that came in during sync is not lost.
//   - Forget(item) when sync succeeded: the rate limiter stops counting the item's failures,
//     so its next failure, some day, starts again from the shortest delay.
//   - AddRateLimited(item) when sync failed: the item comes back after the rate limiter's
//     delay, which grows with each failure, instead of spinning in a hot loop.

// A panic in sync is a bug: let it go on, do not recover it here. In a controller the worker
// runs under wait.UntilWithContext, whose crash handler (utilruntime.HandleCrashWithContext)
// logs it and, by default, crashes the program; a caller that recovers instead (as
// controller-runtime does) goes on using the queue. Either way the item must not stay marked
// as being processed, so Done must run even when sync panics.

// MaxRetries is how many times a failing item is retried (after its first try) before the
// worker gives up on it. An informer event, or a resync if the informer has a resync period,
// can bring the item back later.
const MaxRetries = 5

// ProcessNextItem takes the next item off queue, hands it to sync, and tells the queue how it
// went: Forget on success; on failure AddRateLimited while queue.NumRequeues(item) is below
// MaxRetries, else Forget (give up). It always calls Done, even when sync panics (and it lets
// the panic go on). It returns false only when the queue has shut down, which tells the worker
// to stop.
func ProcessNextItem[T comparable](ctx context.Context, queue workqueue.TypedRateLimitingInterface[T], sync func(context.Context, T) error) bool {
	// Get blocks until an item is ready. After ShutDown it still hands out what is queued,
	// and says "shutdown" once the queue is empty.
	item, shutdown := queue.Get()
	if shutdown {
		return false
	}
	// Deferred, so that no path (not even a panic in sync) leaves the item marked as being
	// processed: that item would never be processed again.
	defer queue.Done(item)

	err := sync(ctx, item)
	switch {
	case err == nil:
		queue.Forget(item)
	case queue.NumRequeues(item) < MaxRetries:
		utilruntime.HandleErrorWithContext(ctx, err, "Sync failed, will retry", "item", item, "retries", queue.NumRequeues(item))
		queue.AddRateLimited(item)
	default:
		// Forget too: giving up must reset the failure count, or the item's next failure
		// would find its retries spent, and be given up on at once.
		utilruntime.HandleErrorWithContext(ctx, err, "Sync failed too often, giving up", "item", item)
		queue.Forget(item)
	}
	return true
}
