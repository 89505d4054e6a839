package operator_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/internal/harness"
)

// entries reads the directory's entries from the API server.
func (op *running) entries(g Gomega, ctx SpecContext) map[string]string {
	var directory corev1.ConfigMap
	g.Expect(k8s.Get(ctx, op.directory, &directory)).To(Succeed(), "the directory ConfigMap %s should exist once a site is registered", op.directory)
	return directory.Data
}

// registered waits until site carries the finalizer and has its entry.
func (op *running) registered(ctx SpecContext, site *operator.StaticSite) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(get(g, ctx, &operator.StaticSite{ObjectMeta: site.ObjectMeta}).Finalizers).To(ContainElement(operator.Finalizer),
			"a registered site should carry the finalizer %s (controllerutil.AddFinalizer, then Update)", operator.Finalizer)
		g.Expect(op.entries(g, ctx)).To(HaveKeyWithValue(operator.DirectoryKey(site), operator.SiteURL(site)),
			"the directory should have the entry %s: %s", operator.DirectoryKey(site), operator.SiteURL(site))
	}).WithContext(ctx).WithTimeout(settle).Should(Succeed())
}

var _ = Describe("Exercise 4: a finalizer for the directory entry", harness.Exercise(4), func() {
	It("registers each site in the shared directory, making the directory if needed", func(ctx SpecContext) {
		op := startOperator(ctx)
		alpha := create(ctx, newSite(op.ns, "alpha", 1, operator.ExposureService))
		beta := create(ctx, newSite(op.ns, "beta", 0, operator.ExposureNone))
		op.registered(ctx, alpha)
		op.registered(ctx, beta)
	}, SpecTimeout(harness.Timeout))

	It("removes a deleted site's entry, and only its own, before the site goes", func(ctx SpecContext) {
		op := startOperator(ctx)
		alpha := create(ctx, newSite(op.ns, "alpha", 1, operator.ExposureService))
		beta := create(ctx, newSite(op.ns, "beta", 1, operator.ExposureService))
		op.registered(ctx, alpha)
		op.registered(ctx, beta)

		// The directory's UID tells whether it was only changed or deleted and made anew: beta's
		// next reconcile (its Deployment becoming ready, say) would bring its entry back into a
		// new directory, hiding that finalizing alpha threw everyone's entries away.
		var directory corev1.ConfigMap
		Expect(k8s.Get(ctx, op.directory, &directory)).To(Succeed())

		Expect(k8s.Delete(ctx, alpha)).To(Succeed())
		Eventually(func(g Gomega) map[string]string { return op.entries(g, ctx) }).WithContext(ctx).WithTimeout(settle).
			ShouldNot(HaveKey(operator.DirectoryKey(alpha)), "a deleted site's entry should be removed from the directory (finalize)")
		var after corev1.ConfigMap
		Expect(k8s.Get(ctx, op.directory, &after)).To(Succeed())
		Expect(after.UID).To(Equal(directory.UID), "the directory was deleted and made anew while alpha was finalized: remove alpha's own entry (patch one key away), never the shared directory")
		Expect(after.Data).To(HaveKey(operator.DirectoryKey(beta)), "removing alpha's entry removed beta's too: patch one key away, not the directory")
		Eventually(gone(ctx, alpha)).WithContext(ctx).WithTimeout(settle).Should(BeTrue(),
			"after its clean-up the site should go away: remove the finalizer (controllerutil.RemoveFinalizer, then Update)")
	}, SpecTimeout(harness.Timeout))

	It("lets a site go when the directory itself is gone", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "alpha", 1, operator.ExposureService))
		op.registered(ctx, site)
		// With the operator stopped, the directory and then the site are deleted: restarted, its
		// first reconcile of the site is the clean-up, with no directory. (Running, it could
		// remake the directory in between, reconciling the site for its Deployment's progress.)
		Expect(op.stop()).To(Succeed())
		Expect(k8s.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: op.directory.Namespace, Name: op.directory.Name}})).To(Succeed())
		Expect(k8s.Delete(ctx, site)).To(Succeed())
		op.start(ctx)

		Eventually(gone(ctx, site)).WithContext(ctx).WithTimeout(settle).Should(BeTrue(),
			"the directory was deleted, so there is no entry to remove: a NotFound is not a failure, remove the finalizer")
	}, SpecTimeout(harness.Timeout))
})
