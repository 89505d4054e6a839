package operator_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// eventsFor lists the events.k8s.io/v1 Events regarding site in its namespace (what kubectl
// events --for staticsite/<name> shows).
func eventsFor(g Gomega, ctx SpecContext, site *v1alpha1.StaticSite) []eventsv1.Event {
	list, err := cluster.Clientset.EventsV1().Events(site.Namespace).List(ctx, metav1.ListOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	var found []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.Kind == "StaticSite" && e.Regarding.Name == site.Name {
			found = append(found, e)
		}
	}
	return found
}

// event matches an event of the StaticSite controller.
func event(kind, reason, action string) OmegaMatcher {
	return And(HaveField("Type", kind), HaveField("Reason", reason), HaveField("Action", action),
		HaveField("ReportingController", operator.ControllerName), HaveField("Note", Not(BeEmpty())))
}

// related matches an event whose related object is kind/name.
func related(kind, name string) OmegaMatcher {
	return HaveField("Related", And(Not(BeNil()), HaveField("Kind", kind), HaveField("Name", name)))
}

// naming matches an event whose note names kind and name, for people reading kubectl events.
func naming(kind, name string) OmegaMatcher {
	return HaveField("Note", And(ContainSubstring(kind), ContainSubstring(name)))
}

var _ = Describe("Exercise 5: events", harness.Exercise(5), func() {
	It("records what it made and registered, regarding the site, related to the child", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(eventsFor).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(And(
			ContainElement(And(event("Normal", "Created", "Create"), related("Deployment", site.Name))),
			ContainElement(And(event("Normal", "Created", "Create"), related("ConfigMap", operator.PageName(site)))),
			ContainElement(And(event("Normal", "Created", "Create"), related("Service", site.Name))),
			ContainElement(And(event("Normal", "Registered", "Register"), related("ConfigMap", operator.DirectoryName))),
		), "each child created should be a Normal event regarding the site (so kubectl events --for staticsite/web lists it), reason Created, action Create, the child as the related object; and one Registered for the directory entry, the directory as the related object")
		Expect(eventsFor(Default, ctx, site)).To(And(
			ContainElement(And(related("Deployment", site.Name), naming("Deployment", site.Name))),
			ContainElement(And(related("ConfigMap", operator.PageName(site)), naming("ConfigMap", operator.PageName(site)))),
			ContainElement(And(related("ConfigMap", operator.DirectoryName), naming("ConfigMap", operator.DirectoryName))),
		), "each event's note should name the kind and name of the object it concerns, the related one (\"Created Deployment web\"; r.KindOf(related) gives the kind)")
	}, SpecTimeout(harness.Timeout))

	It("records a Warning when a reconcile fails", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := newSite(op.ns, "blocked", 1, v1alpha1.ExposureService)
		squat(ctx, site)
		create(ctx, site)
		Eventually(eventsFor).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(
			ContainElement(And(event("Warning", "ReconcileFailed", "Reconcile"), HaveField("Note", containsAnyOf(func() []string { return op.failures(site) })))),
			"a failed reconcile should be a Warning event regarding the site, reason ReconcileFailed, action Reconcile, the error (the one Reconcile returns) as its note")
	}, SpecTimeout(harness.Timeout))

	It("records the removal of its directory entry when the site is deleted", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 0, v1alpha1.ExposureNone))
		op.registered(ctx, site)
		Expect(k8s.Delete(ctx, site)).To(Succeed())
		Eventually(eventsFor).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(
			ContainElement(And(event("Normal", "Unregistered", "Unregister"), related("ConfigMap", operator.DirectoryName))),
			"removing the entry should be a Normal event regarding the site, reason Unregistered, the directory as the related object")
	}, SpecTimeout(harness.Timeout))
})
