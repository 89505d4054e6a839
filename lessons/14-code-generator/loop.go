package pages

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// The controller's outer loop, as in kubernetes/sample-controller's controller.go: Run waits for
// the informers' caches, then starts the workers; each worker takes keys from the queue until it
// shuts down. It needs no edits: your part is in controller.go.

// Run starts workers workers and blocks until ctx is done; then it shuts the queue down: the
// queue takes no new keys, the workers finish the keys still in it (with the cancelled ctx), and
// each worker ends when the queue is empty.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer c.queue.ShutDown()
	logger := klog.FromContext(ctx)
	logger.Info("Waiting for informer caches to sync")
	if ok := cache.WaitForCacheSync(ctx.Done(), c.pagesSynced, c.configMapsSynced); !ok {
		return fmt.Errorf("failed to wait for caches to sync")
	}
	logger.Info("Starting workers", "count", workers)
	for range workers {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	<-ctx.Done()
	return nil
}

// runWorker processes keys until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}
