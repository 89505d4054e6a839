package managers_test

import (
	"context"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	managers "workshop.local/lessons/06-manager"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: a field index", harness.Exercise(3), func() {
	var (
		ns, other string
		requests  *harness.RequestLog
	)

	// newManager returns a manager whose cache covers the spec's two namespaces.
	newManager := func() manager.Manager {
		GinkgoHelper()
		opts := harness.ManagerOptions(ns)
		opts.Cache.DefaultNamespaces[other] = cache.Config{}
		mgr, err := manager.New(requests.Watching(cluster.Config), opts)
		Expect(err).NotTo(HaveOccurred())
		return mgr
	}

	BeforeEach(func(ctx SpecContext) {
		ns, other = cluster.Namespace(ctx, "lesson06"), cluster.Namespace(ctx, "lesson06")
		requests = &harness.RequestLog{}
		for _, pod := range []*corev1.Pod{
			podUsing(ns, "volume", volumeFrom("settings")),
			podUsing(ns, "env-from", envFrom("settings")),
			podUsing(ns, "one-variable", oneVariableFrom("settings")),
			podUsing(ns, "twice", volumeFrom("settings"), envFrom("settings")),
			podUsing(ns, "other", volumeFrom("other")),
			podUsing(ns, "none"),
			podUsing(other, "elsewhere", volumeFrom("settings")),
		} {
			createPod(ctx, pod)
		}
	}, NodeTimeout(harness.Timeout))

	It("answers which Pods of a namespace use a ConfigMap, from the cache", func(ctx SpecContext) {
		mgr := newManager()
		indexer := &recoveringIndexer{FieldIndexer: mgr.GetFieldIndexer()}
		Expect(managers.IndexPodsByConfigMap(ctx, withIndexer{mgr, indexer})).To(Succeed())
		harness.StartManager(ctx, mgr)
		Expect(indexer.registered).To(ContainElement(UsesConfigMapOnPods),
			"IndexPodsByConfigMap should register an index named managers.UsesConfigMapField on Pods")
		waitForPodsInCache(ctx, mgr, 7)
		requests.Reset()

		for configMap, want := range map[string][]string{
			"settings": {ns + "/volume", ns + "/env-from", ns + "/one-variable", ns + "/twice"},
			"other":    {ns + "/other"},
			"nothing":  {},
		} {
			pods, err := managers.PodsUsingConfigMap(ctx, mgr.GetClient(), ns, configMap)
			Expect(indexer.panicked()).To(BeEmpty(), "your index function panicked")
			Expect(err).NotTo(HaveOccurred())
			Expect(keys(pods)).To(ConsistOf(want),
				"the Pods of %s that use the ConfigMap %q, through a volume, envFrom or one variable (and not Pods of another namespace)", ns, configMap)
		}
		Expect(paths(requests)).To(BeEmpty(), "a List through the manager's client is answered from the cache's index: no request")
	}, SpecTimeout(harness.Timeout))

	It("keeps the index up to date as Pods come and go", func(ctx SpecContext) {
		mgr := newManager()
		indexer := &recoveringIndexer{FieldIndexer: mgr.GetFieldIndexer()}
		Expect(managers.IndexPodsByConfigMap(ctx, withIndexer{mgr, indexer})).To(Succeed())
		harness.StartManager(ctx, mgr)
		waitForPodsInCache(ctx, mgr, 7)

		createPod(ctx, podUsing(ns, "late", envFrom("settings")))
		Expect(cluster.Clientset.CoreV1().Pods(ns).Delete(ctx, "volume", metav1.DeleteOptions{GracePeriodSeconds: new(int64)})).To(Succeed())
		Eventually(func() ([]string, error) {
			pods, err := managers.PodsUsingConfigMap(ctx, mgr.GetClient(), ns, "settings")
			return keys(pods), err
		}).WithContext(ctx).Should(ConsistOf(ns+"/env-from", ns+"/one-variable", ns+"/twice", ns+"/late"),
			"the index follows the cache: a new Pod that uses the ConfigMap appears, a deleted one goes")
		Expect(indexer.panicked()).To(BeEmpty(), "your index function panicked")
	}, SpecTimeout(harness.Timeout))

	It("fails without the index: the cache cannot answer a field selector it has no index for", func(ctx SpecContext) {
		mgr := newManager() // no IndexPodsByConfigMap
		harness.StartManager(ctx, mgr)
		_, err := mgr.GetCache().GetInformer(ctx, &corev1.Pod{})
		Expect(err).NotTo(HaveOccurred())

		_, err = managers.PodsUsingConfigMap(ctx, mgr.GetClient(), ns, "settings")
		Expect(err).To(MatchError(ContainSubstring("Index with name field:%s does not exist", managers.UsesConfigMapField)),
			"without the index, a List with MatchingFields{UsesConfigMapField: ...} through the cache should fail: ask the cache with a field selector, do not list everything and filter it yourself")
	}, SpecTimeout(harness.Timeout))
})

// UsesConfigMapOnPods is what the spec expects IndexPodsByConfigMap to register.
var UsesConfigMapOnPods = fmt.Sprintf("%T %s", &corev1.Pod{}, managers.UsesConfigMapField)

// withIndexer is a manager whose field indexer is replaced, so the spec can watch your index.
type withIndexer struct {
	manager.Manager
	indexer client.FieldIndexer
}

func (m withIndexer) GetFieldIndexer() client.FieldIndexer { return m.indexer }

// recoveringIndexer records the indexes registered through it, and turns a panic in an index
// function (which would otherwise crash the whole test binary from the informer's goroutine)
// into a recorded failure.
type recoveringIndexer struct {
	client.FieldIndexer
	registered []string

	mu     sync.Mutex
	panics []string
}

func (r *recoveringIndexer) IndexField(ctx context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	r.registered = append(r.registered, fmt.Sprintf("%T %s", obj, field))
	return r.FieldIndexer.IndexField(ctx, obj, field, func(obj client.Object) (values []string) {
		defer func() {
			if p := recover(); p != nil {
				r.mu.Lock()
				r.panics = append(r.panics, fmt.Sprintf("on %s: %v", obj.GetName(), p))
				r.mu.Unlock()
				values = nil
			}
		}()
		return extract(obj)
	})
}

func (r *recoveringIndexer) panicked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.panics...)
}

// waitForPodsInCache waits until the manager's cache holds n Pods.
func waitForPodsInCache(ctx context.Context, mgr manager.Manager, n int) {
	GinkgoHelper()
	Eventually(func() ([]string, error) {
		var pods corev1.PodList
		err := mgr.GetClient().List(ctx, &pods)
		return keys(pods.Items), err
	}).WithContext(ctx).Should(HaveLen(n), "the manager's cache should hold the spec's Pods")
}

// podUsing is a Pod that stays unscheduled (a scheduling gate holds it), so no node runs it.
func podUsing(namespace, name string, uses ...func(*corev1.PodSpec)) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: corev1.PodSpec{
			SchedulingGates: []corev1.PodSchedulingGate{{Name: "lesson06.workshop.local/hold"}},
			Containers:      []corev1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}},
		},
	}
	for _, use := range uses {
		use(&pod.Spec)
	}
	return pod
}

func volumeFrom(configMap string) func(*corev1.PodSpec) {
	return func(spec *corev1.PodSpec) {
		spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: configMap}},
		}})
	}
}

func envFrom(configMap string) func(*corev1.PodSpec) {
	return func(spec *corev1.PodSpec) {
		spec.Containers[0].EnvFrom = append(spec.Containers[0].EnvFrom, corev1.EnvFromSource{
			ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: configMap}},
		})
	}
}

func oneVariableFrom(configMap string) func(*corev1.PodSpec) {
	return func(spec *corev1.PodSpec) {
		spec.Containers[0].Env = append(spec.Containers[0].Env, corev1.EnvVar{Name: "VALUE", ValueFrom: &corev1.EnvVarSource{
			ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: configMap}, Key: "value"},
		}})
	}
}

// createPod creates a Pod through the API, waiting first for the namespace's default
// ServiceAccount, without which the API server refuses Pods.
func createPod(ctx context.Context, pod *corev1.Pod) {
	GinkgoHelper()
	Eventually(func() error {
		_, err := cluster.Clientset.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	}).WithContext(ctx).Should(Succeed(), "could not create the Pod %s/%s", pod.Namespace, pod.Name)
}
