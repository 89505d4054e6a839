package observe_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	observe "workshop.local/lessons/13-observability"
	"workshop.local/lessons/internal/harness"
)

// withMetrics serves the manager's metrics with your MetricsServer options, on a free port, and
// returns the URL the specs scrape.
func withMetrics(url *string) func(*manager.Options) {
	return func(o *manager.Options) {
		port := freePort()
		o.Metrics = observe.MetricsServer(port)
		// Never start a server that listens beyond this machine, even for a spec that fails.
		host, _, _ := net.SplitHostPort(o.Metrics.BindAddress)
		if ip := net.ParseIP(host); o.Metrics.BindAddress != "0" && (ip == nil || !ip.IsLoopback()) {
			Fail(fmt.Sprintf("MetricsServer binds %q: bind 127.0.0.1, so that only this machine reads the metrics", o.Metrics.BindAddress))
		}
		*url = fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
	}
}

// expected is the Summary the spec reads itself, from controller-runtime's registry.
func expected(name string) observe.Summary {
	GinkgoHelper()
	s := observe.Summary{
		Workers:        int(sumOf("controller_runtime_max_concurrent_reconciles", name, nil)),
		ActiveWorkers:  int(sumOf("controller_runtime_active_workers", name, nil)),
		Succeeded:      sumOf("controller_runtime_reconcile_total", name, map[string]string{"result": "success"}),
		Failed:         sumOf("controller_runtime_reconcile_total", name, map[string]string{"result": "error"}),
		RequeuedAfter:  sumOf("controller_runtime_reconcile_total", name, map[string]string{"result": "requeue_after"}),
		Errors:         sumOf("controller_runtime_reconcile_errors_total", name, nil),
		QueueDepth:     sumOf("workqueue_depth", name, nil),
		QueueAdds:      sumOf("workqueue_adds_total", name, nil),
		Retries:        sumOf("workqueue_retries_total", name, nil),
		LongestRunning: time.Duration(sumOf("workqueue_longest_running_processor_seconds", name, nil) * float64(time.Second)),
	}
	for _, m := range seriesOf(family("controller_runtime_reconcile_time_seconds"), name) {
		s.Reconciles += m.GetHistogram().GetSampleCount()
		s.ReconcileTime += time.Duration(m.GetHistogram().GetSampleSum() * float64(time.Second))
	}
	return s
}

// scrape calls your Scrape and fails the spec on an error.
func scrape(ctx context.Context, url, name string) observe.Summary {
	GinkgoHelper()
	s, err := observe.Scrape(ctx, url, name)
	Expect(err).NotTo(HaveOccurred(), "Scrape(%s) failed", url)
	return s
}

var _ = Describe("Exercise 2: the metrics that come free", harness.Exercise(2), func() {
	It("serves the manager's metrics on loopback only", func(ctx SpecContext) {
		opts := observe.MetricsServer(9999)
		host, port, err := net.SplitHostPort(opts.BindAddress)
		Expect(err).NotTo(HaveOccurred(), "MetricsServer(9999).BindAddress is %q: it should be host:port", opts.BindAddress)
		Expect(port).To(Equal("9999"), "MetricsServer(9999) should bind port 9999")
		ip := net.ParseIP(host)
		Expect(ip != nil && ip.IsLoopback()).To(BeTrue(),
			"MetricsServer binds %q: an empty host or 0.0.0.0 listens on every interface, where anyone on the network reads the metrics; bind 127.0.0.1", opts.BindAddress)
		Expect(opts.SecureServing).To(BeFalse(), "on loopback the lesson serves plain HTTP (SecureServing false)")

		ns := cluster.Namespace(ctx, prefix)
		var url string
		r := setup(ns, newStore(), 1, harness.FastRateLimiter(), withMetrics(&url))
		r.start(ctx)
		var families map[string]any
		Eventually(func(g Gomega) {
			resp, err := http.Get(url)
			g.Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			g.Expect(resp.StatusCode).To(Equal(http.StatusOK))
			parser := expfmt.NewTextParser(model.UTF8Validation)
			parsed, err := parser.TextToMetricFamilies(resp.Body)
			g.Expect(err).NotTo(HaveOccurred())
			families = map[string]any{}
			for name := range parsed {
				families[name] = true
			}
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the manager should serve its metrics at %s (MetricsServer's options)", url)
		Expect(families).To(HaveKey("controller_runtime_reconcile_total"))
	}, SpecTimeout(harness.Timeout))

	It("summarizes a controller that works, apart from the other controllers of the process", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "app", 5)
		store := newStore()
		store.failFirst = 1 // each key fails once: errors and retries to count
		var url string
		r := setup(ns, store, 2, harness.FastRateLimiter(), withMetrics(&url))
		// A second controller in the same manager, on the same ConfigMaps, that fails more:
		// its series must not leak into the Summary of yours.
		noisy := harness.RecordReconciles(reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, fmt.Errorf("noisy neighbour fails %s", req)
		}))
		Expect(observe.NewController(r.mgr, r.name+"_noisy", noisy, 3, harness.FastRateLimiter())).To(Succeed())
		r.start(ctx)
		Eventually(func() []string { return store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty())
		Eventually(func() float64 {
			return sumOf("workqueue_depth", r.name, nil) + sumOf("controller_runtime_active_workers", r.name, nil)
		}).
			WithContext(ctx).WithTimeout(settle).Should(BeZero(), "the controller should come to rest")

		// At rest nothing changes, so your Summary and the registry must agree field by field
		// (polled: a late retry of a ConfigMap the spec did not create may still land).
		Eventually(func(g Gomega) {
			got, want := scrape(ctx, url, r.name), expected(r.name)
			g.Expect(want.Failed).To(BeNumerically(">", 0)) // the spec's own premise
			g.Expect(got.Workers).To(Equal(want.Workers), "Workers: controller_runtime_max_concurrent_reconciles{controller=%q}", r.name)
			g.Expect(got.Succeeded).To(Equal(want.Succeeded), "Succeeded: controller_runtime_reconcile_total{controller=%q,result=\"success\"}, and only that result", r.name)
			g.Expect(got.Failed).To(Equal(want.Failed), "Failed: controller_runtime_reconcile_total{controller=%q,result=\"error\"}", r.name)
			g.Expect(got.Errors).To(Equal(want.Errors), "Errors: controller_runtime_reconcile_errors_total{controller=%q}", r.name)
			g.Expect(got.Reconciles).To(Equal(want.Reconciles), "Reconciles: the _count of controller_runtime_reconcile_time_seconds{controller=%q}", r.name)
			g.Expect(got.ReconcileTime).To(BeNumerically("~", want.ReconcileTime, time.Microsecond), "ReconcileTime: the _sum of controller_runtime_reconcile_time_seconds{controller=%q}, in seconds", r.name)
			g.Expect(got.QueueAdds).To(Equal(want.QueueAdds), "QueueAdds: workqueue_adds_total{controller=%q}", r.name)
			g.Expect(got.Retries).To(Equal(want.Retries), "Retries: workqueue_retries_total{controller=%q}", r.name)
			g.Expect(got.ActiveWorkers).To(BeZero(), "ActiveWorkers: controller_runtime_active_workers{controller=%q}: none at rest", r.name)
			g.Expect(got.QueueDepth).To(BeZero(), "QueueDepth: workqueue_depth{controller=%q}: nothing waits at rest", r.name)
		}).WithContext(ctx).WithTimeout(5*time.Second).Should(Succeed(), "your Summary should say what controller-runtime's registry says about controller %q, and about no other", r.name)
	}, SpecTimeout(harness.Timeout))

	It("shows a controller that is stuck: workers busy, requests waiting, the oldest call's age", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		before := createConfigMaps(ctx, ns, "early", 2) // listed at start: the queue's low priority
		store := newStore()
		store.Hold()
		DeferCleanup(store.Release)
		var url string
		r := setup(ns, store, 1, harness.FastRateLimiter(), withMetrics(&url))
		r.start(ctx)
		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(Equal(1))
		held := time.Now()
		// Created once the controller is at work, so they come as watch events, not in the
		// initial list: they wait at the default priority, 0.
		after := createConfigMaps(ctx, ns, "late", 2)
		waiting := len(before) + len(after) - 1 // one ConfigMap is in the store's hands
		Eventually(func() float64 { return sumOf("workqueue_depth", r.name, nil) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", waiting))

		var got observe.Summary
		Eventually(func() time.Duration {
			got = scrape(ctx, url, r.name)
			return got.LongestRunning
		}).WithContext(ctx).WithTimeout(10*time.Second).Should(BeNumerically(">=", time.Second),
			"LongestRunning: workqueue_longest_running_processor_seconds{controller=%q} is in seconds; the call held by the store has been running for seconds", r.name)
		Expect(got.LongestRunning).To(BeNumerically("<=", time.Since(held)+time.Second), "LongestRunning is longer than the call has been held: it is in seconds")
		Expect(got.ActiveWorkers).To(Equal(1), "ActiveWorkers: controller_runtime_active_workers{controller=%q}: the one worker is busy", r.name)
		Expect(got.Workers).To(Equal(1), "Workers: controller_runtime_max_concurrent_reconciles{controller=%q}", r.name)
		Eventually(func() float64 { return scrape(ctx, url, r.name).QueueDepth - sumOf("workqueue_depth", r.name, nil) }).WithContext(ctx).WithTimeout(5*time.Second).Should(BeZero(),
			"QueueDepth: workqueue_depth{controller=%q} has a series per priority (requests listed at start wait at a low one): add them all up", r.name)
		store.Release()
	}, SpecTimeout(harness.Timeout))
})
