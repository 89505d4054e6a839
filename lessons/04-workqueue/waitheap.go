package queues

import "time"

// The heap under exercise 3, much as client-go's delaying queue has it (waitFor and
// waitForPriorityQueue in k8s.io/client-go/util/workqueue/delaying_queue.go). This file needs
// no edits.
//
// waitHeap implements heap.Interface from container/heap. Do not call its methods yourself:
// call heap.Push(&h, entry), heap.Pop(&h) and heap.Fix(&h, entry.index), which use them to
// keep the heap in order. The entry that is ready first is always h[0].

// waiting is one item waiting for its time.
type waiting[T comparable] struct {
	item    T
	readyAt time.Time
	index   int // where the entry is in the heap; heap.Fix needs it
}

type waitHeap[T comparable] []*waiting[T]

func (h waitHeap[T]) Len() int { return len(h) }

// Less puts the entry that is ready first at the root.
func (h waitHeap[T]) Less(i, j int) bool { return h[i].readyAt.Before(h[j].readyAt) }

// Swap also keeps each entry's index up to date.
func (h waitHeap[T]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

// Push appends an entry; heap.Push then moves it up to its place.
func (h *waitHeap[T]) Push(x any) {
	entry := x.(*waiting[T])
	entry.index = len(*h)
	*h = append(*h, entry)
}

// Pop removes the last entry; heap.Pop has moved the root there first.
func (h *waitHeap[T]) Pop() any {
	old := *h
	entry := old[len(old)-1]
	old[len(old)-1] = nil // let the garbage collector have it
	entry.index = -1
	*h = old[:len(old)-1]
	return entry
}
