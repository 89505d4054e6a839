package mirror

import (
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 5: what a Reconcile returns, and what the controller does with it.
//
// The controller reads (Result, error) like this (reconcileHandler in
// pkg/internal/controller/controller.go):
//   - an error: the request goes back on the queue *rate-limited*, after the rate limiter's
//     delay for it, which grows with each failure; any RequeueAfter is ignored;
//   - an error wrapped by reconcile.TerminalError: logged and counted, not requeued (only a
//     new event brings the request back);
//   - no error and RequeueAfter > 0: the rate limiter forgets the request's failures, and the
//     request goes back on the queue, ready once that delay has passed: no sooner, if nothing
//     else happens, and maybe later, as a ready request waits for a free worker. An event for
//     the same object in the meantime makes it ready at once (controller-runtime's priority
//     queue keeps one entry per request, ready at the earliest time asked for);
//   - no error, zero Result: done; the rate limiter forgets the request's failures.

// Classify turns the outcome of the mirror's work into what Reconcile returns:
//   - nil: done;
//   - a *RetryAfterError: not a failure, a wait: come back after its After, no error;
//   - an error that wraps ErrInvalidTarget: a terminal error, since retrying cannot fix it;
//   - any other error: returned as it is, so that the controller retries with backoff.
func Classify(err error) (reconcile.Result, error) {
	// TODO(exercise 5): tell the four outcomes apart (a wait or an invalid target may come
	// wrapped in other errors) and return what the list above says for each.
	return reconcile.Result{}, errNotImplemented(5)
}

// MirrorOptions are the controller options for the mirror: r reconciles, with up to workers
// reconciles running at once (of different ConfigMaps), and retry spacing the retries of
// failed requests.
func MirrorOptions(r reconcile.Reconciler, workers int, retry workqueue.TypedRateLimiter[reconcile.Request]) controller.Options {
	// TODO(exercise 5): fill in controller.Options.
	return controller.Options{}
}
