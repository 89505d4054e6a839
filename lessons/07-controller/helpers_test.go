package mirror_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson07"

// newManager returns a manager whose cache holds the spec's namespace (and cluster-scoped
// objects such as Namespaces); start it with harness.StartManager.
func newManager(cfg *rest.Config, namespace string) manager.Manager {
	GinkgoHelper()
	mgr, err := manager.New(cfg, harness.ManagerOptions(namespace))
	Expect(err).NotTo(HaveOccurred())
	return mgr
}

// directClient is a controller-runtime client without a cache: every read goes to the API
// server.
func directClient(cfg *rest.Config) client.Client {
	GinkgoHelper()
	c, err := client.New(cfg, client.Options{})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// laterNamespace picks a name for a namespace the spec creates later (with create), and
// deletes it when the spec ends, after the manager has stopped: call it before
// harness.StartManager.
func laterNamespace() (name string, create func(context.Context)) {
	name = prefix + "-later-" + rand.String(6)
	DeferCleanup(func(ctx SpecContext) {
		err := cluster.Clientset.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{})
		if !apierrors.IsNotFound(err) {
			Expect(err).NotTo(HaveOccurred())
		}
	})
	return name, func(ctx context.Context) {
		GinkgoHelper()
		_, err := cluster.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
			Name: name,
			// The harness's label for spec namespaces: a run stopped before its cleanup
			// leaves it behind, and the next run deletes it.
			Labels: map[string]string{"workshop.local/spec": "true"},
		}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
	}
}

// configMap builds a ConfigMap; mirrorTo, if not empty, is its MirrorToAnnotation.
func configMap(namespace, name, mirrorTo string, data map[string]string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: data}
	if mirrorTo != "" {
		cm.Annotations = map[string]string{mirror.MirrorToAnnotation: mirrorTo}
	}
	return cm
}

// create creates cm in the cluster through the specs' own client.
func create(ctx context.Context, cm *corev1.ConfigMap) *corev1.ConfigMap {
	GinkgoHelper()
	created, err := cluster.Clientset.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	return created
}

// change reads a ConfigMap, lets edit change it, and writes it back.
func change(ctx context.Context, key types.NamespacedName, edit func(*corev1.ConfigMap)) {
	GinkgoHelper()
	cms := cluster.Clientset.CoreV1().ConfigMaps(key.Namespace)
	cm, err := cms.Get(ctx, key.Name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	edit(cm)
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	Expect(err).NotTo(HaveOccurred())
}

// get reads a ConfigMap from the API server; nil if there is none.
func get(ctx context.Context, namespace, name string) *corev1.ConfigMap {
	GinkgoHelper()
	cm, err := cluster.Clientset.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	Expect(err).NotTo(HaveOccurred())
	return cm
}

func key(namespace, name string) types.NamespacedName {
	return types.NamespacedName{Namespace: namespace, Name: name}
}

// liveConfigMapReads returns the requests in log that read ConfigMaps without being a watch:
// reads the cache does not explain (its informers list once, then watch).
func liveConfigMapReads(log *harness.RequestLog) []string {
	var reads []string
	for _, u := range log.Sent() {
		if strings.Contains(u.Path, "/configmaps") && u.Query().Get("watch") != "true" {
			reads = append(reads, u.String())
		}
	}
	return reads
}

// reviewedBy is an annotation another tool puts on a mirror: not the mirror's business.
const reviewedBy = "example.com/reviewed-by"

// gcTimeout is how long a spec waits for the garbage collector, which works for the whole
// cluster (and for every spec running at the same time).
const gcTimeout = time.Minute

// invalidNamespaceReason is the reason of the event the garbage collector records on a
// dependent whose namespaced owner is in another namespace (reportInvalidNamespaceOwnerRef in
// Kubernetes' pkg/controller/garbagecollector/graph_builder.go).
const invalidNamespaceReason = "OwnerRefInvalidNamespace"

// configMapPath is the API path of the ConfigMap name in namespace; with no name, of the
// namespace's ConfigMaps (where a create is sent).
func configMapPath(namespace, name string) string {
	path := "/api/v1/namespaces/" + namespace + "/configmaps"
	if name != "" {
		path += "/" + name
	}
	return path
}

// errInjected is the cause of the failures failing injects.
var errInjected = errors.New("injected by the spec: etcd did not answer in time")

// failing returns a copy of cfg on which each request that fails says (method and URL path) is
// answered 500 Internal Server Error without reaching the API server, as an overloaded one
// would answer. client-go does not retry it (no Retry-After header).
func failing(cfg *rest.Config, fails func(method, path string) bool) *rest.Config {
	failed := rest.CopyConfig(cfg)
	failed.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			if !fails(r.Method, r.URL.Path) {
				return rt.RoundTrip(r)
			}
			status := apierrors.NewInternalError(errInjected).Status()
			status.Kind, status.APIVersion = "Status", "v1"
			body, err := json.Marshal(&status)
			if err != nil {
				return nil, err
			}
			return &http.Response{
				StatusCode: http.StatusInternalServerError,
				Header:     http.Header{"Content-Type": []string{"application/json"}},
				Body:       io.NopCloser(bytes.NewReader(body)),
				Request:    r,
			}, nil
		})
	})
	return failed
}

// eventReasons returns a function for Eventually: the reasons of the events recorded about the
// object of that name in namespace, read from the API server.
func eventReasons(ctx context.Context, namespace, name string) func() []string {
	return func() []string {
		events, err := cluster.Clientset.CoreV1().Events(namespace).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
		Expect(err).NotTo(HaveOccurred())
		var reasons []string
		for _, e := range events.Items {
			reasons = append(reasons, e.Reason)
		}
		return reasons
	}
}
