package clients_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
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
			waitUntilDiscoveryLists(ctx, lessonGroup+"/v1", "widgets")
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

	It("lists a resource the preferred version does not serve at the version that does", func(ctx SpecContext) {
		cluster.EnsureCRD(ctx, widgetCRD())
		cluster.EnsureCRD(ctx, gadgetCRD())
		waitUntilDiscoveryLists(ctx, lessonGroup+"/v1beta1", "gadgets")
		resources, err := clients.APIResources(ctx, cluster.Clientset.Discovery())
		Expect(err).NotTo(HaveOccurred())
		gadgets := schema.GroupResource{Group: lessonGroup, Resource: "gadgets"}
		Expect(linesOf(resources, gadgets)).To(ConsistOf(HaveField("APIVersion", lessonGroup+"/v1beta1")),
			"%s prefers v1, but only v1beta1 serves gadgets: list each resource at the preferred version if that serves it, else at a version that does (ServerPreferredResources does both)", lessonGroup)
	}, SpecTimeout(harness.Timeout))

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

		It("answers a second lookup from its cache, without a request, and keeps it under cacheDir", func(ctx SpecContext) {
			cached := newCachedDiscovery(requests.Watching(cluster.Config), cacheDir)
			lookUpResources(ctx, cached)
			Expect(requests.Sent()).NotTo(BeEmpty(), "the first lookup should ask the server: build the client from the config you are given")
			requests.Reset()
			lookUpResources(ctx, cached)
			Expect(requests.Sent()).To(BeEmpty(), "the second lookup should come from the cache")

			Expect(filepath.Glob(filepath.Join(cacheDir, "discovery", "*", "servergroups.json"))).To(HaveLen(1),
				"keep the parsed answers in one folder per server, right under cacheDir/discovery, named after host and port with ':' and '/' replaced (127.0.0.1_6443)")
			Expect(os.ReadDir(filepath.Join(cacheDir, "http"))).NotTo(BeEmpty(), "keep the raw HTTP responses under cacheDir/http")
		}, SpecTimeout(harness.Timeout))

		It("shares its cache with the next client on the same directory, as kubectl's next run does", func(ctx SpecContext) {
			cfg := requests.Watching(cluster.Config)
			lookUpResources(ctx, newCachedDiscovery(cfg, cacheDir))
			requests.Reset()
			lookUpResources(ctx, newCachedDiscovery(cfg, cacheDir))
			Expect(requests.Sent()).To(BeEmpty(), "a memory cache dies with its client: keep the cache on disk under cacheDir (package discovery/cached/disk), for hours")
		}, SpecTimeout(harness.Timeout))

		It("keeps one cache per server: a client for another server does not answer from it", func(ctx SpecContext) {
			lookUpResources(ctx, newCachedDiscovery(cluster.Config, cacheDir))
			other := anotherPort(cluster.Config)
			lookUpResources(ctx, newCachedDiscovery(requests.Watching(other), cacheDir))
			Expect(requests.Sent()).NotTo(BeEmpty(),
				"%s and %s are two servers, which may serve different resources: keep one discovery folder per server, named after its host and its port", cluster.Config.Host, other.Host)
		}, SpecTimeout(harness.Timeout))

		It("revalidates its raw responses by ETag once its parsed answers are thrown away", func(ctx SpecContext) {
			cached := newCachedDiscovery(requests.Watching(cluster.Config), cacheDir)
			lookUpResources(ctx, cached)
			requests.Reset()
			cached.InvalidateWithContext(ctx) // what kubectl does before `kubectl api-resources`
			lookUpResources(ctx, cached)
			Expect(requests.Requests()).To(ContainElement(HaveField("Header", HaveKey("If-None-Match"))),
				"after an invalidation the client asks the server again, but should send the ETag of the answer it kept (If-None-Match): keep the raw HTTP responses under cacheDir/http")
		}, SpecTimeout(harness.Timeout))
	})
})

// waitUntilDiscoveryLists waits until the aggregated discovery documents (which the learner's
// client reads, unlike the per-group-version ones harness.EnsureCRD waits for) list resource
// in groupVersion.
func waitUntilDiscoveryLists(ctx context.Context, groupVersion, resource string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		_, lists, _ := cluster.Clientset.Discovery().ServerGroupsAndResourcesWithContext(ctx)
		g.Expect(lists).To(ContainElement(SatisfyAll(
			HaveField("GroupVersion", groupVersion),
			HaveField("APIResources", ContainElement(HaveField("Name", resource))),
		)))
	}).WithContext(ctx).Should(Succeed(), "discovery does not list %s in %s yet", resource, groupVersion)
}

// anotherPort returns a copy of cfg for the same host on another port, whose requests still
// reach the workshop's API server: to a client built from it, and to that client's cache, it is
// another server.
func anotherPort(cfg *rest.Config) *rest.Config {
	GinkgoHelper()
	server, err := url.Parse(cfg.Host)
	Expect(err).NotTo(HaveOccurred(), "the workshop's kubeconfig names its server as %q", cfg.Host)
	port := "1"
	if server.Port() == port {
		port = "2"
	}
	elsewhere := *server
	elsewhere.Host = net.JoinHostPort(server.Hostname(), port)
	other := rest.CopyConfig(cfg)
	other.Host = elsewhere.String()
	other.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			r.URL.Host, r.Host = server.Host, server.Host
			return rt.RoundTrip(r)
		})
	})
	return other
}

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
