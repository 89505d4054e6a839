package observe_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/apimachinery/pkg/types"
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
			Fail(fmt.Sprintf("MetricsServer's address %q listens beyond this machine, so the specs start no server with it: the metrics should be served on loopback (127.0.0.1) only", o.Metrics.BindAddress))
		}
		*url = fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
	}
}

// fixture is what a metrics endpoint serves in the specs' own server: two controllers in the
// same families ("other" first), the queue of "mine" at two priorities, every result of
// reconcile_total, and the reconcile time histogram.
const fixture = `# TYPE controller_runtime_max_concurrent_reconciles gauge
controller_runtime_max_concurrent_reconciles{controller="other"} 8
controller_runtime_max_concurrent_reconciles{controller="mine"} 3
# TYPE controller_runtime_active_workers gauge
controller_runtime_active_workers{controller="other"} 5
controller_runtime_active_workers{controller="mine"} 2
# TYPE controller_runtime_reconcile_total counter
controller_runtime_reconcile_total{controller="other",result="error"} 40
controller_runtime_reconcile_total{controller="other",result="requeue"} 0
controller_runtime_reconcile_total{controller="other",result="requeue_after"} 20
controller_runtime_reconcile_total{controller="other",result="success"} 100
controller_runtime_reconcile_total{controller="mine",result="error"} 4
controller_runtime_reconcile_total{controller="mine",result="requeue"} 1
controller_runtime_reconcile_total{controller="mine",result="requeue_after"} 2
controller_runtime_reconcile_total{controller="mine",result="success"} 10
# TYPE controller_runtime_reconcile_errors_total counter
controller_runtime_reconcile_errors_total{controller="other"} 40
controller_runtime_reconcile_errors_total{controller="mine"} 4
# TYPE controller_runtime_reconcile_time_seconds histogram
controller_runtime_reconcile_time_seconds_bucket{controller="other",le="0.1"} 100
controller_runtime_reconcile_time_seconds_bucket{controller="other",le="+Inf"} 160
controller_runtime_reconcile_time_seconds_sum{controller="other"} 99.5
controller_runtime_reconcile_time_seconds_count{controller="other"} 160
controller_runtime_reconcile_time_seconds_bucket{controller="mine",le="0.1"} 12
controller_runtime_reconcile_time_seconds_bucket{controller="mine",le="+Inf"} 17
controller_runtime_reconcile_time_seconds_sum{controller="mine"} 1.75
controller_runtime_reconcile_time_seconds_count{controller="mine"} 17
# TYPE workqueue_depth gauge
workqueue_depth{controller="other",name="other",priority="0"} 9
workqueue_depth{controller="mine",name="mine",priority="-100"} 5
workqueue_depth{controller="mine",name="mine",priority="0"} 2
# TYPE workqueue_adds_total counter
workqueue_adds_total{controller="other",name="other"} 210
workqueue_adds_total{controller="mine",name="mine"} 21
# TYPE workqueue_retries_total counter
workqueue_retries_total{controller="other",name="other"} 60
workqueue_retries_total{controller="mine",name="mine"} 6
# TYPE workqueue_longest_running_processor_seconds gauge
workqueue_longest_running_processor_seconds{controller="other",name="other"} 12.5
workqueue_longest_running_processor_seconds{controller="mine",name="mine"} 0.75
`

// fixtureServer serves body with status at /metrics on loopback, and counts the requests.
func fixtureServer(status int, body string) (url string, requests *atomic.Int32) {
	GinkgoHelper()
	requests = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	DeferCleanup(srv.Close)
	return srv.URL + "/metrics", requests
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
	Expect(err).NotTo(HaveOccurred(), "Scrape(%s) of a manager's metrics server failed", url)
	return s
}

var _ = Describe("Exercise 2: the metrics that come free", harness.Exercise(2), func() {
	It("serves the manager's metrics on loopback only", func(ctx SpecContext) {
		opts := observe.MetricsServer(9999)
		host, port, err := net.SplitHostPort(opts.BindAddress)
		Expect(err).NotTo(HaveOccurred(), "MetricsServer(9999).BindAddress is %q: it should be host:port", opts.BindAddress)
		Expect(port).To(Equal("9999"), "MetricsServer(9999) binds port %s", port)
		ip := net.ParseIP(host)
		Expect(ip != nil && ip.IsLoopback()).To(BeTrue(),
			"MetricsServer's address is %q: an empty host or 0.0.0.0 listens on every interface, where anyone on the network reads the metrics; loopback (127.0.0.1) only was expected", opts.BindAddress)
		Expect(opts.SecureServing).To(BeFalse(), "MetricsServer serves HTTPS (SecureServing); on loopback the lesson serves plain HTTP")

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
		Expect(families).To(HaveKey("controller_runtime_reconcile_total"), "the metrics served at %s have no controller_runtime_reconcile_total: they are not controller-runtime's registry", url)
	}, SpecTimeout(harness.Timeout))

	It("reads the endpoint it is given, and only the series of its controller", func(ctx SpecContext) {
		url, requests := fixtureServer(http.StatusOK, fixture)
		got, err := observe.Scrape(ctx, url, "mine")
		Expect(err).NotTo(HaveOccurred(), "Scrape of an endpoint that serves valid metrics failed")
		Expect(requests.Load()).To(BeNumerically(">=", 1), "Scrape(%s) returned without requesting that URL: the metrics to read are the ones the endpoint serves (another process's, in production), not this process's registry", url)
		field := func(name string, got, want any, served string) {
			GinkgoHelper()
			Expect(got).To(Equal(want), "Summary.%s of controller \"mine\" is %v; the endpoint serves %s", name, got, served)
		}
		field("Workers", got.Workers, 3, `controller_runtime_max_concurrent_reconciles{controller="mine"} 3 (and 8 for controller "other")`)
		field("ActiveWorkers", got.ActiveWorkers, 2, `controller_runtime_active_workers{controller="mine"} 2 (and 5 for "other")`)
		field("Succeeded", got.Succeeded, 10.0, `controller_runtime_reconcile_total{controller="mine"} 10 for result "success", 4 for "error", 1 for "requeue", 2 for "requeue_after"`)
		field("Failed", got.Failed, 4.0, `controller_runtime_reconcile_total{controller="mine"} 4 for result "error" (and 40 for "other")`)
		field("RequeuedAfter", got.RequeuedAfter, 2.0, `controller_runtime_reconcile_total{controller="mine"} 2 for result "requeue_after" and 1 for "requeue" (Result.Requeue without a delay)`)
		field("Errors", got.Errors, 4.0, `controller_runtime_reconcile_errors_total{controller="mine"} 4 (and 40 for "other")`)
		field("Reconciles", got.Reconciles, uint64(17), `the histogram controller_runtime_reconcile_time_seconds{controller="mine"} with a count of 17 (the text format's _count line)`)
		Expect(got.ReconcileTime.Seconds()).To(BeNumerically("~", 1.75, 0.001), "Summary.ReconcileTime of controller \"mine\" is %s; the endpoint serves the histogram controller_runtime_reconcile_time_seconds{controller=\"mine\"} with a sum of 1.75 (seconds)", got.ReconcileTime)
		field("QueueDepth", got.QueueDepth, 7.0, `workqueue_depth{controller="mine"} 5 at priority -100 and 2 at priority 0, and 9 for controller "other"`)
		field("QueueAdds", got.QueueAdds, 21.0, `workqueue_adds_total{controller="mine"} 21 (and 210 for "other")`)
		field("Retries", got.Retries, 6.0, `workqueue_retries_total{controller="mine"} 6 (and 60 for "other")`)
		Expect(got.LongestRunning.Seconds()).To(BeNumerically("~", 0.75, 0.001), "Summary.LongestRunning of controller \"mine\" is %s; the endpoint serves workqueue_longest_running_processor_seconds{controller=\"mine\"} 0.75 (seconds)", got.LongestRunning)
	}, SpecTimeout(harness.Timeout))

	It("fails a scrape that the endpoint answers with an error status", func(ctx SpecContext) {
		url, requests := fixtureServer(http.StatusServiceUnavailable, "")
		got, err := observe.Scrape(ctx, url, "mine")
		Expect(requests.Load()).To(BeNumerically(">=", 1), "Scrape(%s) returned without requesting that URL: the metrics to read are the ones the endpoint serves", url)
		Expect(err).To(HaveOccurred(), "the endpoint answered 503 Service Unavailable and Scrape returned no error but %+v: a scrape that failed should say so, not read as a controller at rest", got)
	}, SpecTimeout(harness.Timeout))

	It("summarizes a controller that works, apart from the other controllers of the process", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "app", 5)
		store := newStore()
		store.failFirst = 1 // each key fails once: errors and retries to count
		var url string
		r := setup(ns, store, 2, harness.FastRateLimiter(), withMetrics(&url))
		// One ConfigMap's first success asks to be reconciled again after a delay, as a
		// reconciler that polls something would: counted under the result "requeue_after".
		r.calls.requeueOnce = types.NamespacedName{Namespace: ns, Name: cms[0].Name}
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
			g.Expect(want.Failed).To(BeNumerically(">", 0))        // the spec's own premises
			g.Expect(want.RequeuedAfter).To(BeNumerically(">", 0)) // (a store that fails once, a RequeueAfter)
			g.Expect(got.Workers).To(Equal(want.Workers), "Workers: controller_runtime_max_concurrent_reconciles{controller=%q}", r.name)
			g.Expect(got.Succeeded).To(Equal(want.Succeeded), "Succeeded: controller_runtime_reconcile_total{controller=%q,result=\"success\"}, and only that result", r.name)
			g.Expect(got.Failed).To(Equal(want.Failed), "Failed: controller_runtime_reconcile_total{controller=%q,result=\"error\"}", r.name)
			g.Expect(got.RequeuedAfter).To(Equal(want.RequeuedAfter), "RequeuedAfter: controller_runtime_reconcile_total{controller=%q,result=\"requeue_after\"}", r.name)
			g.Expect(got.Errors).To(Equal(want.Errors), "Errors: controller_runtime_reconcile_errors_total{controller=%q}", r.name)
			g.Expect(got.Reconciles).To(Equal(want.Reconciles), "Reconciles: the _count of controller_runtime_reconcile_time_seconds{controller=%q}", r.name)
			g.Expect(got.ReconcileTime.Seconds()).To(BeNumerically("~", want.ReconcileTime.Seconds(), 1e-6), "ReconcileTime is %s, the _sum of controller_runtime_reconcile_time_seconds{controller=%q} says %s (in seconds)", got.ReconcileTime, r.name, want.ReconcileTime)
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
		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(Equal(1), "the store holds every call, and no call reached it")
		held := time.Now()
		// Created once the controller is at work, so they come as watch events, not in the
		// initial list: they wait at the default priority, 0.
		after := createConfigMaps(ctx, ns, "late", 2)
		waiting := len(before) + len(after) - 1 // one ConfigMap is in the store's hands
		Eventually(func() float64 { return sumOf("workqueue_depth", r.name, nil) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", waiting),
			"with its one worker held, the controller's queue should hold the %d other ConfigMaps", waiting)

		var got observe.Summary
		Eventually(func() float64 {
			got = scrape(ctx, url, r.name)
			return got.LongestRunning.Seconds()
		}).WithContext(ctx).WithTimeout(10*time.Second).Should(BeNumerically(">=", 1),
			"Summary.LongestRunning stays under a second while the store has held a call for seconds (workqueue_longest_running_processor_seconds{controller=%q}, in seconds)", r.name)
		heldFor := time.Since(held) + time.Second
		Expect(got.LongestRunning.Seconds()).To(BeNumerically("<=", heldFor.Seconds()),
			"Summary.LongestRunning is %s, while the store has held the call for less than %s: workqueue_longest_running_processor_seconds is in seconds", got.LongestRunning, heldFor.Round(time.Millisecond))
		Expect(got.ActiveWorkers).To(Equal(1), "ActiveWorkers: controller_runtime_active_workers{controller=%q}: the one worker is busy", r.name)
		Expect(got.Workers).To(Equal(1), "Workers: controller_runtime_max_concurrent_reconciles{controller=%q}", r.name)
		Eventually(func(g Gomega) {
			got, want := scrape(ctx, url, r.name).QueueDepth, sumOf("workqueue_depth", r.name, nil)
			g.Expect(got).To(Equal(want), "Summary.QueueDepth is %v while %v requests wait in the queue of controller %q: its workqueue_depth has a series per priority (those listed at start wait at -100, later ones at 0), and the depth is all of them", got, want, r.name)
		}).WithContext(ctx).WithTimeout(5 * time.Second).Should(Succeed())
		store.Release()
	}, SpecTimeout(harness.Timeout))
})
