package queues

import (
	"time"

	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
)

// Exercise 3: the delaying queue, the layer between the rate limiter and the plain queue.
//
// AddAfter(item, d) does not add the item now: it puts it in a waiting heap ordered by the
// time it becomes ready, and a background loop adds it to the queue when that time comes.
// Items come out in the order they become ready, not the order they were added. An item that
// is already waiting keeps the earlier of its two times. A delay of zero or less adds at once.
//
// The queue reads time from the clock in its config. The specs give it a fake clock
// (k8s.io/utils/clock/testing) that moves only when they Step it, so they can check
// "not before 1 s, and at 1 s" without sleeping.

// Schedule is a delaying queue together with the clock it runs on. It has all the queue's
// methods (Add, AddAfter, Get, Done, Len, ShutDown) and one of its own, AddAt.
type Schedule[T comparable] struct {
	workqueue.TypedDelayingInterface[T]
	Clock clock.WithTicker
}

// Exercise 3a: a Schedule whose delaying queue runs on clk.
func NewSchedule[T comparable](clk clock.WithTicker) *Schedule[T] {
	// TODO(exercise 3): build the queue with NewTypedDelayingQueueWithConfig, passing clk in
	// its config (without it, the queue would use the real clock).
	panic(errNotImplemented(3))
}

// Exercise 3b: add item when the schedule's clock reaches at; a time already past means now.
func (s *Schedule[T]) AddAt(item T, at time.Time) {
	// TODO(exercise 3): turn at into a delay measured on s.Clock (not time.Now: the specs'
	// clock says it is another day) and AddAfter.
	panic(errNotImplemented(3))
}
