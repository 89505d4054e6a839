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
	Expect(publishes).NotTo(BeNil(), "controller-runtime's registry (sigs.k8s.io/controller-runtime/pkg/metrics.Registry), the one the manager serves, has no %s after ObservePublish: a scrape of the manager would not find it (Prometheus' default registry is served by nobody here)", observe.PublishesMetric)
	Expect(seconds).NotTo(BeNil(), "controller-runtime's registry, the one the manager serves, has no %s after ObservePublish: a scrape of the manager would not find it", observe.PublishSecondsMetric)
	Expect(publishes.GetType()).To(Equal(dto.MetricType_COUNTER), "%s is a %s; a counter was expected", observe.PublishesMetric, publishes.GetType())
	Expect(seconds.GetType()).To(Equal(dto.MetricType_HISTOGRAM), "%s is a %s; a histogram was expected", observe.PublishSecondsMetric, seconds.GetType())
	return publishes, seconds
}

// expectBounded checks that the series of controller in publishes and seconds have only the
// labels controller and outcome, outcome only its two values, and no label value that names
// one of the objects in names.
func expectBounded(publishes, seconds *dto.MetricFamily, controller string, names []string) {
	GinkgoHelper()
	for _, f := range []*dto.MetricFamily{publishes, seconds} {
		for _, m := range f.GetMetric() {
			Expect(labelsOf(m)).To(HaveKey("controller"), "%s has a series without a controller label (labels %v): the calls of every controller in the process land in it together, and nobody can tell which controller's calls are slow or failing", f.GetName(), labelsOf(m))
		}
		series := seriesOf(f, controller)
		Expect(len(series)).To(BeNumerically("<=", 2),
			"%s has %d series for controller %q: a label whose values grow with the objects (a name, a key, an error's text) makes a series per object; at most one per outcome was expected", f.GetName(), len(series), controller)
		for _, m := range series {
			for name, value := range labelsOf(m) {
				Expect(name).To(BeElementOf("controller", "outcome"), "%s has a label %q (value %q): only controller and outcome take their values from a small, fixed set here", f.GetName(), name, value)
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
			"after 2 calls that returned no error and 1 that failed, %s{controller=%q,outcome=%q} should count the 2", observe.PublishesMetric, controller, observe.OutcomePublished)
		Expect(sumOf(observe.PublishesMetric, controller, map[string]string{"outcome": observe.OutcomeFailed})).To(Equal(1.0),
			"after 2 calls that returned no error and 1 that failed, %s{controller=%q,outcome=%q} should count the 1", observe.PublishesMetric, controller, observe.OutcomeFailed)
		var count uint64
		var sum float64
		for _, m := range seriesOf(seconds, controller) {
			count += m.GetHistogram().GetSampleCount()
			sum += m.GetHistogram().GetSampleSum()
		}
		Expect(count).To(Equal(uint64(3)), "%s{controller=%q} counted %d calls of 3 (2 published, 1 failed): every call's duration, failed or not, was expected", observe.PublishSecondsMetric, controller, count)
		Expect(sum).To(BeNumerically("~", 2.1, 0.001), "%s{controller=%q} adds up to %v after calls of 30 ms, 2 s and 70 ms (2.1 s together): durations are in seconds, Prometheus' base unit", observe.PublishSecondsMetric, controller, sum)
	})

	It("counts a live controller's calls to the store, with series that stay few however many ConfigMaps there are", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "tenant-"+rand.String(4), 20)
		store := newStore()
		store.failFirst = 1
		store.delay = 20 * time.Millisecond
		r := setup(ns, store, 4, harness.FastRateLimiter(), nil)
		r.start(ctx)
		Eventually(func() []string { return store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(), "these ConfigMaps never reached the store")
		Eventually(store.InFlight).WithContext(ctx).WithTimeout(settle).Should(BeZero(), "calls to the store still run after every ConfigMap was published")

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
			g.Expect(count).To(Equal(uint64(ok+failed)), "the store had %d calls, and %s{controller=%q} counted %d", ok+failed, observe.PublishSecondsMetric, r.name, count)
			g.Expect(sum).To(BeNumerically(">=", 0.02*float64(ok+failed)), "%s{controller=%q} adds up to %v s for %d calls of 20 ms or more: less than they took", observe.PublishSecondsMetric, r.name, sum, ok+failed)
			g.Expect(sum).To(BeNumerically("<", 5*float64(ok+failed)), "%s{controller=%q} adds up to %v for %d calls of about 20 ms: far more seconds than they took (durations are in seconds, Prometheus' base unit)", observe.PublishSecondsMetric, r.name, sum, ok+failed)
		}).WithContext(ctx).WithTimeout(5 * time.Second).Should(Succeed())
	}, SpecTimeout(harness.Timeout))
})
