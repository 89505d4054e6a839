package mirror_test

import (
	"context"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: map functions from another kind", harness.Exercise(3), func() {
	It("IndexTargets files a ConfigMap under each namespace it wants a mirror in", func() {
		cm := configMap("ns", "cm", "team-a, team-b", nil)
		Expect(mirror.IndexTargets(cm)).To(Equal([]string{"team-a", "team-b"}), "IndexTargets should file a ConfigMap under each namespace as Targets reads the annotation (trimmed, no blanks, no duplicates): the lookup uses a namespace's exact name")
		Expect(mirror.IndexTargets(&corev1.Namespace{})).To(BeEmpty(), "an object that is not a ConfigMap has no targets")
	})

	It("enqueues, when a namespace is created, the ConfigMaps that want a mirror in it, found in the cache", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		existing := cluster.Namespace(ctx, prefix)
		late, createLate := laterNamespace()
		marker, createMarker := laterNamespace()
		create(ctx, configMap(ns, "wants-existing", existing, nil))
		create(ctx, configMap(ns, "wants-late", "other,"+late, nil))
		create(ctx, configMap(ns, "wants-marker", marker, nil))
		create(ctx, configMap(ns, "wants-elsewhere", prefix+"-nobody-creates-this", nil))
		create(ctx, configMap(ns, "plain", "", nil))

		requests := &harness.RequestLog{}
		opts := harness.ManagerOptions(ns)
		events := &namespaceEvents{}
		opts.NewCache = events.newCache
		mgr, err := manager.New(requests.Watching(cluster.Config), opts)
		Expect(err).NotTo(HaveOccurred())
		rec := harness.RecordReconciles(nil)
		// The controller watches nothing but Namespaces: every reconcile comes from the map.
		c, err := controller.New("lesson07-namespaces", mgr, controller.Options{Reconciler: rec})
		Expect(err).NotTo(HaveOccurred())
		Expect(mirror.WatchNamespaces(ctx, mgr, c)).To(Succeed(), "WatchNamespaces failed")
		harness.StartManager(ctx, mgr)

		var indexed corev1.ConfigMapList
		Expect(mgr.GetCache().List(ctx, &indexed, client.MatchingFields{mirror.TargetIndex: late})).To(Succeed(),
			"the cache has no index %q: register it in WatchNamespaces with mgr.GetFieldIndexer().IndexField", mirror.TargetIndex)
		Expect(indexed.Items).To(HaveLen(1), "the index should file wants-late under %s (see IndexTargets)", late)

		// The namespaces that exist when the watch starts come as creations too (the informer's
		// initial list): once wants-existing is reconciled, the watch is running.
		Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/wants-existing"),
			"namespace %s exists, and %s/wants-existing wants a mirror there: the map function should enqueue it when the watch starts", existing, ns)

		requests.Reset()
		createLate(ctx)
		Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/wants-late"),
			"namespace %s was created, and %s/wants-late wants a mirror there: the map function should enqueue it", late, ns)

		// A namespace update, and a namespace deletion, create no mirror. The update is real.
		// The deletion is the event the informer delivers once a namespace is gone, handed to
		// the watch's handlers by the spec: the namespace controller empties a namespace before
		// it goes, which takes a minute and more on a busy cluster.
		_, err = cluster.Clientset.CoreV1().Namespaces().Patch(ctx, late, "application/merge-patch+json",
			[]byte(`{"metadata":{"labels":{"touched":"yes"}}}`), metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())
		lateNamespace, err := cluster.Clientset.CoreV1().Namespaces().Get(ctx, late, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		events.deliverDelete(lateNamespace)
		// Then a marker: the informer delivers events in order, and requests of equal priority
		// are handed out first in, first out, so once the marker's request is seen, any request
		// made before it has been too.
		createMarker(ctx)
		Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/wants-marker"), "namespace %s was created, but %s/wants-marker was not reconciled", marker, ns)
		Expect(rec.Keys()).To(ConsistOf(ns+"/wants-existing", ns+"/wants-late", ns+"/wants-marker"),
			"only the ConfigMaps whose annotation lists the new namespace should be enqueued, each under its own key (its namespace and name, not the new namespace's)")
		Expect(rec.StartedFor(key(ns, "wants-late"))).To(Equal(1), "labelling and deleting namespace %s reconciled wants-late again: only namespace creations should reach the map function (a predicate whose UpdateFunc, DeleteFunc and GenericFunc return false; a nil one lets its events through)", late)
		Expect(liveConfigMapReads(requests)).To(BeEmpty(),
			"the map function read ConfigMaps from the API server; it runs for every namespace created in the cluster: list from the manager's cache (mgr.GetClient()) with client.MatchingFields on the index")
	}, SpecTimeout(harness.Timeout))
})

// namespaceEvents is a manager's cache (through manager.Options.NewCache) that keeps the event
// handlers added to its Namespace informer, the ones source.Kind adds, so that a spec can hand
// them an event of its own.
type namespaceEvents struct {
	mu       sync.Mutex
	handlers []toolscache.ResourceEventHandler
}

func (e *namespaceEvents) newCache(cfg *rest.Config, opts cache.Options) (cache.Cache, error) {
	c, err := cache.New(cfg, opts)
	return &namespaceEventsCache{Cache: c, events: e}, err
}

// deliverDelete hands every kept handler the delete event of ns, as the informer would.
func (e *namespaceEvents) deliverDelete(ns *corev1.Namespace) {
	e.mu.Lock()
	handlers := append([]toolscache.ResourceEventHandler(nil), e.handlers...)
	e.mu.Unlock()
	for _, h := range handlers {
		h.OnDelete(ns)
	}
}

func (e *namespaceEvents) keep(h toolscache.ResourceEventHandler) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.handlers = append(e.handlers, h)
}

type namespaceEventsCache struct {
	cache.Cache
	events *namespaceEvents
}

func (c *namespaceEventsCache) GetInformer(ctx context.Context, obj client.Object, opts ...cache.InformerGetOption) (cache.Informer, error) {
	informer, err := c.Cache.GetInformer(ctx, obj, opts...)
	if _, isNamespace := obj.(*corev1.Namespace); err != nil || !isNamespace {
		return informer, err
	}
	return &keepingInformer{Informer: informer, events: c.events}, nil
}

// keepingInformer keeps each handler added to it, and adds it to the real informer.
type keepingInformer struct {
	cache.Informer
	events *namespaceEvents
}

func (i *keepingInformer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	i.events.keep(h)
	return i.Informer.AddEventHandler(h)
}

func (i *keepingInformer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, resync time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	i.events.keep(h)
	return i.Informer.AddEventHandlerWithResyncPeriod(h, resync)
}

func (i *keepingInformer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, opts toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	i.events.keep(h)
	return i.Informer.AddEventHandlerWithOptions(h, opts)
}
