// Wrong (exercise 3): PodsOfApp asks the node index (a copy-paste of PodsOnNode).
// It looks up the app name among node names and finds nothing, without an error: an index
// query for a value nobody has is an empty answer, so the mistake stays silent.

package informers

import (
	"fmt"

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
	return cache.TypedIndexersToIndexers(cache.TypedIndexers[*corev1.Pod]{
		PodsByNode: nodeOf,
		PodsByApp:  appOf,
	})
}

// nodeOf indexes a Pod under its node. Returning no values, rather than "", keeps unscheduled
// Pods out of the index instead of gathering them under an empty node name.
func nodeOf(pod *corev1.Pod) ([]string, error) {
	if pod.Spec.NodeName == "" {
		return nil, nil
	}
	return []string{pod.Spec.NodeName}, nil
}

// appOf indexes a Pod under its app label, if it has one.
func appOf(pod *corev1.Pod) ([]string, error) {
	if app := pod.Labels[AppLabel]; app != "" {
		return []string{app}, nil
	}
	return nil, nil
}

// Exercise 3b: the Pods on a node, answered by the PodsByNode index.
//
// A value nobody has is not an error: it is an empty answer.
func PodsOnNode(indexer cache.Indexer, node string) ([]*corev1.Pod, error) {
	return podsByIndex(indexer, PodsByNode, node)
}

// Exercise 3c: the Pods of an app, answered by the PodsByApp index.
func PodsOfApp(indexer cache.Indexer, app string) ([]*corev1.Pod, error) {
	return podsByIndex(indexer, PodsByNode, app)
}

// podsByIndex looks value up in the named index. The Pods it returns are the cache's own:
// read them, never change them.
func podsByIndex(indexer cache.Indexer, index, value string) ([]*corev1.Pod, error) {
	objs, err := indexer.ByIndex(index, value)
	if err != nil {
		return nil, err // the index does not exist
	}
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, obj := range objs {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return nil, fmt.Errorf("index %s holds a %T, not a *corev1.Pod", index, obj)
		}
		pods = append(pods, pod)
	}
	return pods, nil
}
