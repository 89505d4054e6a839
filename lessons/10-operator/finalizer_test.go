package operator_test

import (
	"context"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// entries reads the directory's entries from the API server.
func (op *running) entries(g Gomega, ctx SpecContext) map[string]string {
	var directory corev1.ConfigMap
	g.Expect(k8s.Get(ctx, op.directory, &directory)).To(Succeed(), "the directory ConfigMap %s should exist once a site is registered", op.directory)
	return directory.Data
}

// registered waits until site carries the finalizer and has its entry.
func (op *running) registered(ctx SpecContext, site *v1alpha1.StaticSite) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(get(g, ctx, &v1alpha1.StaticSite{ObjectMeta: site.ObjectMeta}).Finalizers).To(ContainElement(operator.Finalizer),
			"a registered site should carry the finalizer %s (controllerutil.AddFinalizer, then Update)", operator.Finalizer)
		g.Expect(op.entries(g, ctx)).To(HaveKeyWithValue(operator.DirectoryKey(site), operator.SiteURL(site)),
			"the directory should have the entry %s: %s", operator.DirectoryKey(site), operator.SiteURL(site))
	}).WithContext(ctx).WithTimeout(settle).Should(Succeed())
}

// hasEntry says whether the directory, read from the API server, has site's entry (false when
// there is no directory).
func (op *running) hasEntry(ctx SpecContext, site *v1alpha1.StaticSite) bool {
	GinkgoHelper()
	var directory corev1.ConfigMap
	err := k8s.Get(ctx, op.directory, &directory)
	if apierrors.IsNotFound(err) {
		return false
	}
	Expect(err).NotTo(HaveOccurred())
	_, ok := directory.Data[operator.DirectoryKey(site)]
	return ok
}

// unregistered lists the sites a reconcile left carrying the finalizer but without an entry:
// after each reconcile that ended without error and asked for no retry, it reads the site and
// the directory from the API server. The controller never reconciles one site twice at once,
// so what it reads is what that reconcile left.
type unregistered struct {
	inner     reconcile.Reconciler
	directory types.NamespacedName
	mu        sync.Mutex
	sites     []string
}

func (u *unregistered) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	result, err := u.inner.Reconcile(ctx, req)
	if err == nil && result.IsZero() && u.finalizerWithoutEntry(ctx, req.NamespacedName) {
		u.mu.Lock()
		u.sites = append(u.sites, req.Name)
		u.mu.Unlock()
	}
	return result, err
}

// finalizerWithoutEntry says whether the site (not being deleted) carries the finalizer while
// the directory has no entry for it.
func (u *unregistered) finalizerWithoutEntry(ctx context.Context, key types.NamespacedName) bool {
	var site v1alpha1.StaticSite
	if k8s.Get(ctx, key, &site) != nil || !site.DeletionTimestamp.IsZero() || !controllerutil.ContainsFinalizer(&site, operator.Finalizer) {
		return false
	}
	var directory corev1.ConfigMap
	if err := k8s.Get(ctx, u.directory, &directory); err != nil {
		return apierrors.IsNotFound(err)
	}
	_, ok := directory.Data[operator.DirectoryKey(&site)]
	return !ok
}

// list is the sites found so far.
func (u *unregistered) list() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.sites)
}

var _ = Describe("Exercise 4: a finalizer for the directory entry", harness.Exercise(4), func() {
	It("registers each site in the shared directory, making the directory if needed, and records it once", func(ctx SpecContext) {
		op := startOperator(ctx)
		alpha := create(ctx, newSite(op.ns, "alpha", 1, v1alpha1.ExposureService))
		beta := create(ctx, newSite(op.ns, "beta", 0, v1alpha1.ExposureNone))
		op.registered(ctx, alpha)
		op.registered(ctx, beta)
		Expect(op.unregistered.list()).To(BeEmpty(),
			"a reconcile of these sites ended without error, the site carrying the finalizer, while the directory had no entry for it (there was none yet, or it was made empty): registering a site should leave its entry in the directory by the end of that reconcile, a directory made for the first site included")

		for i := range 2 {
			op.nudge(ctx, alpha, string(rune('a'+i)))
		}
		Expect(len(op.events.since(0, alpha, string(operator.Registered)))).To(BeNumerically("<=", 1),
			"alpha was registered once, yet Registered was recorded again on later reconciles: record it only when this reconcile added the finalizer (AddFinalizer returns whether it did)")
	}, SpecTimeout(harness.Timeout))

	It("writes no entry until the site carries the finalizer", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := newSite(op.ns, "alpha", 1, v1alpha1.ExposureService)
		op.faults.failWrites(sitePath(site)) // the site cannot be given its finalizer
		create(ctx, site)
		Eventually(op.failures).WithArguments(site).WithContext(ctx).WithTimeout(settle).ShouldNot(BeEmpty(),
			"while the site cannot be updated, giving it the finalizer fails, and so should the reconcile (return the error)")
		Expect(op.hasEntry(ctx, site)).To(BeFalse(),
			"the site's entry was written though the site could not be given its finalizer: a deletion now would leave the entry behind for good; add the finalizer first, and write the entry only once the site carries it")

		op.faults.clear()
		op.registered(ctx, site)
	}, SpecTimeout(harness.Timeout))

	It("removes a deleted site's entry, and only its own, before the site goes", func(ctx SpecContext) {
		op := startOperator(ctx)
		alpha := create(ctx, newSite(op.ns, "alpha", 1, v1alpha1.ExposureService))
		beta := create(ctx, newSite(op.ns, "beta", 1, v1alpha1.ExposureService))
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

	It("keeps a deleted site, finalizer and all, while its entry cannot be removed", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "alpha", 1, v1alpha1.ExposureService))
		op.registered(ctx, site)
		waitReady(ctx, site)

		op.faults.failWrites(op.directoryPath()) // the entry cannot be removed
		failed := len(op.failures(site))
		Expect(k8s.Delete(ctx, site)).To(Succeed())
		Eventually(func() bool { return len(op.failures(site)) > failed || gone(ctx, site)() }).WithContext(ctx).WithTimeout(settle).
			Should(BeTrue(), "the deleted site was neither finalized nor did its clean-up fail")
		Consistently(gone(ctx, site)).WithContext(ctx).Should(BeFalse(),
			"the site went away while its entry could not be removed from the directory, which now keeps it for good: remove the finalizer only after the clean-up succeeded, and return any error but NotFound so that it is retried")
		Expect(op.hasEntry(ctx, site)).To(BeTrue(), "the entry should still be there: writes to the directory were failing")

		op.faults.clear()
		Eventually(gone(ctx, site)).WithContext(ctx).WithTimeout(settle).Should(BeTrue(),
			"once the directory could be written again, the clean-up should succeed on a retry and the site go away")
		Expect(op.hasEntry(ctx, site)).To(BeFalse(), "the site went away, but its entry is still in the directory")
	}, SpecTimeout(harness.Timeout))

	It("lets a site go when the directory itself is gone", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "alpha", 1, v1alpha1.ExposureService))
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
