package observe_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	observe "workshop.local/lessons/13-observability"
	"workshop.local/lessons/internal/harness"
)

// The outage the specs of exercise 5 play: how many ConfigMaps, and how long the store is down.
const (
	crowd  = 150
	outage = 3 * time.Second
	// recovery: how soon after the outage every ConfigMap must be published. The policy's own
	// pace is about crowd/RetryQPS (3 s); a bucket of 10 per second (client-go's default)
	// needs 15 s and more.
	recovery = 10 * time.Second
)

// stormBound is the most calls the store may see during the outage: the first try of every
// ConfigMap, plus a retry budget of RetryBurst and RetryQPS per second, with room to spare.
// Backing off per ConfigMap alone, 5 ms doubling, lets each ConfigMap try about ten times in
// 3 s (1500 calls); a retry with no backoff, thousands.
var stormBound = crowd + 1 + 2*(observe.RetryBurst+int(outage.Seconds())*observe.RetryQPS)

var _ = Describe("Exercise 5: keeping up under load", harness.Exercise(5), func() {
	It("rides out an outage of the store without a storm of retries, and recovers when it is back", func(ctx SpecContext) {
		limiter := observe.RetryLimiter()
		Expect(limiter).NotTo(BeNil(), "RetryLimiter returned nil")
		ns := cluster.Namespace(ctx, prefix)
		keys := keysOf(createConfigMaps(ctx, ns, "crowd", crowd))
		store := newStore()
		store.SetDown(true)
		r := setup(ns, store, 4, limiter, nil)
		r.start(ctx)
		Eventually(store.Calls).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", crowd), "every ConfigMap should be tried once")

		from := time.Now().Add(-time.Second) // the first tries began just now
		Consistently(func() int { return store.CallsSince(from) }).WithContext(ctx).WithTimeout(outage).Should(BeNumerically("<=", stormBound),
			"during an outage of the store, the controller called it more than %d times in %s: every retry goes through the rate limiter; it needs an overall limit (a token bucket) besides each request's backoff", stormBound, outage+time.Second)
		GinkgoWriter.Printf("calls to the store during the outage: %d (at most %d)\n", store.CallsSince(from), stormBound)
		retriedBefore := sumOf("workqueue_retries_total", r.name, nil)
		Expect(retriedBefore).To(BeNumerically(">", 0), "workqueue_retries_total shows the retries the rate limiter delayed")

		store.SetDown(false)
		Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(recovery).Should(BeEmpty(),
			"once the store is back, every ConfigMap should be published within %s: each request's backoff stops at RetryMax, and the bucket lets RetryQPS retries a second through (%d ConfigMaps in about %s)",
			recovery, crowd, time.Duration(crowd/observe.RetryQPS)*time.Second)
		// The metrics tell the same story: errors stop, and the queue drains.
		errorsAfter := sumOf("controller_runtime_reconcile_errors_total", r.name, nil)
		Consistently(func() float64 { return sumOf("controller_runtime_reconcile_errors_total", r.name, nil) }).WithContext(ctx).WithTimeout(time.Second).Should(Equal(errorsAfter))
		Eventually(func() float64 { return sumOf("workqueue_depth", r.name, nil) }).WithContext(ctx).WithTimeout(settle).Should(BeZero())
	}, SpecTimeout(harness.Timeout))

	It("backs off one ConfigMap that keeps failing while the others go through", func(ctx SpecContext) {
		limiter := observe.RetryLimiter()
		Expect(limiter).NotTo(BeNil(), "RetryLimiter returned nil")
		ns := cluster.Namespace(ctx, prefix)
		keys := keysOf(createConfigMaps(ctx, ns, "fine", 20))
		store := newStore()
		store.poison = ns + "/poison"
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, configMap(ns, "poison"), createOptions)
		Expect(err).NotTo(HaveOccurred())
		r := setup(ns, store, 4, limiter, nil)
		r.start(ctx)
		Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(), "the ConfigMaps that do not fail should be published")
		Eventually(func() int { return store.Attempts(store.poison) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", 2))

		// RetryBase doubling to RetryMax: about ten tries in the first 3 s, then one a second.
		DeferCleanup(func() { GinkgoWriter.Printf("tries of the failing ConfigMap: %d\n", store.Attempts(store.poison)) })
		Consistently(func() int { return store.Attempts(store.poison) }).WithContext(ctx).WithTimeout(outage).Should(BeNumerically("<=", 20),
			"a ConfigMap that keeps failing was tried more than 20 times in %s: each request needs its own backoff (exponential, RetryBase to RetryMax), an overall limit alone retries it as fast as the bucket allows", outage)
	}, SpecTimeout(harness.Timeout))
})
