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
			podUsing(ns, "sidecar", inSecondContainer(envFrom("settings"))),
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
		waitForPodsInCache(ctx, mgr, 8)
		requests.Reset()

		for configMap, want := range map[string][]string{
			"settings": {ns + "/volume", ns + "/env-from", ns + "/one-variable", ns + "/twice", ns + "/sidecar"},
			"other":    {ns + "/other"},
			"nothing":  {},
		} {
			pods, err := managers.PodsUsingConfigMap(ctx, mgr.GetClient(), ns, configMap)
			Expect(indexer.panicked()).To(BeEmpty(), "your index function panicked")
			Expect(err).NotTo(HaveOccurred())
			Expect(keys(pods)).To(ConsistOf(want),
				"the Pods of %s that use the ConfigMap %q, through a volume, or envFrom or one variable of any container (the Pod sidecar uses it in its second container), and not Pods of another namespace", ns, configMap)
		}
		Expect(paths(requests)).To(BeEmpty(), "a List through the manager's client is answered from the cache's index: no request")
	}, SpecTimeout(harness.Timeout))

	It("keeps the index up to date as Pods come and go", func(ctx SpecContext) {
		mgr := newManager()
		indexer := &recoveringIndexer{FieldIndexer: mgr.GetFieldIndexer()}
		Expect(managers.IndexPodsByConfigMap(ctx, withIndexer{mgr, indexer})).To(Succeed())
		harness.StartManager(ctx, mgr)
		waitForPodsInCache(ctx, mgr, 8)

		createPod(ctx, podUsing(ns, "late", envFrom("settings")))
		Expect(cluster.Clientset.CoreV1().Pods(ns).Delete(ctx, "volume", metav1.DeleteOptions{GracePeriodSeconds: new(int64)})).To(Succeed())
		Eventually(func() ([]string, error) {
			pods, err := managers.PodsUsingConfigMap(ctx, mgr.GetClient(), ns, "settings")
			return keys(pods), err
		}).WithContext(ctx).Should(ConsistOf(ns+"/env-from", ns+"/one-variable", ns+"/twice", ns+"/sidecar", ns+"/late"),
			"the index follows the cache: a new Pod that uses the ConfigMap appears, a deleted one goes")
		Expect(indexer.panicked()).To(BeEmpty(), "your index function panicked")
	}, SpecTimeout(harness.Timeout))

	It("asks the cache's index: one List in the namespace, with a field selector on the index", func(ctx SpecContext) {
		mgr := newManager()
		// The spec's own index, so that this spec checks PodsUsingConfigMap alone.
		Expect(mgr.GetFieldIndexer().IndexField(ctx, &corev1.Pod{}, managers.UsesConfigMapField, specIndex)).To(Succeed())
		harness.StartManager(ctx, mgr)
		waitForPodsInCache(ctx, mgr, 8)
		reader := &recordingReader{Reader: mgr.GetClient()}

		pods, err := managers.PodsUsingConfigMap(ctx, reader, ns, "other")
		lists := reader.Lists()
		Expect(lists).To(HaveLen(1),
			"PodsUsingConfigMap should send one List through the reader it is given (it sent %d), and let the index do the finding", len(lists))
		Expect(lists[0].Namespace).To(Equal(ns), "the List should be limited to the namespace %s (client.InNamespace)", ns)
		Expect(lists[0].FieldSelector).To(Equal(managers.UsesConfigMapField+"=other"),
			"the List should ask the index with a field selector %s=other (client.MatchingFields), not list every Pod and filter them in Go", managers.UsesConfigMapField)
		Expect(err).NotTo(HaveOccurred())
		Expect(keys(pods)).To(ConsistOf(ns+"/other"), "PodsUsingConfigMap should return what the List answered")
	}, SpecTimeout(harness.Timeout))

	It("passes the cache's error on when the cache cannot answer: no index, no answer", func(ctx SpecContext) {
		mgr := newManager() // no index on Pods
		harness.StartManager(ctx, mgr)
		waitForPodsInCache(ctx, mgr, 8)
		reader := &recordingReader{Reader: mgr.GetClient()}

		pods, err := managers.PodsUsingConfigMap(ctx, reader, ns, "settings")
		lists := reader.Lists()
		Expect(lists).NotTo(BeEmpty(), "PodsUsingConfigMap should List through the reader it is given")
		Expect(lists[0].Err).To(HaveOccurred(),
			"without an index, a List with a field selector through the cache should fail; this one did not: does PodsUsingConfigMap ask with a field selector on %s?", managers.UsesConfigMapField)
		Expect(err).To(MatchError(lists[0].Err),
			"the List failed (%v) but PodsUsingConfigMap returned %v and %d Pods: pass the error on, so the caller does not take \"no answer\" for \"no Pods\"", lists[0].Err, err, len(pods))
	}, SpecTimeout(harness.Timeout))
})

// UsesConfigMapOnPods is what the spec expects IndexPodsByConfigMap to register.
var UsesConfigMapOnPods = fmt.Sprintf("%T %s", &corev1.Pod{}, managers.UsesConfigMapField)

// specIndex is the spec's own index function on Pods: the ConfigMaps of their volumes and of
// every container's envFrom and env.
func specIndex(obj client.Object) []string {
	pod := obj.(*corev1.Pod)
	var names []string
	for _, v := range pod.Spec.Volumes {
		if v.ConfigMap != nil {
			names = append(names, v.ConfigMap.Name)
		}
	}
	for _, c := range pod.Spec.Containers {
		for _, from := range c.EnvFrom {
			if from.ConfigMapRef != nil {
				names = append(names, from.ConfigMapRef.Name)
			}
		}
		for _, env := range c.Env {
			if env.ValueFrom != nil && env.ValueFrom.ConfigMapKeyRef != nil {
				names = append(names, env.ValueFrom.ConfigMapKeyRef.Name)
			}
		}
	}
	return names
}

// recordingReader records each List sent through it: its namespace, its field selector and the
// error the reader behind it answered.
type recordingReader struct {
	client.Reader

	mu    sync.Mutex
	lists []recordedList
}

type recordedList struct {
	Namespace     string
	FieldSelector string // "" for none
	Err           error
}

func (r *recordingReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	err := r.Reader.List(ctx, list, opts...)
	var options client.ListOptions
	options.ApplyOptions(opts)
	recorded := recordedList{Namespace: options.Namespace, Err: err}
	if options.FieldSelector != nil {
		recorded.FieldSelector = options.FieldSelector.String()
	}
	r.mu.Lock()
	r.lists = append(r.lists, recorded)
	r.mu.Unlock()
	return err
}

// Lists returns the Lists recorded so far.
func (r *recordingReader) Lists() []recordedList {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recordedList(nil), r.lists...)
}

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

// inSecondContainer adds a second container to the Pod and applies use to it alone.
func inSecondContainer(use func(*corev1.PodSpec)) func(*corev1.PodSpec) {
	return func(spec *corev1.PodSpec) {
		first := spec.Containers[0]
		spec.Containers = []corev1.Container{{Name: "sidecar", Image: "registry.k8s.io/pause:3.10"}}
		use(spec)
		spec.Containers = []corev1.Container{first, spec.Containers[0]}
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
