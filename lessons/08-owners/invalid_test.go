package owners_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

// The event the garbage collector records on a dependent whose namespaced owner lives
// elsewhere (pkg/controller/garbagecollector/graph_builder.go in Kubernetes).
const invalidNamespaceReason = "OwnerRefInvalidNamespace"

var _ = Describe("Exercise 5: invalid owner references", harness.Exercise(5), func() {
	meta := func(namespace, name string) metav1.Object {
		return &metav1.ObjectMeta{Namespace: namespace, Name: name}
	}

	DescribeTable("CheckOwner",
		func(owner, dependent metav1.Object, want types.GomegaMatcher, why string) {
			Expect(owners.CheckOwner(owner, dependent)).To(want, why)
		},
		Entry("a namespaced owner in the dependent's namespace", meta("shop", "blog"), meta("shop", "blog-page"), Succeed(),
			"a Website may own a ConfigMap of its own namespace"),
		Entry("a namespaced owner in another namespace", meta("shop", "blog"), meta("other", "blog-page"), MatchError(owners.ErrCrossNamespace),
			"the garbage collector looks for a namespaced owner in the dependent's namespace: wrap ErrCrossNamespace"),
		Entry("a namespaced owner of a cluster-scoped dependent", meta("shop", "blog"), meta("", "blog-ns"), MatchError(owners.ErrClusterScopedDependent),
			"a cluster-scoped dependent has no namespace to find a namespaced owner in: wrap ErrClusterScopedDependent (this is not a namespace mismatch)"),
		Entry("a cluster-scoped owner of a namespaced dependent", meta("", "shop"), meta("shop", "blog-page"), Succeed(),
			"a cluster-scoped owner (a Namespace, say) is found from anywhere: it may own namespaced objects"),
		Entry("a cluster-scoped owner of a cluster-scoped dependent", meta("", "shop"), meta("", "shop-role"), Succeed(),
			"a cluster-scoped owner may own cluster-scoped objects too"),
	)

	It("names both objects in its error", func() {
		err := owners.CheckOwner(meta("shop", "blog"), meta("other", "blog-page"))
		Expect(err).To(MatchError(owners.ErrCrossNamespace), "a namespaced owner in another namespace: wrap ErrCrossNamespace")
		Expect(err.Error()).To(And(ContainSubstring("shop/blog"), ContainSubstring("other/blog-page")),
			"say which owner and which dependent: the error ends up in a log, far from the code")
	})

	Describe("the garbage collector and an invalid reference", func() {
		var (
			ns   string
			site *owners.Website
		)
		BeforeEach(func(ctx SpecContext) {
			ns = cluster.Namespace(ctx, prefix)
			site = newSite(ns, "blog", 1)
			create(ctx, site)
		})

		It("deletes a dependent in another namespace, though its owner exists, and records OwnerRefInvalidNamespace", func(ctx SpecContext) {
			elsewhere := cluster.Namespace(ctx, prefix)
			page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: elsewhere, Name: owners.PageName(site)}}
			Expect(owners.CheckOwner(site, page)).To(MatchError(owners.ErrCrossNamespace), "CheckOwner should refuse a Website as the owner of a ConfigMap in another namespace")

			// What CheckOwner prevents: the reference written anyway (by hand, past the check in
			// SetControllerReference).
			page.OwnerReferences = []metav1.OwnerReference{invalidReference(site)}
			create(ctx, page)
			Eventually(eventsFor(ctx, elsewhere, page.Name)).WithContext(ctx).Should(ContainElement(invalidNamespaceReason),
				"the garbage collector should record an %s event on the ConfigMap", invalidNamespaceReason)
			Eventually(gone(ctx, client.ObjectKeyFromObject(page), &corev1.ConfigMap{})).WithContext(ctx).Should(BeTrue(),
				"the garbage collector looked for the owner in %s, did not find it, and should delete the ConfigMap", elsewhere)
			Expect(get(ctx, client.ObjectKeyFromObject(site), &owners.Website{})).To(BeTrue(), "the owner itself is untouched")
		}, SpecTimeout(harness.Timeout))

		It("never collects a cluster-scoped dependent of a namespaced owner, and records OwnerRefInvalidNamespace", func(ctx SpecContext) {
			dependent := clusterScopedDependent(ctx)
			Expect(owners.CheckOwner(site, dependent)).To(MatchError(owners.ErrClusterScopedDependent), "CheckOwner should refuse a Website as the owner of a Namespace (cluster-scoped)")

			dependent.OwnerReferences = []metav1.OwnerReference{invalidReference(site)}
			create(ctx, dependent)
			// An event about a cluster-scoped object goes to the default namespace.
			Eventually(eventsFor(ctx, metav1.NamespaceDefault, dependent.Name)).WithContext(ctx).Should(ContainElement(invalidNamespaceReason),
				"the garbage collector should record an %s event on the Namespace", invalidNamespaceReason)

			// A valid child shows when the garbage collector has handled the site's deletion.
			page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: owners.PageName(site)}}
			Expect(controllerutil.SetControllerReference(site, page, newScheme())).To(Succeed())
			create(ctx, page)
			Expect(k8s.Delete(ctx, site)).To(Succeed())
			Eventually(gone(ctx, client.ObjectKeyFromObject(page), &corev1.ConfigMap{})).WithContext(ctx).Should(BeTrue(), "the site's valid child should be collected")
			Consistently(func() *metav1.Time {
				var now corev1.Namespace
				Expect(get(ctx, client.ObjectKeyFromObject(dependent), &now)).To(BeTrue(), "the garbage collector deleted the cluster-scoped dependent")
				return now.DeletionTimestamp
			}).WithContext(ctx).Should(BeNil(), "the garbage collector cannot resolve the reference, so it never deletes the Namespace")
		}, SpecTimeout(harness.Timeout))
	})
})

// invalidReference is a controller reference to site written by hand, without any check.
func invalidReference(site *owners.Website) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{
		APIVersion: owners.GroupVersion.String(), Kind: "Website", Name: site.Name, UID: site.UID,
		Controller: &yes, BlockOwnerDeletion: &yes,
	}
}

// clusterScopedDependent returns a Namespace (cluster-scoped) to be created by the spec, and
// deletes it, and the garbage collector's events about it, when the spec ends. It carries the
// harness's label for spec namespaces, so a run stopped before its cleanup does not leave it
// behind for good.
func clusterScopedDependent(ctx context.Context) *corev1.Namespace {
	dependent := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name:   prefix + "-dependent-" + rand.String(6),
		Labels: map[string]string{"workshop.local/spec": "true"},
	}}
	DeferCleanup(func(ctx SpecContext) {
		err := k8s.Delete(ctx, dependent.DeepCopy())
		if !apierrors.IsNotFound(err) {
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(k8s.DeleteAllOf(ctx, &corev1.Event{}, client.InNamespace(metav1.NamespaceDefault),
			client.MatchingFields{"involvedObject.name": dependent.Name})).To(Succeed())
	})
	return dependent
}

// eventsFor returns a function for Eventually that lists the reasons of the events about the
// object of that name in namespace.
func eventsFor(ctx context.Context, namespace, name string) func() []string {
	return func() []string {
		var list corev1.EventList
		Expect(k8s.List(ctx, &list, client.InNamespace(namespace), client.MatchingFields{"involvedObject.name": name})).To(Succeed())
		var reasons []string
		for _, e := range list.Items {
			reasons = append(reasons, e.Reason)
		}
		return reasons
	}
}
