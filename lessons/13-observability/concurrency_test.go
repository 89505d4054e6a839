package observe_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"workshop.local/lessons/internal/harness"
)

// workers is how many workers the specs of exercise 4 ask for.
const workers = 4

// readTally reads your Tally over and over from a goroutine of its own until the spec ends, as
// a dashboard would while the workers write it: the race detector sees both sides.
func readTally(ctx context.Context, r *rig, keys []string) {
	go func() {
		defer GinkgoRecover()
		for ctx.Err() == nil {
			r.tally.Counts()
			for _, k := range keys {
				r.tally.Published(k)
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Millisecond):
			}
		}
	}()
}

// expectTallied checks that your Tally agrees with the store (polled: the store counts a call
// before Track does).
func expectTallied(ctx context.Context, r *rig, keys []string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		ok, failed := r.store.Outcomes()
		published, failures := r.tally.Counts()
		g.Expect(published).To(Equal(ok), "the store took %d calls; the Tally counted %d successes", ok, published)
		g.Expect(failures).To(Equal(failed), "the store failed %d calls; the Tally counted %d failures", failed, failures)
		for _, k := range keys {
			g.Expect(r.tally.Published(k)).To(BeTrue(), "the store has %s; the Tally says it was never published", k)
		}
	}).WithContext(ctx).WithTimeout(5 * time.Second).Should(Succeed())
}

// timeToPublish runs a controller with n workers over the ConfigMaps of ns, each call to the
// store taking delay, and returns how long the store took from its first call to the last
// ConfigMap published, and the most calls it had at once.
func timeToPublish(ctx context.Context, ns string, keys []string, n int, delay time.Duration) (time.Duration, int) {
	GinkgoHelper()
	store := newStore()
	store.delay = delay
	r := setup(ns, store, n, harness.FastRateLimiter(), nil)
	stop := harness.StartManager(ctx, r.mgr)
	start := time.Now()
	Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(),
		"with %d workers asked for, these ConfigMaps were not published within %s", n, settle)
	took := time.Since(start)
	Expect(stop()).To(Succeed())
	workers := sumOf("controller_runtime_max_concurrent_reconciles", r.name, nil)
	Expect(workers).To(Equal(float64(n)), "ControllerOptions(%d, ...) gave the controller %v workers (controller_runtime_max_concurrent_reconciles): it runs as many as it is asked for", n, workers)
	return took, store.MaxInFlight()
}

var _ = Describe("Exercise 4: concurrency", harness.Exercise(4), func() {
	It("reconciles several ConfigMaps at once, never one ConfigMap twice at once, and tallies every call", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "busy", 2*workers)
		keys := keysOf(cms)
		store := newStore()
		store.failFirst = 1
		store.Hold()
		DeferCleanup(store.Release)
		// The retry policy handed to ControllerOptions, counting how often the controller asks it.
		retry := &countingLimiter{TypedRateLimiter: harness.FastRateLimiter()}
		r := setup(ns, store, workers, retry, nil)
		r.start(ctx)
		readTally(harness.Background(ctx), r, keys)

		// Every ConfigMap is in the cache once the manager has started: the workers reach the
		// store within moments.
		Eventually(func(g Gomega) {
			held := store.InFlight()
			if held > workers {
				StopTrying(fmt.Sprintf("the store holds every call, and %d calls waited there at once with %d workers asked for: more calls than workers means calls that go on after the Reconcile that made them returned", held, workers)).Now()
			}
			g.Expect(held).To(Equal(workers), "the store holds every call, and %d calls waited there at once with %d workers asked for: fewer means fewer workers run, or they wait for each other", held, workers)
		}).WithContext(ctx).WithTimeout(5 * time.Second).Should(Succeed())
		Consistently(store.InFlight).WithContext(ctx).WithTimeout(time.Second).Should(BeNumerically("<=", workers), "more calls than workers reached the store at once")
		// While the calls are held, change one ConfigMap again and again: its next Reconcile
		// must wait until the one in progress has returned.
		for i := range 3 {
			_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Patch(ctx, cms[0].Name, types.MergePatchType,
				fmt.Appendf(nil, `{"data":{"round":"%d"}}`, i), metav1.PatchOptions{})
			Expect(err).NotTo(HaveOccurred())
		}
		store.Release()
		Eventually(func() []string {
			// Every Reconcile that failed met a failure of the store (which counts it before
			// Put returns); one that failed without one never reached the store.
			if failedCalls, storeFailed := r.calls.Failed(), store.Failed(); failedCalls > storeFailed {
				StopTrying(fmt.Sprintf("%d Reconciles returned an error, and the store failed only %d calls: the others failed without reaching the store, and a ConfigMap whose call failed once should reach the store again when it is retried", failedCalls, storeFailed)).Now()
			}
			return store.Unpublished(keys)
		}).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(), "the store failed the first call of each ConfigMap, and these were never published after it")
		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(BeZero())
		Expect(store.MaxPerKey()).To(Equal(1), "two calls to the store for one ConfigMap overlapped: the workqueue hands a key to one worker at a time only while its Reconcile runs, and a call that outlives Reconcile escapes that")
		Expect(r.rec.MaxConcurrentPerKey()).To(Equal(1), "two Reconciles of one ConfigMap overlapped: the workqueue hands a key to one worker at a time")
		expectTallied(ctx, r, keys)
		_, failed := store.Outcomes()
		Expect(retry.Whens()).To(BeNumerically(">=", failed), "the store failed %d calls, and the controller asked the rate limiter given to ControllerOptions for %d retry delays: its retries are paced by another policy than the one it was given", failed, retry.Whens())
	}, SpecTimeout(harness.Timeout))

	It("publishes many slow ConfigMaps at least twice as fast with 4 workers as with 1", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		keys := keysOf(createConfigMaps(ctx, ns, "slow", 24))
		const delay = 100 * time.Millisecond
		serial, serialAtOnce := timeToPublish(ctx, ns, keys, 1, delay)
		parallel, parallelAtOnce := timeToPublish(ctx, ns, keys, workers, delay)
		GinkgoWriter.Printf("24 ConfigMaps, %s per call: 1 worker %s, %d workers %s\n", delay, serial, workers, parallel)
		Expect(serialAtOnce).To(Equal(1), "with 1 worker asked for, the store had %d calls at once", serialAtOnce)
		Expect(serial.Seconds()).To(BeNumerically(">=", (24*delay).Seconds()), // the spec's own premise: one at a time
			"with 1 worker, 24 ConfigMaps that take %s each were published in %.1f s: one worker publishes them one after another, in %.1f s at least", delay, serial.Seconds(), (24 * delay).Seconds())
		Expect(parallelAtOnce).To(BeNumerically(">", 1), "with %d workers asked for, the store never had more than one call at once", workers)
		Expect(parallel.Seconds()).To(BeNumerically("<=", serial.Seconds()/2),
			"24 ConfigMaps that take %s each were published in %.1f s with %d workers and in %.1f s with 1: %d workers should take half the time or less", delay, parallel.Seconds(), workers, serial.Seconds(), workers)
	}, SpecTimeout(harness.Timeout))
})
