// Wrong (exercise 2): PopDeltas applies a key's deltas to known newest first.
// The last one applied wins: after "Added Updated Deleted" the store holds the object as it was
// added, though the server deleted it. Listers return a ghost, and a controller acts on it.

package informers

import (
	"slices"

	"fmt"

	"k8s.io/client-go/tools/cache"
)

// Exercise 2a: a DeltaFIFO, a queue between a Reflector and the cache. (client-go 1.37's
// informers use a RealFIFO instead: see the README. The DeltaFIFO is still the classic design,
// and a supported client-go type.)
//
// A DeltaFIFO keeps one entry per object key ("namespace/name"). Each change the Reflector
// reports is appended to the key's list of deltas (Added, Updated, Deleted, Replaced, Sync),
// and the key joins the back of the queue only if it is not queued already: everything that
// happened to an object while it waited comes out together, in one Pop.
//
// known is the consumer's store: what has been popped and applied so far. The queue needs it to
// tell which objects a relist no longer finds (they become Deleted deltas) and which to
// re-queue on a resync (as Sync deltas).
//
// The queue must report the objects of a relist as Replaced, not as Sync, so that a consumer
// can tell a relist from a resync.
func NewDeltaFIFO(known cache.KeyListerGetter) (*cache.DeltaFIFO, error) {
	return cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{
		KeyFunction:           cache.MetaNamespaceKeyFunc,
		KnownObjects:          known,
		EmitDeltaTypeReplaced: true, // false (the default) only for old consumers: they get Sync
	}), nil
}

// Exercise 2b: pop the next key, apply its deltas to known, and return them.
//
// This is the heart of an informer's processing loop. Pop blocks until a key is queued, then
// calls your function with that key's cache.Deltas while it holds the queue's lock: apply the
// deltas to known there, so the queue and the store never disagree about what is known.
//
// PopDeltas returns the key and its deltas, oldest first. Once the queue is closed and empty,
// it returns the error Pop gives, cache.ErrFIFOClosed.
func PopDeltas(fifo *cache.DeltaFIFO, known cache.Store) (string, cache.Deltas, error) {
	var key string
	var popped cache.Deltas
	_, err := fifo.Pop(func(obj any, _ bool) error {
		deltas, ok := obj.(cache.Deltas)
		if !ok {
			return fmt.Errorf("a DeltaFIFO pops cache.Deltas, got %T", obj)
		}
		var err error
		if key, err = fifo.KeyOf(deltas); err != nil {
			return err
		}
		popped = deltas
		return apply(known, deltas)
	})
	return key, popped, err
}

// apply does to known what each delta says, oldest first, as an informer does to its cache.
// A Deleted delta may carry a cache.DeletedFinalStateUnknown instead of the object: known must
// be keyed with cache.DeletionHandlingMetaNamespaceKeyFunc to find its key.
func apply(known cache.Store, deltas cache.Deltas) error {
	for _, d := range slices.Backward(deltas) { // the newest state matters most: start with it
		var err error
		if d.Type == cache.Deleted {
			err = known.Delete(d.Object)
		} else { // Added, Updated, Replaced, Sync: the object's newest state
			err = known.Update(d.Object) // a Store's Update adds what it does not hold yet
		}
		if err != nil {
			return err
		}
	}
	return nil
}
