package clients_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"

	clients "workshop.local/lessons/02-clients"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: the discovery client", harness.Exercise(4), func() {
	Describe("APIResources", func() {
		It("lists what kubectl api-resources prints: each resource once, at its preferred version", func(ctx SpecContext) {
			cluster.EnsureCRD(ctx, widgetCRD())
			resources, err := clients.APIResources(ctx, cluster.Clientset.Discovery())
			Expect(err).NotTo(HaveOccurred())
			Expect(resources).To(ContainElements(
				clients.APIResource{Name: "namespaces", ShortNames: []string{"ns"}, APIVersion: "v1", Namespaced: false, Kind: "Namespace"},
				clients.APIResource{Name: "deployments", ShortNames: []string{"deploy"}, APIVersion: "apps/v1", Namespaced: true, Kind: "Deployment"},
				clients.APIResource{Name: "horizontalpodautoscalers", ShortNames: []string{"hpa"}, APIVersion: "autoscaling/v2", Namespaced: true, Kind: "HorizontalPodAutoscaler"},
				clients.APIResource{Name: "widgets", ShortNames: []string{"wd"}, APIVersion: lessonGroup + "/v1", Namespaced: true, Kind: "Widget"},
			), "compare with `kubectl api-resources`")
			Expect(resources).To(HaveEach(HaveField("Name", Not(ContainSubstring("/")))), "subresources such as pods/log are not lines of their own")
			for _, gr := range []schema.GroupResource{{Group: "autoscaling", Resource: "horizontalpodautoscalers"}, widgets.GroupResource()} {
				Expect(linesOf(resources, gr)).To(HaveLen(1), "%s are served at two versions: list the preferred one only", gr)
			}
		}, SpecTimeout(harness.Timeout))
	})

	It("goes on when one group version fails, as kubectl does, and lists the others", func(ctx SpecContext) {
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

		resources, err := clients.APIResources(ctx, dc)
		Expect(err).NotTo(HaveOccurred(), "one broken group version must not hide the others: tolerate an error for which discovery.IsGroupDiscoveryFailedError is true")
		Expect(resources).To(ContainElement(clients.APIResource{Name: "deployments", ShortNames: []string{"deploy"}, APIVersion: "apps/v1", Namespaced: true, Kind: "Deployment"}),
			"the groups that answered should still be listed")
		Expect(linesOf(resources, schema.GroupResource{Group: "events.k8s.io", Resource: "events"})).To(BeEmpty(), "%s failed, so nothing of it can be listed", broken)
	}, SpecTimeout(harness.Timeout))

	Describe("PreferredVersion", func() {
		DescribeTable("names the version the server prefers for a group",
			func(ctx SpecContext, group, want string) {
				cluster.EnsureCRD(ctx, widgetCRD())
				version, err := clients.PreferredVersion(ctx, cluster.Clientset.Discovery(), group)
				Expect(err).NotTo(HaveOccurred())
				Expect(version).To(Equal(want), "the preferred version of group %q (compare with `kubectl get --raw /apis`)", group)
			},
			Entry("the core group, whose name is empty", "", "v1", SpecTimeout(harness.Timeout)),
			Entry("apps", "apps", "v1", SpecTimeout(harness.Timeout)),
			Entry("autoscaling, served at v1 and v2", "autoscaling", "v2", SpecTimeout(harness.Timeout)),
			Entry("the lesson's CRD group, served at v1 and v1beta1", lessonGroup, "v1", SpecTimeout(harness.Timeout)),
		)

		It("wraps ErrGroupNotServed for a group the server does not serve", func(ctx SpecContext) {
			_, err := clients.PreferredVersion(ctx, cluster.Clientset.Discovery(), "nowhere.workshop.local")
			Expect(errors.Is(err, clients.ErrGroupNotServed)).To(BeTrue(), "want an error wrapping ErrGroupNotServed (fmt.Errorf with %%w); got %v", err)
		}, SpecTimeout(harness.Timeout))
	})

	Describe("NewCachedDiscovery", func() {
		var (
			requests *harness.RequestLog
			cacheDir string
		)

		BeforeEach(func() {
			requests = &harness.RequestLog{}
			cacheDir = GinkgoT().TempDir()
		})

		It("answers a second lookup from its cache, without a request", func(ctx SpecContext) {
			cached := newCachedDiscovery(requests.Watching(cluster.Config), cacheDir)
			lookUpResources(ctx, cached)
			Expect(requests.Sent()).NotTo(BeEmpty(), "the first lookup should ask the server: build the client from the config you are given")
			requests.Reset()
			lookUpResources(ctx, cached)
			Expect(requests.Sent()).To(BeEmpty(), "the second lookup should come from the cache")
		}, SpecTimeout(harness.Timeout))

		It("shares its cache with the next client on the same directory, as kubectl's next run does", func(ctx SpecContext) {
			cfg := requests.Watching(cluster.Config)
			lookUpResources(ctx, newCachedDiscovery(cfg, cacheDir))
			requests.Reset()
			lookUpResources(ctx, newCachedDiscovery(cfg, cacheDir))
			Expect(requests.Sent()).To(BeEmpty(), "a memory cache dies with its client: keep the cache on disk under cacheDir (package discovery/cached/disk)")
		}, SpecTimeout(harness.Timeout))
	})
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

// linesOf returns the lines that list the resource gr, whatever their version.
func linesOf(resources []clients.APIResource, gr schema.GroupResource) []clients.APIResource {
	var lines []clients.APIResource
	for _, r := range resources {
		gv, err := schema.ParseGroupVersion(r.APIVersion)
		if err == nil && gv.Group == gr.Group && r.Name == gr.Resource {
			lines = append(lines, r)
		}
	}
	return lines
}

func newCachedDiscovery(cfg *rest.Config, cacheDir string) discovery.CachedDiscoveryInterfaceWithContext {
	GinkgoHelper()
	cached, err := clients.NewCachedDiscovery(cfg, cacheDir)
	Expect(err).NotTo(HaveOccurred())
	Expect(cached).NotTo(BeNil())
	return cached
}

// lookUpResources does what `kubectl api-resources` asks discovery for. A group that fails
// (another lesson may be removing a CRD right now) does not matter here: only requests count.
func lookUpResources(ctx context.Context, dc discovery.DiscoveryInterfaceWithContext) {
	GinkgoHelper()
	_, err := dc.ServerPreferredResourcesWithContext(ctx)
	if !discovery.IsGroupDiscoveryFailedError(err) {
		Expect(err).NotTo(HaveOccurred())
	}
}
