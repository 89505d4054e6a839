package queues

import "time"

// Exercise 3: the delaying queue's heart, the waiting room of items that are not due yet.
//
// AddAfter(item, d) on a client-go delaying queue does not add the item to the queue: it
// hands the item, and the time it becomes ready, to a background loop. The loop keeps the
// waiting items in a heap ordered by that time, and a map from each item to its entry. On each
// pass it moves every item that is due into the queue, then sets a timer for the earliest
// item still waiting, and sleeps until something happens (waitingLoop in client-go's
// delaying_queue.go; a delay of zero or less skips the loop and adds at once):
//
//	for each pass:
//	    for _, item := range waiting.PopReady(clock.Now()) { queue.Add(item) }
//	    if at, ok := waiting.NextReadyAt(); ok { timer = clock.NewTimer(at.Sub(now)) }
//	    wait for the timer, a new item (waiting.Add), a 10 s heartbeat, or shutdown
//
// Waiting is that heap and map. Two rules make it more than a sorted list:
//
//   - An item waits once. Added again while it waits, it keeps the EARLIER of its two times:
//     a retry scheduled in 1 s is not pushed back to 5 s by a later AddAfter, nor handed out
//     twice.
//   - Due means "not after now": an item whose time is exactly now is ready.

// Waiting holds items until their time comes. It is not safe for concurrent use: in client-go
// only the background loop touches it.
type Waiting[T comparable] struct {
	heap   waitHeap[T]       // the entry that is ready first at the root, heap[0]
	byItem map[T]*waiting[T] // each waiting item's entry, to find it when it is added again
}

// NewWaiting returns an empty waiting room. This needs no edits.
func NewWaiting[T comparable]() *Waiting[T] {
	return &Waiting[T]{byItem: map[T]*waiting[T]{}}
}

// Len is how many items are waiting. This needs no edits.
func (w *Waiting[T]) Len() int { return len(w.heap) }

// Exercise 3a: let item wait until readyAt. An item already waiting keeps the earlier of its
// two times.
func (w *Waiting[T]) Add(item T, readyAt time.Time) {
	// TODO(exercise 3): is the item waiting already (byItem knows)? Then it keeps the earlier
	// time, and if its entry's time changes, the heap must be told, or its order breaks. Not
	// waiting: a new entry, in the heap and in byItem. Change the heap only through
	// container/heap's functions, never by slicing it.
	panic(errNotImplemented(3))
}

// Exercise 3b: remove every item that is due at now (its time is not after now) and return
// them, earliest first.
func (w *Waiting[T]) PopReady(now time.Time) []T {
	// TODO(exercise 3): while the earliest entry (the root) is due, take it out of the heap,
	// and out of byItem too, so that the item can wait again later.
	panic(errNotImplemented(3))
}

// Exercise 3c: when the earliest waiting item becomes ready, and false if nothing waits. The
// loop sets its timer for this time.
func (w *Waiting[T]) NextReadyAt() (time.Time, bool) {
	// TODO(exercise 3): the root's time, if there is a root.
	panic(errNotImplemented(3))
}
