package informers_test

import (
	"context"
	"maps"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	informers "workshop.local/lessons/03-informers"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: an Indexer with custom indexes", harness.Exercise(3), func() {
	Context("over hand-made Pods", func() {
		var indexer cache.Indexer

		BeforeEach(func() {
			indexer = cache.NewIndexer(cache.MetaNamespaceKeyFunc, informers.PodIndexers())
			for _, p := range []*corev1.Pod{
				samplePod("web-1", "node-a", "web"), samplePod("web-2", "node-b", "web"),
				samplePod("db-1", "node-a", "db"), samplePod("db-waiting", "", "db"),
				samplePod("no-app", "node-b", ""),
			} {
				Expect(indexer.Add(p)).To(Succeed())
			}
		})

		DescribeTable("finds the Pods on a node by asking the node index",
			func(node string, want []string) {
				watched := watchReads(indexer)
				pods, err := informers.PodsOnNode(watched, node)
				Expect(err).NotTo(HaveOccurred())
				Expect(names(pods)).To(ConsistOf(want), "the Pods on %q", node)
				watched.expectLookupOnly(informers.PodsByNode, node)
			},
			Entry("node-a", "node-a", []string{"web-1", "db-1"}),
			Entry("node-b, with a Pod that has no app", "node-b", []string{"web-2", "no-app"}),
			Entry("a node without Pods: no error, no Pods", "node-z", []string{}),
		)

		DescribeTable("finds the Pods of an app by asking the app index",
			func(app string, want []string) {
				watched := watchReads(indexer)
				pods, err := informers.PodsOfApp(watched, app)
				Expect(err).NotTo(HaveOccurred())
				Expect(names(pods)).To(ConsistOf(want), "the Pods of app %q", app)
				watched.expectLookupOnly(informers.PodsByApp, app)
			},
			Entry("web", "web", []string{"web-1", "web-2"}),
			Entry("db, scheduled or not", "db", []string{"db-1", "db-waiting"}),
			Entry("an app without Pods: no error, no Pods", "cache", []string{}),
		)

		It("leaves Pods without a node out of the node index, and Pods without an app out of the app index", func() {
			Expect(indexer.ListIndexFuncValues(informers.PodsByNode)).To(ConsistOf("node-a", "node-b"),
				"a Pod with no node should give no index value, not \"\"")
			Expect(indexer.ListIndexFuncValues(informers.PodsByApp)).To(ConsistOf("web", "db"),
				"a Pod with no app label should give no index value, not \"\"")
		})

		It("moves a Pod to another bucket when it changes", func() {
			Expect(indexer.Update(samplePod("web-2", "node-b", "db"))).To(Succeed())
			web, err := informers.PodsOfApp(indexer, "web")
			Expect(err).NotTo(HaveOccurred())
			Expect(names(web)).To(ConsistOf("web-1"), "web-2 is now labelled app=db")
			db, err := informers.PodsOfApp(indexer, "db")
			Expect(err).NotTo(HaveOccurred())
			Expect(names(db)).To(ConsistOf("db-1", "db-waiting", "web-2"))
		})
	})

	It("answers from an informer's cache as the scheduler places real Pods", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		indexers := informers.PodIndexers()
		for name, app := range map[string]string{"web-1": "web", "web-2": "web", "db-1": "db"} {
			createPod(ctx, samplePod(name, "", app), ns)
		}
		stuck := samplePod("db-stuck", "", "db")
		stuck.Spec.NodeSelector = map[string]string{"lesson03.workshop.local/no-such-node": "true"} // never scheduled
		createPod(ctx, stuck, ns)

		indexer := startPodInformer(ctx, ns, indexers)
		placed := placements(ctx, ns, "web-1", "web-2", "db-1")
		for node, want := range placed {
			Eventually(func() ([]string, error) {
				pods, err := informers.PodsOnNode(indexer, node)
				return names(pods), err
			}).WithContext(ctx).Should(ConsistOf(want), "the API says these Pods run on %s", node)
		}
		watched := watchReads(indexer)
		_, err := informers.PodsOnNode(watched, "no-such-node")
		Expect(err).NotTo(HaveOccurred())
		watched.expectLookupOnly(informers.PodsByNode, "no-such-node")
		Expect(indexer.ListIndexFuncValues(informers.PodsByNode)).To(ConsistOf(slices.Collect(maps.Keys(placed))), "db-stuck is on no node")
		db, err := informers.PodsOfApp(indexer, "db")
		Expect(err).NotTo(HaveOccurred())
		Expect(names(db)).To(ConsistOf("db-1", "db-stuck"))
	}, SpecTimeout(harness.Timeout))
})

// samplePod is a Pod with a node (or "" for none) and an app label (or "" for none).
func samplePod(name, node, app string) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "lesson03", Name: name},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10"}},
		},
	}
	if app != "" {
		pod.Labels = map[string]string{informers.AppLabel: app}
	}
	return pod
}

// createPod creates pod in namespace through the API.
func createPod(ctx context.Context, pod *corev1.Pod, namespace string) {
	GinkgoHelper()
	pod = pod.DeepCopy()
	pod.Namespace = namespace
	_, err := cluster.Clientset.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the Pod %s/%s", namespace, pod.Name)
}

// startPodInformer runs a Pod informer for namespace (the specs' own, with your indexes) until
// the spec ends, and returns its indexer once it has synced.
func startPodInformer(ctx context.Context, namespace string, indexers cache.Indexers) cache.Indexer {
	GinkgoHelper()
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(cluster.Clientset, 0, kubeinformers.WithNamespace(namespace))
	informer := factory.Core().V1().Pods().Informer()
	Expect(informer.AddIndexers(indexers)).To(Succeed())
	runCtx, cancel := context.WithCancel(ctx)
	factory.StartWithContext(runCtx)
	DeferCleanup(func() { cancel(); factory.Shutdown() })
	Expect(factory.WaitForCacheSyncWithContext(ctx).AsError()).To(Succeed())
	return informer.GetIndexer()
}

// placements waits, through the API, until the scheduler has bound the named Pods, and returns
// the names of those Pods by node.
func placements(ctx context.Context, namespace string, pods ...string) map[string][]string {
	GinkgoHelper()
	var byNode map[string][]string
	Eventually(func(g Gomega) {
		byNode = map[string][]string{}
		for _, name := range pods {
			pod, err := cluster.Clientset.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(pod.Spec.NodeName).NotTo(BeEmpty(), "the scheduler has not bound %s yet", name)
			byNode[pod.Spec.NodeName] = append(byNode[pod.Spec.NodeName], name)
		}
	}).WithContext(ctx).Should(Succeed())
	return byNode
}

// watchedIndexer passes every call on to an Indexer and notes how it was read: through an index
// (ByIndex, Index, IndexKeys) or by a scan of everything it holds (List, ListKeys).
type watchedIndexer struct {
	cache.Indexer
	mu      sync.Mutex
	lookups []string // "index=value"
	scans   []string // "List", "ListKeys"
}

func watchReads(indexer cache.Indexer) *watchedIndexer { return &watchedIndexer{Indexer: indexer} }

func (w *watchedIndexer) note(into *[]string, call string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	*into = append(*into, call)
}

func (w *watchedIndexer) ByIndex(index, value string) ([]any, error) {
	w.note(&w.lookups, index+"="+value)
	return w.Indexer.ByIndex(index, value)
}

func (w *watchedIndexer) IndexKeys(index, value string) ([]string, error) {
	w.note(&w.lookups, index+"="+value)
	return w.Indexer.IndexKeys(index, value)
}

func (w *watchedIndexer) Index(index string, obj any) ([]any, error) {
	w.note(&w.lookups, index+"=<values of a sample object>")
	return w.Indexer.Index(index, obj)
}

func (w *watchedIndexer) List() []any {
	w.note(&w.scans, "List")
	return w.Indexer.List()
}

func (w *watchedIndexer) ListKeys() []string {
	w.note(&w.scans, "ListKeys")
	return w.Indexer.ListKeys()
}

// expectLookupOnly checks that a query asked the named index and never scanned the cache.
func (w *watchedIndexer) expectLookupOnly(index, value string) {
	GinkgoHelper()
	w.mu.Lock()
	defer w.mu.Unlock()
	Expect(w.scans).To(BeEmpty(), "the query read the whole cache (%v), where the %q index answers with one map lookup", w.scans, index)
	Expect(w.lookups).To(ContainElement(HavePrefix(index+"=")), "the query should ask the %q index for %q; it asked %v", index, value, w.lookups)
}
