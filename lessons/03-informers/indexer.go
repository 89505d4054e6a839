package informers

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// The names of this lesson's Pod indexes, and the label the app index reads.
const (
	PodsByNode = "byNode"
	PodsByApp  = "byApp"
	AppLabel   = "app"
)

// Exercise 3a: two custom indexes for a cache of Pods.
//
// An Indexer is a store plus indexes. An index function turns an object into zero or more
// index values; the Indexer keeps, for each value, the set of keys of the objects that produced
// it, and updates those sets on every Add, Update and Delete. Questions like "which Pods run on
// node-a?" are then a map lookup instead of a scan of the whole cache.
//
//	PodsByNode: the name of the node the Pod is bound to (spec.nodeName). A Pod the scheduler
//	            has not placed yet has no node: it gets no value, so it is in no bucket.
//	PodsByApp:  the value of the Pod's "app" label; a Pod without one gets no value.
//
// An index function must not fail on an object of its type: the store panics on an index
// error, in whatever goroutine is filling it.
func PodIndexers() cache.Indexers {
	// TODO(exercise 3): return the two index functions under the names PodsByNode and PodsByApp.
	panic(errNotImplemented(3))
}

// Exercise 3b: the Pods on a node, answered by the PodsByNode index.
//
// A value nobody has is not an error: it is an empty answer.
func PodsOnNode(indexer cache.Indexer, node string) ([]*corev1.Pod, error) {
	// TODO(exercise 3): answer from the PodsByNode index, without scanning the cache.
	return nil, errNotImplemented(3)
}

// Exercise 3c: the Pods of an app, answered by the PodsByApp index.
func PodsOfApp(indexer cache.Indexer, app string) ([]*corev1.Pod, error) {
	// TODO(exercise 3): answer from the PodsByApp index, without scanning the cache.
	return nil, errNotImplemented(3)
}
