package queues_test

import (
	"context"
	"errors"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/util/workqueue"

	queues "workshop.local/lessons/04-workqueue"
	"workshop.local/lessons/internal/harness"
)

// notShutDown is what the specs say when ProcessNextItem gives up on a queue that is running.
const notShutDown = "ProcessNextItem returned false, which tells the worker the queue has shut down; it has not (is exercise 1 still the stub?)"

var _ = Describe("Exercise 1: the worker loop", harness.Exercise(1), func() {
	It("gets an item, hands it to sync, and marks it done", func(ctx SpecContext) {
		queue, rec := newInstantRetryQueue(), newSyncRecorder()
		queue.Add("a")
		Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), notShutDown)
		Expect(rec.calls()).To(Equal([]string{"a"}), "ProcessNextItem should call sync once, with the item it got from the queue")

		// Only an item that is Done goes back in line when it is added again; an item still
		// being processed would just be marked dirty.
		queue.Add("a")
		Expect(queue.Len()).To(Equal(1), "an item added again after ProcessNextItem is not back in line, so the queue thinks it is still being processed: a worker marks every item it took as done")
	}, SpecTimeout(harness.Timeout))

	It("marks the item done even when sync panics, and lets the panic go on", func(ctx SpecContext) {
		queue := newInstantRetryQueue()
		queue.Add("a")
		panicking := func(context.Context, string) error { panic(errSyncPanicked) }
		Expect(func() { queues.ProcessNextItem(ctx, queue, panicking) }).To(PanicWith(errSyncPanicked),
			"sync panicked: ProcessNextItem should let the panic go on (not recover it), for the worker's crash handler to report")

		// Whoever recovers the panic further up goes on using the queue: the item must not be
		// stuck as being processed.
		queue.Add("a")
		Expect(queue.Len()).To(Equal(1), "after sync panicked, a is still marked as being processed, so adding it again does not put it back in line: an item is marked done however its sync ends, a panic included")
	}, SpecTimeout(harness.Timeout))

	It("processes an item added many times before it was taken once, in the order first added", func(ctx SpecContext) {
		queue, rec := newInstantRetryQueue(), newSyncRecorder()
		for _, item := range []string{"a", "b", "a", "c", "b", "a"} {
			queue.Add(item)
		}
		Expect(queue.Len()).To(Equal(3), "the queue is stingy: a key waiting in line is not added twice")
		for range 3 {
			Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), notShutDown)
		}
		Expect(rec.calls()).To(Equal([]string{"a", "b", "c"}), "the queue is fair: first added, first processed")
	}, SpecTimeout(harness.Timeout))

	It("retries a failed item after the rate limiter's delay, and forgets it once sync succeeds", func(ctx SpecContext) {
		clock := newTimerClock()
		limiter := workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute)
		queue := workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[string]{Clock: clock})
		DeferCleanup(queue.ShutDown)
		rec := newSyncRecorder()
		rec.fail("a", 1)

		queue.Add("a")
		Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), notShutDown)
		Expect(queue.NumRequeues("a")).To(Equal(1), "a failed sync should count as a failure of the item in the queue's rate limiter (NumRequeues), which decides when it is retried")
		Expect(queue.Len()).To(BeZero(), "a failed item must wait for the rate limiter's delay, not go straight back in line")
		Expect(clock.awaitTimer(ctx)).To(sameDuration(time.Second), "the first retry should wait the limiter's base delay, 1 s")

		clock.Step(time.Second)
		Eventually(queue.Len).WithContext(ctx).Should(Equal(1), "after its delay the item should be back in line")
		Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), notShutDown)
		Expect(rec.calls()).To(Equal([]string{"a", "a"}))
		Expect(queue.NumRequeues("a")).To(BeZero(), "after a success the item's failures were still counted, so its next failure would wait longer than the shortest delay: a success forgets them")
	}, SpecTimeout(harness.Timeout))

	It("gives up on an item that still fails after MaxRetries retries, and forgets it", func(ctx SpecContext) {
		queue, rec := newInstantRetryQueue(), newSyncRecorder()
		rec.fail("a", 100)
		queue.Add("a")
		for try := 1; try <= queues.MaxRetries+1; try++ {
			Expect(queue.Len()).To(Equal(1), "before try %d of %d, the failed item should be back in line: a failed item is retried, after its limiter's delay, until it has been retried MaxRetries times", try, queues.MaxRetries+1)
			Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), notShutDown)
		}
		Expect(queue.Len()).To(BeZero(), "after its first try and MaxRetries retries, the worker should give up on the item, not add it again")
		Expect(queue.NumRequeues("a")).To(BeZero(), "an item given up on still had its failures counted, so its next failure, days later maybe, would find its retries spent: giving up forgets them too")
	}, SpecTimeout(harness.Timeout))

	It("never lets two workers process one item at once, and processes it again if it was added meanwhile", func(ctx SpecContext) {
		queue, rec := newInstantRetryQueue(), newSyncRecorder()
		release := rec.hold("a")
		stopped := startWorkers(ctx, queue, 3, rec.sync)

		queue.Add("a")
		waitUntil(ctx, stopped, func(g Gomega) { g.Expect(rec.callsOf("a")).To(Equal(1)) }, "a worker should have taken a")
		// a is being processed: adding it again only marks it dirty. b and c are free, so the
		// two idle workers take them.
		queue.Add("a")
		queue.Add("a")
		queue.Add("b")
		queue.Add("c")
		waitUntil(ctx, stopped, func(g Gomega) { g.Expect(rec.calls()).To(ContainElements("b", "c")) }, "the idle workers should have processed b and c")
		Expect(rec.callsOf("a")).To(Equal(1), "another worker took a while its first sync was still running: an item is done only once its sync has returned")

		release()
		waitUntil(ctx, stopped, func(g Gomega) { g.Expect(rec.callsOf("a")).To(Equal(2)) },
			"a was added while it was being processed, so once it is Done it should be processed again")
		queue.ShutDown()
		Eventually(stopped).WithContext(ctx).Should(BeClosed(), "after ShutDown, ProcessNextItem should return false so that the workers stop")
		Expect(rec.callsOf("a")).To(Equal(2), "a was added twice during its first sync: that is one more sync, not two")
		Expect(rec.overlapped()).To(BeFalse(), "two syncs of one item ran at the same time")
	}, SpecTimeout(harness.Timeout))

	It("finishes the item in hand, then stops its workers on shutdown", func(ctx SpecContext) {
		queue, rec := newInstantRetryQueue(), newSyncRecorder()
		release := rec.hold("a")
		stopped := startWorkers(ctx, queue, 2, rec.sync)
		queue.Add("a")
		waitUntil(ctx, stopped, func(g Gomega) { g.Expect(rec.callsOf("a")).To(Equal(1)) }, "a worker should have taken a")

		// ShutDownWithDrain returns once every item in hand is Done.
		drained := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			queue.ShutDownWithDrain()
			close(drained)
		}()
		Expect(drained).NotTo(BeClosed(), "the queue was drained while a's sync was still running: an item is done only once its sync has returned")
		release()
		Eventually(drained).WithContext(ctx).Should(BeClosed(), "the queue was never drained: an item a worker took was never marked done")
		Eventually(stopped).WithContext(ctx).Should(BeClosed(), "after ShutDown, ProcessNextItem should return false so that the workers stop")
	}, SpecTimeout(harness.Timeout))

	It("hands out what was queued before ShutDown, then says the queue is shut down", func(ctx SpecContext) {
		queue, rec := newInstantRetryQueue(), newSyncRecorder()
		queue.Add("a")
		queue.Add("b")
		queue.ShutDown()
		Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), "items queued before ShutDown are still handed out: ProcessNextItem should process them and return true, the queue is still there")
		Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeTrue(), "items queued before ShutDown are still handed out: ProcessNextItem should process them and return true, the queue is still there")
		Expect(queues.ProcessNextItem(ctx, queue, rec.sync)).To(BeFalse(), "the queue is shut down and empty: ProcessNextItem should return false, which stops the worker")
		Expect(rec.calls()).To(Equal([]string{"a", "b"}))
	}, SpecTimeout(harness.Timeout))
})

// newInstantRetryQueue is a rate-limiting queue whose limiter counts failures but never
// delays: a retried item is back in line as soon as it is Done, so specs need no clock.
func newInstantRetryQueue() workqueue.TypedRateLimitingInterface[string] {
	limiter := workqueue.NewTypedItemExponentialFailureRateLimiter[string](0, 0)
	queue := workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[string]{})
	DeferCleanup(queue.ShutDown)
	return queue
}

// startWorkers runs n workers, each calling ProcessNextItem until it returns false, as a
// controller does. The channel it returns is closed once every worker has stopped.
func startWorkers(ctx context.Context, queue workqueue.TypedRateLimitingInterface[string], n int, syncItem func(context.Context, string) error) <-chan struct{} {
	var workers sync.WaitGroup
	for range n {
		workers.Go(func() {
			defer GinkgoRecover()
			for queues.ProcessNextItem(ctx, queue, syncItem) {
			}
		})
	}
	stopped := make(chan struct{})
	go func() {
		workers.Wait()
		close(stopped)
	}()
	return stopped
}

// waitUntil polls check until it passes. It stops at once if the workers have stopped: they
// would never make it pass.
func waitUntil(ctx context.Context, stopped <-chan struct{}, check func(Gomega), description string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		select {
		case <-stopped:
			StopTrying("the workers stopped although the queue was not shut down: " + notShutDown).Now()
		default:
		}
		check(g)
	}).WithContext(ctx).Should(Succeed(), description)
}

// errInjected is the error of a sync the spec told to fail.
var errInjected = errors.New("injected by the spec: sync failed")

// errSyncPanicked is what a sync the spec wrote to panic panics with.
var errSyncPanicked = errors.New("injected by the spec: sync panicked")

// syncRecorder provides a sync function that records its calls. A spec can make an item's
// next syncs fail, or hold them until it releases them.
type syncRecorder struct {
	mu       sync.Mutex
	items    []string                 // every call, in order
	failures map[string]int           // how many more syncs of an item fail
	holds    map[string]chan struct{} // syncs of an item wait until its channel is closed
	running  map[string]int           // syncs of an item running right now
	overlap  bool                     // two syncs of one item ever ran at the same time
}

func newSyncRecorder() *syncRecorder {
	return &syncRecorder{failures: map[string]int{}, holds: map[string]chan struct{}{}, running: map[string]int{}}
}

func (r *syncRecorder) sync(ctx context.Context, item string) error {
	hold, err := r.begin(item)
	defer r.end(item)
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
		}
	}
	return err
}

func (r *syncRecorder) begin(item string) (chan struct{}, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, item)
	r.running[item]++
	r.overlap = r.overlap || r.running[item] > 1
	if r.failures[item] > 0 {
		r.failures[item]--
		return r.holds[item], errInjected
	}
	return r.holds[item], nil
}

func (r *syncRecorder) end(item string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running[item]--
}

// fail makes the next n syncs of item return errInjected.
func (r *syncRecorder) fail(item string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures[item] = n
}

// hold makes syncs of item wait until the returned release is called (or the spec ends).
func (r *syncRecorder) hold(item string) (release func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	r.holds[item] = ch
	release = sync.OnceFunc(func() { close(ch) })
	DeferCleanup(release)
	return release
}

func (r *syncRecorder) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.items...)
}

func (r *syncRecorder) callsOf(item string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, it := range r.items {
		if it == item {
			n++
		}
	}
	return n
}

func (r *syncRecorder) overlapped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.overlap
}
