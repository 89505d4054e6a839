package harness

import (
	"context"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Retry delays of FastRateLimiter: the first retry of a failing request waits FastRetryBase,
// each further one twice as long, up to FastRetryMax.
const (
	FastRetryBase = 20 * time.Millisecond
	FastRetryMax  = 640 * time.Millisecond
)

// FastRateLimiter is a per-item exponential rate limiter for controllers under test: it spaces
// the retries of one failing request FastRetryBase, 2×, 4×… apart (at most FastRetryMax), so a
// spec can watch several retries in well under a second, and can tell them from the
// controller's default limiter, which starts at 5 ms. Each call returns a new limiter: they
// count failures per request, so controllers must not share one.
func FastRateLimiter() workqueue.TypedRateLimiter[reconcile.Request] {
	return workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](FastRetryBase, FastRetryMax)
}

// FastRetryDelay is FastRateLimiter's delay before the n-th retry (n from 1) of a request that
// keeps failing.
func FastRetryDelay(n int) time.Duration {
	return min(FastRetryBase<<(n-1), FastRetryMax)
}

// Call is one Reconcile call a ReconcileRecorder saw: the request, when it started and ended,
// and what the wrapped reconciler returned.
type Call struct {
	Request    reconcile.Request
	Start, End time.Time
	Result     reconcile.Result
	Err        error
}

// ReconcileRecorder wraps a reconciler and records every call to it, so specs can check from
// the outside what a controller did: how often it reconciled which key, with what outcome,
// how far apart the retries were, and how many calls overlapped. It is safe for concurrent use
// (a controller with several workers calls it from several goroutines). Hand the recorder,
// not the wrapped reconciler, to the controller.
type ReconcileRecorder struct {
	inner reconcile.Reconciler

	mu        sync.Mutex
	calls     []Call // finished calls, in the order they ended
	running   map[reconcile.Request]int
	total     int                 // calls running now
	maxTotal  int                 // most calls ever running at once
	maxPerKey int                 // most calls of one request ever running at once
	started   []reconcile.Request // every call that started, in order
}

var _ reconcile.Reconciler = &ReconcileRecorder{}

// RecordReconciles returns a recorder around inner. A nil inner reconciles nothing and
// succeeds, for specs that only care which requests reached the reconciler.
func RecordReconciles(inner reconcile.Reconciler) *ReconcileRecorder {
	if inner == nil {
		inner = reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		})
	}
	return &ReconcileRecorder{inner: inner, running: map[reconcile.Request]int{}}
}

// Reconcile records the call and passes it to the wrapped reconciler. A panic in the wrapped
// reconciler is recorded as a finished call and passed on (controller-runtime recovers it).
func (r *ReconcileRecorder) Reconcile(ctx context.Context, req reconcile.Request) (result reconcile.Result, err error) {
	call := Call{Request: req, Start: time.Now()}
	r.begin(req)
	defer func() {
		call.End, call.Result, call.Err = time.Now(), result, err
		r.end(call)
	}()
	return r.inner.Reconcile(ctx, req)
}

func (r *ReconcileRecorder) begin(req reconcile.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running[req]++
	r.total++
	r.maxPerKey = max(r.maxPerKey, r.running[req])
	r.maxTotal = max(r.maxTotal, r.total)
	r.started = append(r.started, req)
}

func (r *ReconcileRecorder) end(call Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running[call.Request]--
	if r.running[call.Request] == 0 {
		delete(r.running, call.Request)
	}
	r.total--
	r.calls = append(r.calls, call)
}

// Count is the number of calls that have finished.
func (r *ReconcileRecorder) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

// Calls returns the finished calls, in the order they ended.
func (r *ReconcileRecorder) Calls() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// Requests returns the request of every call that has started (finished or not), in the
// order they started; a request reconciled twice appears twice.
func (r *ReconcileRecorder) Requests() []reconcile.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.started)
}

// Keys returns the distinct keys (namespace/name) of the requests that have started, in the
// order each first started: easy to compare with ConsistOf in a spec.
func (r *ReconcileRecorder) Keys() []string {
	var keys []string
	for _, req := range r.Requests() {
		if key := req.String(); !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	return keys
}

// For returns the finished calls for one key, in the order they ended.
func (r *ReconcileRecorder) For(key types.NamespacedName) []Call {
	var calls []Call
	for _, c := range r.Calls() {
		if c.Request.NamespacedName == key {
			calls = append(calls, c)
		}
	}
	return calls
}

// CountFor is the number of finished calls for one key.
func (r *ReconcileRecorder) CountFor(key types.NamespacedName) int {
	return len(r.For(key))
}

// StartedFor is the number of calls for one key that have started, finished or not.
func (r *ReconcileRecorder) StartedFor(key types.NamespacedName) int {
	n := 0
	for _, req := range r.Requests() {
		if req.NamespacedName == key {
			n++
		}
	}
	return n
}

// Running is the number of calls running right now.
func (r *ReconcileRecorder) Running() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// MaxConcurrent is the largest number of calls that ever ran at the same time, whatever
// their keys: more than 1 shows that the controller's workers ran in parallel.
func (r *ReconcileRecorder) MaxConcurrent() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.maxTotal
}

// MaxConcurrentPerKey is the largest number of calls for one and the same key that ever ran at
// the same time. A controller's workqueue guarantees 1: two workers never reconcile one
// object at once.
func (r *ReconcileRecorder) MaxConcurrentPerKey() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.maxPerKey
}

// Gaps returns, for the finished calls of one key, the time from the end of each call to the
// start of the next one: the delays the controller's queue held the key back between tries.
func (r *ReconcileRecorder) Gaps(key types.NamespacedName) []time.Duration {
	calls := r.For(key)
	slices.SortFunc(calls, func(a, b Call) int { return a.Start.Compare(b.Start) })
	var gaps []time.Duration
	for i := 1; i < len(calls); i++ {
		gaps = append(gaps, calls[i].Start.Sub(calls[i-1].End))
	}
	return gaps
}
