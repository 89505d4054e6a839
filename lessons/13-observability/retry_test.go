package observe_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

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
	It("spaces the retries of one request from RetryBase, twice as long each time, up to RetryMax", func() {
		limiter := observe.RetryLimiter()
		Expect(limiter).NotTo(BeNil(), "RetryLimiter returned nil")
		// One request that fails twelve times in a row: the overall bucket (RetryBurst tokens
		// at the start) lets all twelve through at once, so each delay is the request's own.
		req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "failing"}}
		var got, want []string
		for i := range 12 {
			got = append(got, limiter.When(req).String())
			want = append(want, min(observe.RetryBase<<i, observe.RetryMax).String())
		}
		Expect(got).To(Equal(want), "one request that kept failing was told to wait %v before its retries: a request's own backoff starts at RetryBase (%s), doubles with each failure and never waits more than RetryMax (%s)",
			got, observe.RetryBase, observe.RetryMax)
	})

	It("rides out an outage of the store without a storm of retries, and recovers when it is back", func(ctx SpecContext) {
		limiter := observe.RetryLimiter()
		Expect(limiter).NotTo(BeNil(), "RetryLimiter returned nil")
		ns := cluster.Namespace(ctx, prefix)
		keys := keysOf(createConfigMaps(ctx, ns, "crowd", crowd))
		store := newStore()
		store.SetDown(true)
		r := setup(ns, store, 4, limiter, nil)
		r.start(ctx)
		Eventually(store.Calls).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", crowd), "the store should be called at least once for each of the %d ConfigMaps", crowd)

		from := time.Now().Add(-time.Second) // the first tries began just now
		Consistently(func() int { return store.CallsSince(from) }).WithContext(ctx).WithTimeout(outage).Should(BeNumerically("<=", stormBound),
			"during an outage of the store, %d failing ConfigMaps made more than %d calls to it in %s: nothing limits the retries of the controller as a whole, only each request's own", crowd, stormBound, outage+time.Second)
		GinkgoWriter.Printf("calls to the store during the outage: %d (at most %d)\n", store.CallsSince(from), stormBound)
		retriedBefore := sumOf("workqueue_retries_total", r.name, nil)
		Expect(retriedBefore).To(BeNumerically(">", 0), "workqueue_retries_total{controller=%q} is 0 after an outage of every ConfigMap: the retries delayed by the rate limiter should show there", r.name)

		store.SetDown(false)
		Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(recovery).Should(BeEmpty(),
			"once the store was back, these ConfigMaps were not published within %s: with each request's backoff capped at RetryMax (%s) and RetryQPS (%d) retries a second let through, %d ConfigMaps take about %s",
			recovery, observe.RetryMax, observe.RetryQPS, crowd, time.Duration(crowd/observe.RetryQPS)*time.Second)
		// The metrics tell the same story: errors stop, and the queue drains.
		errorsAfter := sumOf("controller_runtime_reconcile_errors_total", r.name, nil)
		Consistently(func() float64 { return sumOf("controller_runtime_reconcile_errors_total", r.name, nil) }).WithContext(ctx).WithTimeout(time.Second).Should(Equal(errorsAfter),
			"every ConfigMap is published, yet controller_runtime_reconcile_errors_total{controller=%q} still grows", r.name)
		Eventually(func() float64 { return sumOf("workqueue_depth", r.name, nil) }).WithContext(ctx).WithTimeout(settle).Should(BeZero(),
			"every ConfigMap is published, yet requests still wait in the queue (workqueue_depth{controller=%q})", r.name)
	}, SpecTimeout(harness.Timeout))

	It("backs off one ConfigMap that keeps failing while the others go through, and retries it within RetryMax once it works again", func(ctx SpecContext) {
		limiter := observe.RetryLimiter()
		Expect(limiter).NotTo(BeNil(), "RetryLimiter returned nil")
		ns := cluster.Namespace(ctx, prefix)
		keys := keysOf(createConfigMaps(ctx, ns, "fine", 20))
		store := newStore()
		// The poison ConfigMap fails for an outage of its own, three times RetryMax, then works.
		store.poison = ns + "/poison"
		store.healAfter = outage
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, configMap(ns, "poison"), createOptions)
		Expect(err).NotTo(HaveOccurred())
		r := setup(ns, store, 4, limiter, nil)
		r.start(ctx)
		Eventually(func() []string { return store.Unpublished(keys) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(), "the ConfigMaps whose store calls work should all be published, whatever one failing ConfigMap does")

		// RetryBase doubling to RetryMax: about ten tries in the first 3 s, then one a second;
		// once it works, the next try comes at most RetryMax after the last failure.
		DeferCleanup(func() { GinkgoWriter.Printf("tries of the failing ConfigMap: %d\n", store.Attempts(store.poison)) })
		Eventually(func() []string { return store.Unpublished([]string{store.poison}) }).WithContext(ctx).WithTimeout(outage+settle).Should(BeEmpty(),
			"a ConfigMap that failed for %s was never published once the store took it again", outage)
		first, failed, worked := store.Poison()
		tries := store.Attempts(store.poison) - 1 // the last one worked
		Expect(tries).To(BeNumerically("<=", 20),
			"a ConfigMap that kept failing was tried %d times in %s: it was retried without backing off on its own (a request's delay doubles from RetryBase)", tries, failed.Sub(first).Round(time.Millisecond))
		gap := worked.Sub(failed)
		Expect(gap.Seconds()).To(BeNumerically("<=", (observe.RetryMax+1500*time.Millisecond).Seconds()),
			"a ConfigMap that failed for %s waited %s after its last failure before it was tried again: a request's backoff stops growing at RetryMax (%s), so that it recovers soon after its outage ends",
			failed.Sub(first).Round(time.Millisecond), gap.Round(time.Millisecond), observe.RetryMax)
	}, SpecTimeout(harness.Timeout))
})
