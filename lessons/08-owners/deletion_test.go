package owners_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: cascading deletion", harness.Exercise(4), func() {
	DescribeTable("DeletionStateOf reads what the API server and the garbage collector wrote",
		func(deleting bool, finalizers []string, want owners.DeletionState, why string) {
			site := newSite("shop", "blog", 1)
			site.Finalizers = finalizers
			if deleting {
				site.DeletionTimestamp = &metav1.Time{}
			}
			Expect(owners.DeletionStateOf(site)).To(Equal(want), why)
		},
		Entry("no deletionTimestamp", false, nil, owners.Live,
			"a Website without a deletionTimestamp is not being deleted"),
		Entry("no deletionTimestamp, with the foregroundDeletion finalizer", false, []string{metav1.FinalizerDeleteDependents}, owners.Live,
			"a finalizer on a live object does nothing until the object is deleted: look at the deletionTimestamp first"),
		Entry("deleted in the foreground", true, []string{metav1.FinalizerDeleteDependents}, owners.WaitingForDependents,
			"a deletionTimestamp and the foregroundDeletion finalizer (metav1.FinalizerDeleteDependents): the garbage collector is deleting its dependents first"),
		Entry("deleted in the foreground, with another finalizer", true, []string{"example.com/cleanup", metav1.FinalizerDeleteDependents}, owners.WaitingForDependents,
			"look for foregroundDeletion anywhere in the finalizers, not only first"),
		Entry("deleted with the orphan policy", true, []string{metav1.FinalizerOrphanDependents}, owners.OrphaningDependents,
			"a deletionTimestamp and the orphan finalizer (metav1.FinalizerOrphanDependents): the garbage collector is removing its owner references from its dependents"),
		Entry("deleted, waiting for another finalizer", true, []string{"example.com/cleanup"}, owners.Terminating,
			"a deletionTimestamp and only finalizers that are not the garbage collector's: terminating"),
	)

	Describe("DeleteWebsite", func() {
		var (
			ns     string
			site   *owners.Website
			writes *harness.RequestLog
			c      client.Client
		)

		BeforeEach(func(ctx SpecContext) {
			ns = cluster.Namespace(ctx, prefix)
			site = newSite(ns, "blog", 1)
			create(ctx, site)
			writes = &harness.RequestLog{}
			c = directClient(writes.Watching(cluster.Config))
		})

		It("refuses an unknown cascade, and sends nothing", func(ctx SpecContext) {
			err := owners.DeleteWebsite(ctx, c, site, "everything")
			Expect(err).To(HaveOccurred(), "\"everything\" is not a cascade: return an error")
			Expect(err).NotTo(MatchError(ContainSubstring("not implemented")), "exercise 4 is still the stub")
			Expect(writes.Writes()).To(BeEmpty(), "with an unknown cascade, send nothing: guessing a policy deletes things nobody asked to delete")
			Expect(get(ctx, client.ObjectKeyFromObject(site), &owners.Website{})).To(BeTrue(), "the site should still be there")
		}, SpecTimeout(harness.Timeout))

		It("deletes only the very Website it was given, not a new one of the same name", func(ctx SpecContext) {
			Expect(k8s.Delete(ctx, site.DeepCopy())).To(Succeed())
			Eventually(gone(ctx, client.ObjectKeyFromObject(site), &owners.Website{})).WithContext(ctx).Should(BeTrue())
			successor := newSite(ns, "blog", 1)
			create(ctx, successor)

			err := owners.DeleteWebsite(ctx, c, site, owners.CascadeBackground)
			Expect(apierrors.IsConflict(err)).To(BeTrue(),
				"the Website named blog is a new one (another uid): the delete should be refused with a Conflict (pass client.Preconditions{UID: ...}); DeleteWebsite returned %v", err)
			var now owners.Website
			Expect(get(ctx, client.ObjectKeyFromObject(site), &now)).To(BeTrue(), "the new Website blog was deleted: a uid precondition makes the API server check it is the one you meant")
			Expect(now.UID).To(Equal(successor.UID))
		}, SpecTimeout(harness.Timeout))

		It("deletes the Website it was given even if it changed since it was read", func(ctx SpecContext) {
			read := site.DeepCopy() // what the caller read; then someone labels the site
			change(ctx, client.ObjectKeyFromObject(site), &owners.Website{}, func(w *owners.Website) {
				w.Labels = map[string]string{"team": "web"}
			})

			err := owners.DeleteWebsite(ctx, c, read, owners.CascadeBackground)
			Expect(err).NotTo(HaveOccurred(),
				"the site has a new resourceVersion (someone added a label) but it is the same Website, same uid: the delete should go through. A resourceVersion precondition refuses any change at all; the uid names the object")
			Eventually(gone(ctx, client.ObjectKeyFromObject(site), &owners.Website{})).WithContext(ctx).Should(BeTrue())
		}, SpecTimeout(harness.Timeout))

		It("background: removes the site at once, and its children after", func(ctx SpecContext) {
			page, deploy := makeChildren(ctx, site)
			waitForPods(ctx, site)
			release := hold(ctx, client.ObjectKeyFromObject(page), &corev1.ConfigMap{})

			Expect(owners.DeleteWebsite(ctx, c, site, owners.CascadeBackground)).To(Succeed(), "DeleteWebsite failed")
			var now owners.Website
			Expect(get(ctx, client.ObjectKeyFromObject(site), &now)).To(BeFalse(),
				"a background deletion removes the site at once, yet it is still there, %s, with finalizers %v (propagationPolicy Background)", owners.DeletionStateOf(&now), now.Finalizers)
			Eventually(func() *metav1.Time {
				var cm corev1.ConfigMap
				get(ctx, client.ObjectKeyFromObject(page), &cm)
				return cm.DeletionTimestamp
			}).WithContext(ctx).ShouldNot(BeNil(), "the garbage collector should delete the page after the site")
			expectDeploymentTreeGone(ctx, site, deploy)
			release(ctx)
			Eventually(gone(ctx, client.ObjectKeyFromObject(page), &corev1.ConfigMap{})).WithContext(ctx).Should(BeTrue())
		}, SpecTimeout(harness.Timeout))

		It("foreground: the site waits, with the foregroundDeletion finalizer, until its children are gone", func(ctx SpecContext) {
			page, deploy := makeChildren(ctx, site)
			waitForPods(ctx, site)
			// The page cannot go away while the spec holds it, so the site must wait for it.
			release := hold(ctx, client.ObjectKeyFromObject(page), &corev1.ConfigMap{})

			Expect(owners.DeleteWebsite(ctx, c, site, owners.CascadeForeground)).To(Succeed(), "DeleteWebsite failed")
			var now owners.Website
			Expect(get(ctx, client.ObjectKeyFromObject(site), &now)).To(BeTrue(), "a foreground deletion keeps the site until its children are gone, yet it is gone already (propagationPolicy Foreground)")
			Expect(now.DeletionTimestamp).NotTo(BeNil(), "the site should have a deletionTimestamp: it is being deleted")
			Expect(now.Finalizers).To(ContainElement(metav1.FinalizerDeleteDependents), "the API server marks a foreground deletion with the foregroundDeletion finalizer")
			Expect(owners.DeletionStateOf(&now)).To(Equal(owners.WaitingForDependents), "DeletionStateOf should say what the site is waiting for")

			expectDeploymentTreeGone(ctx, site, deploy)
			Expect(get(ctx, client.ObjectKeyFromObject(site), &now)).To(BeTrue(), "the site went before its page: the page's blockOwnerDeletion should make it wait")
			release(ctx)
			Eventually(gone(ctx, client.ObjectKeyFromObject(site), &owners.Website{})).WithContext(ctx).Should(BeTrue(),
				"the page is gone, so the garbage collector should remove the foregroundDeletion finalizer, and the site should go")
		}, SpecTimeout(harness.Timeout))

		It("orphan: the children stay, without their owner reference", func(ctx SpecContext) {
			page, deploy := makeChildren(ctx, site)
			waitForPods(ctx, site)

			Expect(owners.DeleteWebsite(ctx, c, site, owners.CascadeOrphan)).To(Succeed(), "DeleteWebsite failed")
			Eventually(gone(ctx, client.ObjectKeyFromObject(site), &owners.Website{})).WithContext(ctx).Should(BeTrue(),
				"the garbage collector should orphan the children, then remove the orphan finalizer, and the site should go")
			// The garbage collector removes the orphan finalizer only after it has removed the
			// site from every child's owner references: so by now they must all be free.
			for _, child := range []client.Object{page, deploy} {
				Expect(get(ctx, client.ObjectKeyFromObject(child), child)).To(BeTrue(), "%s was deleted: with the orphan policy the children stay (propagationPolicy Orphan)", child.GetName())
				Expect(child.GetDeletionTimestamp()).To(BeNil(), "%s is being deleted: with the orphan policy the children stay", child.GetName())
				Expect(child.GetOwnerReferences()).NotTo(ContainElement(HaveField("UID", site.UID)),
					"%s still names the deleted site as its owner: the orphan policy has the garbage collector remove it", child.GetName())
			}
			Expect(pods(ctx, site)).NotTo(BeEmpty(), "the Deployment's pods should be left running too")
		}, SpecTimeout(harness.Timeout))
	})
})

// pods lists the pods of a site's Deployment.
func pods(ctx context.Context, site *owners.Website) []corev1.Pod {
	GinkgoHelper()
	var list corev1.PodList
	Expect(k8s.List(ctx, &list, client.InNamespace(site.Namespace), client.MatchingLabels(owners.SelectorLabels(site)))).To(Succeed())
	return list.Items
}

// waitForPods waits until the site's Deployment has made a ReplicaSet and its pods: the
// whole tree the garbage collector walks when the site is deleted.
func waitForPods(ctx context.Context, site *owners.Website) {
	GinkgoHelper()
	Eventually(func() []corev1.Pod { return pods(ctx, site) }).WithContext(ctx).ShouldNot(BeEmpty(),
		"the Deployment made no pods: is kube-controller-manager running? (make cluster-status)")
}

// expectDeploymentTreeGone waits until the Deployment, its ReplicaSets and its pods are gone.
func expectDeploymentTreeGone(ctx context.Context, site *owners.Website, deploy *appsv1.Deployment) {
	GinkgoHelper()
	Eventually(gone(ctx, client.ObjectKeyFromObject(deploy), &appsv1.Deployment{})).WithContext(ctx).Should(BeTrue(),
		"the garbage collector should delete the site's Deployment")
	Eventually(func() []appsv1.ReplicaSet {
		var list appsv1.ReplicaSetList
		Expect(k8s.List(ctx, &list, client.InNamespace(site.Namespace), client.MatchingLabels(owners.SelectorLabels(site)))).To(Succeed())
		return list.Items
	}).WithContext(ctx).Should(BeEmpty(), "the garbage collector should delete the Deployment's ReplicaSets (their owner is gone)")
	Eventually(func() []corev1.Pod { return pods(ctx, site) }).WithContext(ctx).Should(BeEmpty(),
		"the garbage collector should delete the ReplicaSets' pods (their owner is gone)")
}
