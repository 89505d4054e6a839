// Wrong (exercise 4): sync reads the ConfigMap with a GET through the client instead of the lister.
// It works, but every sync costs a request: a controller watching thousands of objects, resyncing
// or retrying, sends thousands of GETs for data its informer already holds, and the API server
// (shared by every controller in the cluster) pays for it. The informer's cache is there to be read.

package queues

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
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
// Many events for one object collapse into one key, and sync reads the latest state of the
// object the informer's cache holds, so it does not matter which event brought the key.
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
	c := &Controller{
		client:     client,
		configMaps: configMaps.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(ControllerRateLimiter[cache.ObjectName](),
			workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{Name: "configmap-checksums"}),
	}
	// Every add and update enqueues the key, labelled or not: sync looks at the object as it
	// is when a worker gets to it, and a label may have been added or removed by then.
	// Deletions need no handler: a deleted ConfigMap needs no annotation.
	logger := klog.FromContext(ctx)
	registration, err := configMaps.TypedInformer().AddTypedEventHandler(coreinformers.ConfigMapHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, configMap *corev1.ConfigMap) { c.enqueue(configMap) },
	}, cache.HandlerOptions{Logger: &logger})
	if err != nil {
		return nil, fmt.Errorf("register the ConfigMap event handlers: %w", err)
	}
	// The registration is done once the informer has synced AND this handler has been told
	// about every object of the first list: only then has every existing key been queued.
	c.synced = registration.HasSyncedChecker()
	return c, nil
}

// enqueue puts the key of a ConfigMap in the queue. Adding a key that is already waiting does
// nothing, which is how a burst of events for one object becomes one sync.
func (c *Controller) enqueue(configMap *corev1.ConfigMap) {
	c.queue.Add(cache.MetaObjectToName(configMap))
}

// Exercise 4b: run the controller until ctx is done, then stop cleanly and return nil.
func (c *Controller) Run(ctx context.Context, workers int) error {
	// Also on the early return below, so that nothing waits on this queue forever.
	defer c.queue.ShutDown()
	logger := klog.FromContext(ctx)

	if !cache.WaitFor(ctx, "ConfigMap cache", c.synced) {
		return fmt.Errorf("the ConfigMap cache never synced: %w", context.Cause(ctx))
	}

	logger.Info("Starting workers", "count", workers)
	var running sync.WaitGroup
	for range workers {
		// UntilWithContext starts the worker again a second later should it ever return
		// while ctx is still live.
		running.Go(func() { wait.UntilWithContext(ctx, c.runWorker, time.Second) })
	}

	<-ctx.Done()
	logger.Info("Stopping workers")
	// Shutting down makes every worker's Get return "shutdown" once the queue is empty:
	// keys still queued, and the key a worker holds, are finished first (their API calls
	// fail fast now that ctx is done).
	c.queue.ShutDown()
	running.Wait()
	return nil
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
	configMap, err := c.client.CoreV1().ConfigMaps(key.Namespace).Get(ctx, key.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil // deleted since it was queued: nothing to look after
	}
	if err != nil {
		return err
	}
	if configMap.Labels[ManagedLabel] != "true" {
		return nil
	}
	sum := Checksum(configMap.Data)
	if configMap.Annotations[ChecksumAnnotation] == sum {
		// Already true. This is also how the controller's own update, which comes back as an
		// update event, ends: without a second write.
		return nil
	}

	// Objects from the cache are shared with every other reader of the cache: change a copy.
	configMap = configMap.DeepCopy()
	if configMap.Annotations == nil {
		configMap.Annotations = map[string]string{}
	}
	configMap.Annotations[ChecksumAnnotation] = sum
	// A Conflict here means the cache was behind the server: the key is retried, and a later
	// sync reads the newer copy once the cache has it.
	_, err = c.client.CoreV1().ConfigMaps(configMap.Namespace).Update(ctx, configMap, metav1.UpdateOptions{})
	return err
}
