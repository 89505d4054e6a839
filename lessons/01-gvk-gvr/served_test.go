package gvkgvr_test

import (
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"

	gvkgvr "workshop.local/lessons/01-gvk-gvr"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: every resource serving a kind", harness.Exercise(4), func() {
	scale := schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

	It("finds the scale subresources, built-in and custom, that serve autoscaling/v1 Scale", func(ctx SpecContext) {
		cluster.EnsureCRD(ctx, widgetCRD(lessonGroup))
		apps := func(r string) schema.GroupVersionResource {
			return schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: r}
		}
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), scale)
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ContainElements(
			apps("deployments/scale"), apps("replicasets/scale"), apps("statefulsets/scale"),
			schema.GroupVersionResource{Version: "v1", Resource: "replicationcontrollers/scale"},
			schema.GroupVersionResource{Group: lessonGroup, Version: "v1", Resource: "widgets/scale"},
		))
		Expect(served).To(HaveEach(HaveField("Resource", HaveSuffix("/scale"))), "only scale subresources serve Scale")
	}, SpecTimeout(harness.Timeout))

	It("finds a kind's main resource and the subresources that return the same kind", func(ctx SpecContext) {
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ContainElements(
			schema.GroupVersionResource{Version: "v1", Resource: "pods"},
			schema.GroupVersionResource{Version: "v1", Resource: "pods/status"},
		))
		Expect(served).NotTo(ContainElement(HaveField("Resource", "pods/eviction")), "pods/eviction serves policy/v1 Eviction, not Pod")
	}, SpecTimeout(harness.Timeout))

	It("tells apart two kinds of the same name in different groups", func(ctx SpecContext) {
		// core v1 Event and events.k8s.io/v1 Event are two kinds, served by two resources.
		coreEvents := schema.GroupVersionResource{Version: "v1", Resource: "events"}
		newEvents := schema.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Version: "v1", Kind: "Event"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ConsistOf(coreEvents), "core v1 Event is served by v1 events only; events.k8s.io/v1 Event is another kind")
		served, err = gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Group: "events.k8s.io", Version: "v1", Kind: "Event"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ConsistOf(newEvents), "events.k8s.io/v1 Event is served by events.k8s.io/v1 events only")
	}, SpecTimeout(harness.Timeout))

	It("still finds what the other groups serve when one group version fails to answer", func(ctx SpecContext) {
		// One group version answers 503, like an aggregated API whose server is down. Classic
		// discovery (one request per group version) lets it fail on its own.
		broken := "/apis/events.k8s.io/v1"
		cfg := rest.CopyConfig(cluster.Config)
		cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
			return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
				if r.URL.Path == broken {
					return serviceUnavailable(r), nil
				}
				return rt.RoundTrip(r)
			})
		})
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		dc.UseLegacyDiscovery = true

		served, err := gvkgvr.ServedBy(ctx, dc, scale)
		Expect(err).NotTo(HaveOccurred(), "%s failed, but every other group answered: keep what they sent (the error says discovery.IsGroupDiscoveryFailedError)", broken)
		Expect(served).To(ContainElement(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments/scale"}),
			"the groups that answered should still be searched")
	}, SpecTimeout(harness.Timeout))

	It("finds nothing, and no error, for a kind no resource serves", func(ctx SpecContext) {
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Group: "nowhere.workshop.local", Version: "v1", Kind: "Nothing"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(BeEmpty())
	}, SpecTimeout(harness.Timeout))
})

// serviceUnavailable is the answer of an API server that cannot reach the backend of a group.
func serviceUnavailable(r *http.Request) *http.Response {
	status := `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"ServiceUnavailable","code":503,"message":"the backend of this API is down (the spec says so)"}`
	return &http.Response{
		StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(strings.NewReader(status)),
		Request: r,
	}
}
