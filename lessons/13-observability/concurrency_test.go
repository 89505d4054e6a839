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
		g.Expect(published).To(Equal(ok), "the store took %d calls; the Tally counted %d: Track should count every success", ok, published)
		g.Expect(failures).To(Equal(failed), "the store failed %d calls; the Tally counted %d: Track should count every failure", failed, failures)
		for _, k := range keys {
			g.Expect(r.tally.Published(k)).To(BeTrue(), "the store has %s; the Tally says it was never published", k)
		}
	}).WithContext(ctx).WithTimeout(5 * time.Second).Should(Succeed())
}

// timeToPublish runs a controller with n workers over the ConfigMaps of ns, each call to the
// store taking delay, and returns how long the store took from its first call to the last
// ConfigMap published.
func timeToPublish(ctx context.Context, ns string, keys []string, n int, delay time.Duration) time.Duration {
	GinkgoHelper()
	store := newStore()
	store.delay = delay
	r := setup(ns, store, n, harness.FastRateLimiter(), nil)
	stop := harness.StartManager(ctx, r.mgr)
	start := time.Now()
	Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty())
	took := time.Since(start)
	Expect(stop()).To(Succeed())
	return took
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
		r := setup(ns, store, workers, harness.FastRateLimiter(), nil)
		r.start(ctx)
		readTally(harness.Background(ctx), r, keys)

		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(Equal(workers),
			"the store holds every call: with %d workers, %d calls should wait there at once (MaxConcurrentReconciles; and the slow call must not run under a lock)", workers, workers)
		Consistently(store.InFlight).WithContext(ctx).WithTimeout(time.Second).Should(BeNumerically("<=", workers), "more calls than workers reached the store at once")
		// While the calls are held, change one ConfigMap again and again: its next Reconcile
		// must wait until the one in progress has returned.
		for i := range 3 {
			_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Patch(ctx, cms[0].Name, types.MergePatchType,
				fmt.Appendf(nil, `{"data":{"round":"%d"}}`, i), metav1.PatchOptions{})
			Expect(err).NotTo(HaveOccurred())
		}
		store.Release()
		Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty())
		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(BeZero())
		Expect(store.MaxPerKey()).To(Equal(1), "two calls to the store for one ConfigMap overlapped: the workqueue never runs one key twice at once, so the call must finish inside Reconcile (not in a goroutine of its own)")
		Expect(r.rec.MaxConcurrentPerKey()).To(Equal(1))
		expectTallied(ctx, r, keys)
	}, SpecTimeout(harness.Timeout))

	It("publishes many slow ConfigMaps at least twice as fast with 4 workers as with 1", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		keys := keysOf(createConfigMaps(ctx, ns, "slow", 24))
		const delay = 100 * time.Millisecond
		serial := timeToPublish(ctx, ns, keys, 1, delay)
		parallel := timeToPublish(ctx, ns, keys, workers, delay)
		GinkgoWriter.Printf("24 ConfigMaps, %s per call: 1 worker %s, %d workers %s\n", delay, serial, workers, parallel)
		Expect(serial).To(BeNumerically(">=", 24*delay)) // the spec's own premise: one at a time
		Expect(parallel).To(BeNumerically("<=", serial/2),
			"with %d workers the controller took %s, with 1 %s: ControllerOptions should run the workers it is given", workers, parallel, serial)
	}, SpecTimeout(harness.Timeout))
})
