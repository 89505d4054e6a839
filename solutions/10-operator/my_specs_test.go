package operator_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// Exercise 6: your own specs.
//
// Write the specs you would want before trusting this operator in a cluster: each one a promise
// to the operator's users, checked from the outside (what the API server says), not a copy of
// its code. `make check LESSON=10 EXERCISE=6` runs them against the reference operator (every
// spec must pass: a spec that fails there expects something wrong) and against broken operators
// shipped with the lesson, each of which gets one kind of behaviour wrong (every one must make
// at least one of your specs fail). It tells you which it did not catch, and what they get
// wrong, never how to check it.
//
// The suite's helpers are yours to use (operator_helpers_test.go, helpers_test.go and the spec
// files of exercises 1-5 show them at work): startOperator(ctx) runs the operator in a manager
// of its own with a namespace for its sites (op.ns) and a directory (op.directory,
// op.entries); newSite, create, change, get, gone; page, deployment and service (a site's
// children's keys); status(g, ctx, site) and eventsFor(g, ctx, site); waitReady; k8s, the specs'
// own client; settle, how long to wait for the operator. Keep every spec in the Describe below
// (its exercise-6 label is how the check finds them), with SpecTimeout(harness.Timeout) and
// Eventually(...).WithContext(ctx).

// The reference answer: one spec per behaviour a user of the operator relies on, each written
// from the outside (the API server's view).

var _ = Describe("Exercise 6: your own specs", harness.Exercise(6), func() {
	It("scales a site's web servers when the site's replicas change", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(func(g Gomega) *int32 { return get(g, ctx, deployment(site)).Spec.Replicas }).WithContext(ctx).WithTimeout(settle).
			Should(HaveValue(Equal(int32(1))))
		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Replicas = 3 })
		Eventually(func(g Gomega) *int32 { return get(g, ctx, deployment(site)).Spec.Replicas }).WithContext(ctx).WithTimeout(settle).
			Should(HaveValue(Equal(int32(3))), "the Deployment should follow the site's replicas")
	}, SpecTimeout(harness.Timeout))

	It("removes a deleted site from the directory", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(func(g Gomega) map[string]string { return op.entries(g, ctx) }).WithContext(ctx).WithTimeout(settle).
			Should(HaveKey(operator.DirectoryKey(site)))
		Expect(k8s.Delete(ctx, site)).To(Succeed())
		Eventually(gone(ctx, site)).WithContext(ctx).WithTimeout(settle).Should(BeTrue())
		Expect(op.entries(Default, ctx)).NotTo(HaveKey(operator.DirectoryKey(site)), "a deleted site's entry should be gone")
	}, SpecTimeout(harness.Timeout))

	It("says which generation its status describes", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Page = "<h1>v2</h1>" })
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(HaveField("ObservedGeneration", int64(2)))
	}, SpecTimeout(harness.Timeout))

	It("tells people what it created", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(eventsFor).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).
			Should(ContainElement(HaveField("Reason", "Created")), "creating the Deployment should be an event on the site")
	}, SpecTimeout(harness.Timeout))
})
