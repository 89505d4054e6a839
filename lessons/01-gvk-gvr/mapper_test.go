package gvkgvr_test

import (
	"net/http"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/rest"

	gvkgvr "workshop.local/lessons/01-gvk-gvr"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: a RESTMapper from discovery", harness.Exercise(3), func() {
	var (
		mapper   meta.ResettableRESTMapperWithContext
		requests atomic.Int64 // requests your mapper sent to the API server
	)

	BeforeEach(func() {
		cfg := rest.CopyConfig(cluster.Config)
		requests.Store(0)
		cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
			return roundTripFunc(func(r *http.Request) (*http.Response, error) {
				requests.Add(1)
				return rt.RoundTrip(r)
			})
		})
		var err error
		mapper, err = gvkgvr.NewMapper(cfg)
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
	)

	It("says a kind nobody serves is not known, with a no-match error", func(ctx SpecContext) {
		_, _, err := gvkgvr.MapKind(ctx, mapper, schema.GroupVersionKind{Group: "nowhere.workshop.local", Version: "v1", Kind: "Nothing"})
		Expect(meta.IsNoMatchError(err)).To(BeTrue(), "want an error for which meta.IsNoMatchError is true, got %v", err)
	}, SpecTimeout(harness.Timeout))

	It("answers kinds it has seen from its cache, without asking the server again", func(ctx SpecContext) {
		_, _, err := gvkgvr.MapKind(ctx, mapper, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
		Expect(err).NotTo(HaveOccurred())
		Expect(requests.Load()).To(BeNumerically(">", 0), "the first lookup should read discovery from the server")
		requests.Store(0)
		for _, gvk := range []schema.GroupVersionKind{{Version: "v1", Kind: "ConfigMap"}, {Group: "apps", Version: "v1", Kind: "StatefulSet"}} {
			_, _, err := gvkgvr.MapKind(ctx, mapper, gvk)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(requests.Load()).To(BeZero(), "known kinds should come from the mapper's cache")
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

// roundTripFunc lets a function stand in for an http.RoundTripper, to count requests.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
