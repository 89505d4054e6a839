package queues

import (
	"context"

	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Exercise 4: a client-go controller, in the shape of kubernetes/sample-controller.
//
// It makes one thing true in the cluster: every ConfigMap labelled
// lesson04.workshop.local/checksum=true carries the checksum of its data (see Checksum) in the
// annotation lesson04.workshop.local/data-checksum. Data flows one way:
//
//	informer --event--> handler --key--> queue --key--> worker --> sync --> API server
//
// Handlers do not do the work: they put the object's key (namespace and name) in the queue.
// Many events for one object collapse into one key, and sync always reads the object's latest
// state from the informer's cache, so it does not matter which event brought the key.
//
// The specs play the part of main: they make a SharedInformerFactory for their namespace, call
// NewController (which registers the handlers), start the factory, then call Run.

const (
	// ManagedLabel, set to "true", marks the ConfigMaps this controller looks after.
	ManagedLabel = "lesson04.workshop.local/checksum"
	// ChecksumAnnotation is where the controller writes the checksum of a ConfigMap's data.
	ChecksumAnnotation = "lesson04.workshop.local/data-checksum"
)

// Controller keeps the checksum annotation of labelled ConfigMaps up to date.
type Controller struct {
	client     kubernetes.Interface                                   // writes go to the API server
	configMaps corelisters.ConfigMapLister                            // reads come from the informer's cache
	synced     cache.DoneChecker                                      // done once the handlers have seen every ConfigMap
	queue      workqueue.TypedRateLimitingInterface[cache.ObjectName] // keys waiting for a worker
}

// Exercise 4a: build the controller and register its event handlers.
func NewController(ctx context.Context, client kubernetes.Interface, configMaps coreinformers.TypedConfigMapInformer) (*Controller, error) {
	// TODO(exercise 4): make the queue with workqueue.NewTypedRateLimitingQueueWithConfig, your
	// ControllerRateLimiter and a Name. On configMaps.TypedInformer(), AddTypedEventHandler
	// with handler funcs whose AddFunc and UpdateFunc put cache.MetaObjectToName(configMap) in
	// the queue; pass cache.HandlerOptions{Logger: ...} with klog.FromContext(ctx). Keep
	// configMaps.Lister() and the registration's HasSyncedChecker().
	return nil, errNotImplemented(4)
}

// Exercise 4b: run the controller until ctx is done, then stop cleanly and return nil.
func (c *Controller) Run(ctx context.Context, workers int) error {
	// TODO(exercise 4): wait for the cache with cache.WaitFor (no point working from a half
	// filled cache); start workers goroutines that each run wait.UntilWithContext(ctx,
	// c.runWorker, time.Second); wait for ctx to be done; shut the queue down, so that every
	// worker's Get returns; wait for the workers; return nil.
	return errNotImplemented(4)
}

// runWorker is one worker: your loop from exercise 1, until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for ProcessNextItem(ctx, c.queue, c.sync) {
	}
}

// Exercise 4c: make the ConfigMap named by key carry the checksum of its data.
//
// A returned error makes the worker retry the key with backoff: return errors from the API
// server rather than logging them away.
func (c *Controller) sync(ctx context.Context, key cache.ObjectName) error {
	// TODO(exercise 4): get the ConfigMap from the lister (gone or not labelled: nothing to
	// do); if the annotation already holds Checksum(data), do nothing; otherwise set it on a
	// DeepCopy (the cache's objects are shared) and Update it through the client.
	return errNotImplemented(4)
}
