package gvkgvr_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"

	gvkgvr "workshop.local/lessons/01-gvk-gvr"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: a RESTMapper from discovery", harness.Exercise(3), func() {
	var (
		mapper   meta.ResettableRESTMapperWithContext
		requests *harness.RequestLog // what your mapper sent to the API server
	)

	BeforeEach(func() {
		requests = &harness.RequestLog{}
		var err error
		mapper, err = gvkgvr.NewMapper(requests.Watching(cluster.Config))
		Expect(err).NotTo(HaveOccurred())
		Expect(mapper).NotTo(BeNil())
	})

	DescribeTable("maps a built-in kind to its resource and scope",
		func(ctx SpecContext, gvk schema.GroupVersionKind, want schema.GroupVersionResource, wantScope meta.RESTScopeName) {
			gvr, scope, err := gvkgvr.MapKind(ctx, mapper, gvk)
			Expect(err).NotTo(HaveOccurred())
			Expect(gvr).To(Equal(want), "the resource serving %s", gvk)
			Expect(scope).To(Equal(wantScope), "the scope of %s", gvk)
		},
		Entry("Deployment", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, deployments, meta.RESTScopeNameNamespace),
		Entry("ConfigMap", schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, configMaps, meta.RESTScopeNameNamespace),
		Entry("Namespace, itself cluster-scoped", schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, namespaces, meta.RESTScopeNameRoot),
		Entry("ClusterRole", schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, clusterRoles, meta.RESTScopeNameRoot),
		// autoscaling serves HorizontalPodAutoscaler at v2 (its preferred version) and at v1: the
		// version asked for is the version mapped, not the group's favourite.
		Entry("HorizontalPodAutoscaler at v1, not the group's preferred v2",
			schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"},
			schema.GroupVersionResource{Group: "autoscaling", Version: "v1", Resource: "horizontalpodautoscalers"}, meta.RESTScopeNameNamespace),
	)

	It("says a kind nobody serves is not known, with a no-match error", func(ctx SpecContext) {
		_, _, err := gvkgvr.MapKind(ctx, mapper, schema.GroupVersionKind{Group: "nowhere.workshop.local", Version: "v1", Kind: "Nothing"})
		Expect(meta.IsNoMatchError(err)).To(BeTrue(), "want an error for which meta.IsNoMatchError is true, got %v", err)
	}, SpecTimeout(harness.Timeout))

	It("answers kinds its cached discovery holds, without asking the server again", func(ctx SpecContext) {
		_, _, err := gvkgvr.MapKind(ctx, mapper, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
		Expect(err).NotTo(HaveOccurred())
		Expect(requests.Sent()).NotTo(BeEmpty(), "the first lookup should read discovery from the server")
		requests.Reset()
		for _, gvk := range []schema.GroupVersionKind{{Version: "v1", Kind: "ConfigMap"}, {Group: "apps", Version: "v1", Kind: "StatefulSet"}} {
			_, _, err := gvkgvr.MapKind(ctx, mapper, gvk)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(requests.Sent()).To(BeEmpty(), "known kinds should come from the mapper's cache")
	}, SpecTimeout(harness.Timeout))

	It("finds a kind whose CRD was installed after the mapper cached discovery", func(ctx SpecContext) {
		_, _, err := gvkgvr.MapKind(ctx, mapper, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
		Expect(err).NotTo(HaveOccurred(), "warming the mapper's cache")

		// A group of this spec's own, so no other spec (or earlier run) can have installed it.
		group := "m" + utilrand.String(8) + "." + lessonGroup
		crd := widgetCRD(group)
		cluster.EnsureCRD(ctx, crd)
		DeferCleanup(func(ctx SpecContext) {
			crds := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions()
			Expect(crds.Delete(ctx, crd.Name, metav1.DeleteOptions{})).To(Succeed())
		})

		gvr, scope, err := gvkgvr.MapKind(ctx, mapper, schema.GroupVersionKind{Group: group, Version: "v1", Kind: "Widget"})
		Expect(err).NotTo(HaveOccurred(), "the CRD is installed, but the mapper still answers from its old cache")
		Expect(gvr).To(Equal(schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}))
		Expect(scope).To(Equal(meta.RESTScopeNameNamespace))
	}, SpecTimeout(harness.Timeout))
})
