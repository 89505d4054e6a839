package observe

import (
	"sync"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 4: concurrency.
//
// A controller runs one worker unless told otherwise: one Reconcile at a time, however slow the
// Store. With several workers, Reconciles of different objects run at once; the workqueue
// still hands one key to one worker at a time. Whatever the workers share, they now share
// from several goroutines at once.

// ControllerOptions returns the options of the publishing controller: workers Reconciles at
// once, retries paced by retry.
func ControllerOptions(workers int, retry workqueue.TypedRateLimiter[reconcile.Request]) controller.Options {
	return controller.Options{MaxConcurrentReconciles: workers, RateLimiter: retry}
}

// Tally is the bookkeeping every worker shares: how many calls to the Store succeeded and
// failed, and which keys were published. Its zero value is ready to use, and every method may
// be called from any number of goroutines at once (workers tracking, a caller reading).
type Tally struct {
	mu        sync.Mutex // guards every field below
	published int
	failed    int
	keys      map[string]bool // keys published at least once
}

// Track calls put, the slow call to the Store for key, counts its outcome, and returns put's
// error. Calls for different keys must be able to run at the same time.
func (t *Tally) Track(key string, put func() error) error {
	// The slow call runs outside the lock: holding it there would make the workers take turns.
	err := put()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.failed++
		return err
	}
	t.published++
	if t.keys == nil {
		t.keys = map[string]bool{}
	}
	t.keys[key] = true
	return nil
}

// Counts returns how many calls to the Store succeeded and how many failed, so far.
func (t *Tally) Counts() (published, failed int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.published, t.failed
}

// Published says whether key was published at least once.
func (t *Tally) Published(key string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.keys[key]
}
