package observe_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	dto "github.com/prometheus/client_model/go"
	"k8s.io/apimachinery/pkg/util/rand"

	observe "workshop.local/lessons/13-observability"
	"workshop.local/lessons/internal/harness"
)

// ownFamilies returns the lesson's two families from controller-runtime's registry, failing
// the spec with a hint when one is missing.
func ownFamilies() (publishes, seconds *dto.MetricFamily) {
	GinkgoHelper()
	publishes, seconds = family(observe.PublishesMetric), family(observe.PublishSecondsMetric)
	Expect(publishes).NotTo(BeNil(), "controller-runtime's registry (sigs.k8s.io/controller-runtime/pkg/metrics.Registry) has no %s: register your counter there; the manager serves that registry, not Prometheus' default one", observe.PublishesMetric)
	Expect(seconds).NotTo(BeNil(), "controller-runtime's registry has no %s: register your histogram there", observe.PublishSecondsMetric)
	Expect(publishes.GetType()).To(Equal(dto.MetricType_COUNTER), "%s should be a counter", observe.PublishesMetric)
	Expect(seconds.GetType()).To(Equal(dto.MetricType_HISTOGRAM), "%s should be a histogram", observe.PublishSecondsMetric)
	return publishes, seconds
}

// expectBounded checks that the series of controller in publishes and seconds have only the
// labels controller and outcome, outcome only its two values, and no label value that names
// one of the objects in names.
func expectBounded(publishes, seconds *dto.MetricFamily, controller string, names []string) {
	GinkgoHelper()
	for _, f := range []*dto.MetricFamily{publishes, seconds} {
		series := seriesOf(f, controller)
		Expect(len(series)).To(BeNumerically("<=", 2),
			"%s has %d series for one controller: a label whose values grow with the objects (a name, a key, an error's text) makes a series per object; keep to controller and outcome", f.GetName(), len(series))
		for _, m := range series {
			for name, value := range labelsOf(m) {
				Expect(name).To(BeElementOf("controller", "outcome"), "%s has a label %q: only controller and outcome are bounded here", f.GetName(), name)
				if name == "outcome" {
					Expect(value).To(BeElementOf(observe.OutcomePublished, observe.OutcomeFailed), "the outcome label should be %q or %q, not %q", observe.OutcomePublished, observe.OutcomeFailed, value)
				}
				for _, n := range names {
					Expect(value).NotTo(ContainSubstring(n), "%s has a label value %q that names an object: every object would get a series of its own", f.GetName(), value)
				}
			}
		}
	}
}

var _ = Describe("Exercise 3: a metric of your own", harness.Exercise(3), func() {
	It("records each call in controller-runtime's registry: a counter by outcome and a histogram in seconds", func() {
		controller := "unit_" + rand.String(6)
		key := "default/cm-" + rand.String(6)
		observe.ObservePublish(controller, key, nil, 30*time.Millisecond)
		observe.ObservePublish(controller, key, fmt.Errorf("%w: %s", errStoreDown, key), 2*time.Second)
		observe.ObservePublish(controller, key, nil, 70*time.Millisecond)

		publishes, seconds := ownFamilies()
		expectBounded(publishes, seconds, controller, []string{strings.TrimPrefix(key, "default/")})
		Expect(sumOf(observe.PublishesMetric, controller, map[string]string{"outcome": observe.OutcomePublished})).To(Equal(2.0),
			"%s{outcome=%q} should count the 2 calls that returned no error", observe.PublishesMetric, observe.OutcomePublished)
		Expect(sumOf(observe.PublishesMetric, controller, map[string]string{"outcome": observe.OutcomeFailed})).To(Equal(1.0),
			"%s{outcome=%q} should count the call that returned an error", observe.PublishesMetric, observe.OutcomeFailed)
		var count uint64
		var sum float64
		for _, m := range seriesOf(seconds, controller) {
			count += m.GetHistogram().GetSampleCount()
			sum += m.GetHistogram().GetSampleSum()
		}
		Expect(count).To(Equal(uint64(3)), "%s should observe every call, failed or not", observe.PublishSecondsMetric)
		Expect(sum).To(BeNumerically("~", 2.1, 0.001), "%s should observe durations in seconds (Prometheus' base unit): the calls took 2.1 s together", observe.PublishSecondsMetric)
	})

	It("counts a live controller's calls to the store, with series that stay few however many ConfigMaps there are", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "tenant-"+rand.String(4), 20)
		store := newStore()
		store.failFirst = 1
		store.delay = 20 * time.Millisecond
		r := setup(ns, store, 4, harness.FastRateLimiter(), nil)
		r.start(ctx)
		Eventually(func() []string { return store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty())
		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(BeZero())

		publishes, seconds := ownFamilies()
		var names []string
		for _, cm := range cms {
			names = append(names, cm.Name, string(cm.UID))
		}
		expectBounded(publishes, seconds, r.name, names)
		// The store counts a call before publish records it: poll until both agree.
		Eventually(func(g Gomega) {
			ok, failed := store.Outcomes()
			g.Expect(sumOf(observe.PublishesMetric, r.name, map[string]string{"outcome": observe.OutcomePublished})).To(Equal(float64(ok)),
				"the store took %d calls: %s{controller=%q,outcome=%q} should say so", ok, observe.PublishesMetric, r.name, observe.OutcomePublished)
			g.Expect(sumOf(observe.PublishesMetric, r.name, map[string]string{"outcome": observe.OutcomeFailed})).To(Equal(float64(failed)),
				"the store failed %d calls: %s{controller=%q,outcome=%q} should say so", failed, observe.PublishesMetric, r.name, observe.OutcomeFailed)
			var count uint64
			var sum float64
			for _, m := range seriesOf(family(observe.PublishSecondsMetric), r.name) {
				count += m.GetHistogram().GetSampleCount()
				sum += m.GetHistogram().GetSampleSum()
			}
			g.Expect(count).To(Equal(uint64(ok+failed)), "%s should observe each of the %d calls", observe.PublishSecondsMetric, ok+failed)
			g.Expect(sum).To(BeNumerically(">=", 0.02*float64(ok+failed)), "each call took at least 20 ms: the histogram's sum is too small")
			g.Expect(sum).To(BeNumerically("<", 5*float64(ok+failed)), "the histogram's sum is far more than the calls took: observe seconds (took.Seconds()), not milliseconds")
		}).WithContext(ctx).WithTimeout(5 * time.Second).Should(Succeed())
	}, SpecTimeout(harness.Timeout))
})
