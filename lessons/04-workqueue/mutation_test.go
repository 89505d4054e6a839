package queues_test

import (
	"fmt"
	"reflect"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/diff"
)

// cacheCopies is the specs' cache mutation detector. An informer's cache hands out pointers to
// the objects it holds, shared by every reader: a sync that changes a ConfigMap from the lister
// in place, instead of a DeepCopy, corrupts the cache (it now says something the API server
// never said) for every other reader.
//
// client-go has a detector of its own (tools/cache/mutation_detector.go): it keeps a deep copy
// of each object the informer caches, for 2 to 4 minutes, and compares the two every second.
// It is switched on by the environment variable KUBE_CACHE_MUTATION_DETECTOR=true, which
// client-go reads once, when the program starts (in an init function), so a suite cannot
// switch it on for itself; and on a mutation it panics, which ends the whole test run. This detector does the same comparison
// and fails the spec instead. It sees each object as the informer's FIFO takes it in, through
// the factory's transform, before any handler or lister can hand it out.
type cacheCopies struct {
	mu      sync.Mutex
	objects []cachedCopy
}

type cachedCopy struct {
	cached, copied *corev1.ConfigMap
}

// transform is a cache.TransformFunc: it keeps a deep copy of each ConfigMap and lets the
// object itself through unchanged.
func (c *cacheCopies) transform(obj any) (any, error) {
	if configMap, ok := obj.(*corev1.ConfigMap); ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.objects = append(c.objects, cachedCopy{cached: configMap, copied: configMap.DeepCopy()})
	}
	return obj, nil
}

// mutated describes every cached ConfigMap that differs from its copy.
func (c *cacheCopies) mutated() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var changes []string
	for _, object := range c.objects {
		if !reflect.DeepEqual(object.cached, object.copied) {
			changes = append(changes, fmt.Sprintf("ConfigMap %s/%s (- as the API server sent it, + as it is in the cache now):\n%s",
				object.copied.Namespace, object.copied.Name, diff.Diff(object.copied, object.cached)))
		}
	}
	return changes
}
