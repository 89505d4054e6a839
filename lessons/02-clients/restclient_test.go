package clients_test

import (
	"context"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	clients "workshop.local/lessons/02-clients"
	"workshop.local/lessons/internal/harness"
)

// pauseImage is the image of every container the specs run: a tiny one that does nothing. The
// local cluster's hollow node never fetches it (its runtime is fake); kind's node pulls it like
// any other image.
const pauseImage = "registry.k8s.io/pause:3.10"

var _ = Describe("Exercise 1: a RESTClient", harness.Exercise(1), func() {
	Describe("NewCoreV1RESTClient", func() {
		It("builds a client whose requests go to the core group's /api/v1", func() {
			rc, err := clients.NewCoreV1RESTClient(cluster.Config)
			Expect(err).NotTo(HaveOccurred())
			path := rc.Get().Namespace("team-a").Resource("pods").URL().Path
			Expect(path).To(Equal("/api/v1/namespaces/team-a/pods"), "set APIPath to /api and GroupVersion to core v1")
		})

		It("decodes the server's answers into typed objects", func(ctx SpecContext) {
			rc, err := clients.NewCoreV1RESTClient(cluster.Config)
			Expect(err).NotTo(HaveOccurred())
			var ns corev1.Namespace
			err = rc.Get().Resource("namespaces").Name("default").Do(ctx).Into(&ns)
			Expect(err).NotTo(HaveOccurred(), "GET /api/v1/namespaces/default through your client")
			Expect(ns.Name).To(Equal("default"))
			Expect(ns.UID).NotTo(BeEmpty(), "the Namespace should be decoded from the server's JSON")
		}, SpecTimeout(harness.Timeout))

		It("names the program in its requests: the caller's User-Agent if it set one, else client-go's default", func(ctx SpecContext) {
			userAgentOf := func(cfg *rest.Config) string {
				GinkgoHelper()
				var requests harness.RequestLog
				rc, err := clients.NewCoreV1RESTClient(requests.Watching(cfg))
				Expect(err).NotTo(HaveOccurred())
				Expect(rc.Get().Resource("namespaces").Name("default").Do(ctx).Error()).To(Succeed())
				Expect(requests.Requests()).To(HaveLen(1))
				return requests.Requests()[0].Header.Get("User-Agent")
			}
			unnamed := rest.CopyConfig(cluster.Config)
			unnamed.UserAgent = ""
			Expect(userAgentOf(unnamed)).To(Equal(rest.DefaultKubernetesUserAgent()),
				"a config without a UserAgent: set rest.DefaultKubernetesUserAgent(), as kubernetes.NewForConfig does, or the server's logs show only Go's own Go-http-client")
			named := rest.CopyConfig(cluster.Config)
			named.UserAgent = "lesson02-spec/v1.0"
			Expect(userAgentOf(named)).To(Equal("lesson02-spec/v1.0"),
				"the caller's config names its program: keep its UserAgent, and set the default only where there is none")
		}, SpecTimeout(harness.Timeout))

		It("leaves the caller's config as it was", func() {
			cfg := rest.CopyConfig(cluster.Config)
			_, err := clients.NewCoreV1RESTClient(cfg)
			Expect(err).NotTo(HaveOccurred())
			Expect(cfg.APIPath).To(BeEmpty(), "set APIPath on a copy of the config (rest.CopyConfig), not on the caller's")
			Expect(cfg.GroupVersion).To(BeNil(), "set GroupVersion on a copy of the config, not on the caller's")
			Expect(cfg.NegotiatedSerializer).To(BeNil(), "set NegotiatedSerializer on a copy of the config, not on the caller's")
		})
	})

	Describe("ListPods", func() {
		var ns string

		BeforeEach(func(ctx SpecContext) {
			ns = cluster.Namespace(ctx, "lesson02")
		}, NodeTimeout(harness.Timeout))

		It("lists the Pods of the namespace that match the selector, and only those", func(ctx SpecContext) {
			web, db := map[string]string{"app": "web"}, map[string]string{"app": "db"}
			elsewhere := cluster.Namespace(ctx, "lesson02")
			createPod(ctx, ns, "web-1", web)
			createPod(ctx, ns, "web-2", web)
			createPod(ctx, ns, "db-1", db)
			createPod(ctx, elsewhere, "web-elsewhere", web)

			// The Clientset's core client is a RESTClient too: ListPods works with any.
			pods, err := clients.ListPods(ctx, cluster.Clientset.CoreV1().RESTClient(), ns, "app=web")
			Expect(err).NotTo(HaveOccurred())
			Expect(pods.Items).To(ConsistOf(podNamed("web-1"), podNamed("web-2")),
				"want the app=web Pods of namespace %s only: the Namespace and the selector of the request decide", ns)
			Expect(pods.Items[0].Spec.Containers).To(ContainElement(HaveField("Image", pauseImage)), "the Pods should be decoded in full")
		}, SpecTimeout(harness.Timeout))

		It("sends the selector to the server, which does the filtering", func(ctx SpecContext) {
			var requests harness.RequestLog
			rc := kubernetes.NewForConfigOrDie(requests.Watching(cluster.Config)).CoreV1().RESTClient()
			_, err := clients.ListPods(ctx, rc, ns, "app=web,tier!=cache")
			Expect(err).NotTo(HaveOccurred())
			Expect(requests.Sent()).To(ContainElement(SatisfyAll(
				HaveField("Path", "/api/v1/namespaces/"+ns+"/pods"),
				WithTransform(labelSelectorOf, Equal("app=web,tier!=cache")),
			)), "want GET /api/v1/namespaces/%s/pods?labelSelector=...: pass the selector in metav1.ListOptions through VersionedParams", ns)
		}, SpecTimeout(harness.Timeout))

		It("returns the server's BadRequest error for a selector it cannot parse", func(ctx SpecContext) {
			_, err := clients.ListPods(ctx, cluster.Clientset.CoreV1().RESTClient(), ns, "app in (")
			Expect(apierrors.IsBadRequest(err)).To(BeTrue(), "want the server's error, for which apierrors.IsBadRequest is true; got %v", err)
		}, SpecTimeout(harness.Timeout))
	})
})

// createPod creates a Pod running pauseImage with the given labels.
func createPod(ctx context.Context, ns, name string, labels map[string]string) {
	GinkgoHelper()
	waitForDefaultServiceAccount(ctx, ns)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: corev1.PodSpec{
			Containers:                    []corev1.Container{{Name: "pause", Image: pauseImage}},
			TerminationGracePeriodSeconds: ptr.To[int64](0),
		},
	}
	_, err := cluster.Clientset.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "the spec could not create the Pod %s/%s", ns, name)
}

// waitForDefaultServiceAccount waits for the ServiceAccount the controller-manager adds to each
// new namespace: until it exists, the API server refuses Pods there.
func waitForDefaultServiceAccount(ctx context.Context, ns string) {
	GinkgoHelper()
	Eventually(func() error {
		_, err := cluster.Clientset.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err
	}).WithContext(ctx).Should(Succeed(), "namespace %s has no default ServiceAccount: is the cluster's controller-manager running?", ns)
}

func podNamed(name string) OmegaMatcher { return HaveField("ObjectMeta.Name", name) }

func labelSelectorOf(u *url.URL) string { return u.Query().Get("labelSelector") }
