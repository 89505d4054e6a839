package informers_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	informers "workshop.local/lessons/03-informers"
	"workshop.local/lessons/internal/harness"
)

// deltasLabel marks the ConfigMaps the specs' Reflector feeds to your queue, so that the
// kube-root-ca.crt ConfigMap, which the controller-manager adds to every namespace at a time of
// its choosing, never joins the queue.
var deltasLabel = map[string]string{"lesson03.workshop.local/deltas": "yes"}

var _ = Describe("Exercise 2: a DeltaFIFO", harness.Exercise(2), func() {
	var (
		known cache.Store // the consumer's store, as an informer's cache
		fifo  *cache.DeltaFIFO
	)

	BeforeEach(func() {
		// Keyed like an informer's cache, so that it can delete by tombstone too.
		known = cache.NewStore(cache.DeletionHandlingMetaNamespaceKeyFunc)
	})

	// newQueue makes your queue over known, closed when the spec ends so no Pop waits forever.
	newQueue := func() {
		GinkgoHelper()
		var err error
		fifo, err = informers.NewDeltaFIFO(known)
		Expect(err).NotTo(HaveOccurred())
		Expect(fifo).NotTo(BeNil())
		DeferCleanup(fifo.Close)
	}

	Context("fed by a Reflector", func() {
		It("reports an object's life: Replaced from the first list, then Added, Updated and Deleted, and keeps known in step", func(ctx SpecContext) {
			ns := cluster.Namespace(ctx, "lesson03")
			first := map[string]string{} // what the first list holds: key -> resourceVersion
			for _, name := range []string{"old-1", "old-2"} {
				cm := createConfigMap(ctx, ns, name, deltasLabel)
				first[ns+"/"+name] = cm.ResourceVersion
			}
			newQueue()
			feedFromCluster(ctx, fifo, ns)

			Expect([]string{popped(ctx, fifo, known), popped(ctx, fifo, known)}).To(ConsistOf(ns+"/old-1: Replaced", ns+"/old-2: Replaced"),
				"an object the first list finds should come out Replaced: a queue that does not tell a relist from a resync calls it Sync")
			Expect(knownVersions(known)).To(Equal(first),
				"PopDeltas should store each object of the first list in known, beside what known holds already: a Replaced delta is one object, not a whole new content for known")
			life := createConfigMap(ctx, ns, "life", deltasLabel)
			Expect(popped(ctx, fifo, known)).To(Equal(ns + "/life: Added"))
			Expect(knownVersions(known)).To(HaveKeyWithValue(ns+"/life", life.ResourceVersion), "PopDeltas should store an Added object in known")
			changed := updateConfigMap(ctx, ns, "life", setValue("2"))
			Expect(popped(ctx, fifo, known)).To(Equal(ns + "/life: Updated"))
			Expect(knownVersions(known)).To(HaveKeyWithValue(ns+"/life", changed.ResourceVersion), "PopDeltas should store the Updated state in known")
			deleteConfigMap(ctx, ns, "life")
			Expect(popped(ctx, fifo, known)).To(Equal(ns + "/life: Deleted"))
			Expect(knownVersions(known)).To(Equal(first), "PopDeltas should remove a Deleted object from known, and nothing else")
		}, SpecTimeout(harness.Timeout))

		It("queues all the deltas of one key together, in the place the key took first", func(ctx SpecContext) {
			ns := cluster.Namespace(ctx, "lesson03")
			newQueue()
			feed := feedFromCluster(ctx, fifo, ns)
			Eventually(feed.calls).WithContext(ctx).Should(ContainElement("replace"), "the Reflector's first list never reached your queue")

			createConfigMap(ctx, ns, "a", deltasLabel)
			b := createConfigMap(ctx, ns, "b", deltasLabel)
			updateConfigMap(ctx, ns, "a", setValue("2"))
			deleteConfigMap(ctx, ns, "a")
			Eventually(feed.calls).WithContext(ctx).Should(ContainElement("delete "+ns+"/a"), "the Reflector never passed on the deletion of 'a'")

			Expect(popped(ctx, fifo, known)).To(Equal(ns+"/a: Added Updated Deleted"), "'a' was queued first and everything that happened to it since comes out with it")
			Expect(knownVersions(known)).NotTo(HaveKey(ns+"/a"),
				"'a' was added, changed and deleted: applied oldest first, its deletion comes last and removes it from known; applied in another order, known keeps an object the server no longer has")
			Expect(popped(ctx, fifo, known)).To(Equal(ns+"/b: Added"), "'b' comes next, though 'a' changed after it")
			Expect(knownVersions(known)).To(Equal(map[string]string{ns + "/b": b.ResourceVersion}))
		}, SpecTimeout(harness.Timeout))
	})

	Context("driven by hand, as a Reflector and a resync timer drive it", func() {
		It("marks what a relist finds as Replaced, and what a resync re-queues as Sync", func(ctx SpecContext) {
			Expect(known.Add(sampleConfigMap("kept", "1"))).To(Succeed())
			newQueue()
			Expect(fifo.Replace([]any{sampleConfigMap("kept", "2")}, "2")).To(Succeed())
			Expect(popped(ctx, fifo, known)).To(Equal("lesson03/kept: Replaced"), "what a relist finds should come out Replaced, so that a consumer can tell a relist from a resync (Sync)")
			Expect(knownVersions(known)).To(Equal(map[string]string{"lesson03/kept": "2"}), "PopDeltas should store the state the relist found")
			Expect(fifo.Resync()).To(Succeed())
			Expect(popped(ctx, fifo, known)).To(Equal("lesson03/kept: Sync"), "a resync should re-queue every object known holds, as Sync: the queue replayed nothing, as if it did not know what the consumer holds")
			Expect(knownVersions(known)).To(Equal(map[string]string{"lesson03/kept": "2"}))
		}, SpecTimeout(harness.Timeout))

		It("leaves out of a resync an object whose newer state is already queued", func(ctx SpecContext) {
			Expect(known.Add(sampleConfigMap("busy", "1"))).To(Succeed())
			newQueue()
			Expect(fifo.Update(sampleConfigMap("busy", "2"))).To(Succeed())
			Expect(fifo.Resync()).To(Succeed())
			Expect(popped(ctx, fifo, known)).To(Equal("lesson03/busy: Updated"))
		}, SpecTimeout(harness.Timeout))

		It("turns an object a relist no longer finds into a Deleted delta with a tombstone", func(ctx SpecContext) {
			gone := sampleConfigMap("gone", "1")
			Expect(known.Add(gone)).To(Succeed())
			newQueue()
			Expect(fifo.Replace([]any{}, "3")).To(Succeed())

			key, deltas := pop(ctx, fifo, known)
			Expect(key).To(Equal("lesson03/gone"))
			Expect(typesOf(deltas)).To(Equal("Deleted"))
			Expect(deltas[0].Object).To(Equal(cache.DeletedFinalStateUnknown{Key: "lesson03/gone", Obj: gone}),
				"the watch never said 'gone' was deleted: the queue only knows its key and last known state")
			Expect(known.ListKeys()).To(BeEmpty(), "PopDeltas should delete the tombstoned object from known")
		}, SpecTimeout(harness.Timeout))

		It("applies the deltas inside Pop, while the queue is locked, so that no relist gets in between", func(ctx SpecContext) {
			newQueue()
			Expect(fifo.Add(sampleConfigMap("moving", "1"))).To(Succeed())
			probe := holdFirstStore(known)

			type result struct {
				key    string
				deltas cache.Deltas
				err    error
			}
			popDone := make(chan result, 1)
			go func() {
				defer GinkgoRecover()
				key, deltas, err := informers.PopDeltas(fifo, probe)
				popDone <- result{key, deltas, err}
			}()
			Eventually(probe.entered).WithContext(ctx).WithTimeout(popTimeout).Should(BeClosed(),
				"PopDeltas never stored the popped 'moving' in known (with Add or Update)")

			// PopDeltas is storing 'moving' now. A relist that no longer finds it comes in.
			relisted := make(chan error, 1)
			go func() { relisted <- fifo.Replace([]any{}, "2") }()
			Consistently(relisted).WithContext(ctx).ShouldNot(Receive(),
				"a relist got into the queue while PopDeltas was still storing what it had popped: Pop had returned and unlocked the queue. "+
					"That relist found 'moving' neither queued nor in known, so it reports no deletion and known keeps a ghost: what Pop hands over must be in known before the queue unlocks")
			probe.release()

			var r result
			Eventually(popDone).WithContext(ctx).WithTimeout(popTimeout).Should(Receive(&r), "PopDeltas did not return once known let it store 'moving'")
			Expect(r.err).NotTo(HaveOccurred())
			Expect(r.key + ": " + typesOf(r.deltas)).To(Equal("lesson03/moving: Added"))
			Eventually(relisted).WithContext(ctx).Should(Receive(BeNil()), "the relist should go through once PopDeltas is done")
			Expect(popped(ctx, fifo, known)).To(Equal("lesson03/moving: Deleted"),
				"the relist came after 'moving' was in known, so it reports 'moving' deleted")
			Expect(known.ListKeys()).To(BeEmpty())
		}, SpecTimeout(harness.Timeout))

		It("hands out what it holds after Close, then cache.ErrFIFOClosed", func(ctx SpecContext) {
			newQueue()
			Expect(fifo.Add(sampleConfigMap("last", "1"))).To(Succeed())
			fifo.Close()
			Expect(popped(ctx, fifo, known)).To(Equal("lesson03/last: Added"))
			Expect(knownVersions(known)).To(Equal(map[string]string{"lesson03/last": "1"}), "PopDeltas should store what it pops, closed queue or not")
			_, _, err := informers.PopDeltas(fifo, known)
			Expect(err).To(MatchError(cache.ErrFIFOClosed), "a closed, empty queue should make PopDeltas return the error Pop gives")
		}, SpecTimeout(harness.Timeout))
	})
})

// sampleConfigMap is a ConfigMap that never goes to the cluster.
func sampleConfigMap(name, resourceVersion string) *corev1.ConfigMap {
	cm := configMap("lesson03", name, resourceVersion, nil)
	cm.ResourceVersion = resourceVersion
	return cm
}

// feedFromCluster runs a Reflector (the specs' own, not yours) that feeds fifo with the labelled
// ConfigMaps of namespace, through a store that notes each call it passes on.
func feedFromCluster(ctx context.Context, fifo *cache.DeltaFIFO, namespace string) *notingStore {
	noting := &notingStore{ReflectorStore: fifo}
	selector := metav1.FormatLabelSelector(metav1.SetAsLabelSelector(deltasLabel))
	configMaps := cluster.Clientset.CoreV1().ConfigMaps(namespace)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			options.LabelSelector = selector
			return configMaps.List(ctx, options)
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			options.LabelSelector = selector
			return configMaps.Watch(ctx, options)
		},
	}
	reflector := cache.NewReflectorWithOptions(lw, &corev1.ConfigMap{}, noting, cache.ReflectorOptions{Name: "lesson03 spec feeding a DeltaFIFO"})
	go reflector.RunWithContext(harness.Background(ctx))
	return noting
}

// notingStore passes a Reflector's calls on to a queue, then notes them ("replace",
// "add ns/name"...), so a spec can wait until the queue holds a change before it pops.
type notingStore struct {
	cache.ReflectorStore
	mu   sync.Mutex
	seen []string
}

func (s *notingStore) note(call string, obj any) {
	if obj != nil {
		key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		call += " " + key
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, call)
}

func (s *notingStore) calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// Each call goes to the queue first, so that once a call is noted the queue holds its change.
func (s *notingStore) Add(obj any) error {
	err := s.ReflectorStore.Add(obj)
	s.note("add", obj)
	return err
}

func (s *notingStore) Update(obj any) error {
	err := s.ReflectorStore.Update(obj)
	s.note("update", obj)
	return err
}

func (s *notingStore) Delete(obj any) error {
	err := s.ReflectorStore.Delete(obj)
	s.note("delete", obj)
	return err
}

func (s *notingStore) Replace(list []any, resourceVersion string) error {
	err := s.ReflectorStore.Replace(list, resourceVersion)
	s.note("replace", nil)
	return err
}

// knownVersions maps each key of known to the resourceVersion of what is stored under it, or to
// the type of what is stored there when it is not a ConfigMap (a tombstone, say).
func knownVersions(known cache.Store) map[string]string {
	versions := map[string]string{}
	for _, key := range known.ListKeys() {
		obj, _, _ := known.GetByKey(key)
		if cm, ok := obj.(*corev1.ConfigMap); ok {
			versions[key] = cm.ResourceVersion
		} else {
			versions[key] = fmt.Sprintf("a %T, not a ConfigMap", obj)
		}
	}
	return versions
}

// heldStore is the known store one spec hands PopDeltas. It passes every call on to the store
// it wraps; but the first time PopDeltas stores an object (Add or Update), it closes entered and
// waits for release, so that the spec can try a relist while PopDeltas is storing.
type heldStore struct {
	cache.Store
	entered  chan struct{}
	released chan struct{}
	hold     sync.Once
	unhold   sync.Once
}

// holdFirstStore wraps known; the hold is released when the spec ends, at the latest.
func holdFirstStore(known cache.Store) *heldStore {
	s := &heldStore{Store: known, entered: make(chan struct{}), released: make(chan struct{})}
	DeferCleanup(s.release)
	return s
}

func (s *heldStore) release() { s.unhold.Do(func() { close(s.released) }) }

func (s *heldStore) waitOnce() {
	s.hold.Do(func() {
		close(s.entered)
		<-s.released
	})
}

func (s *heldStore) Add(obj any) error {
	s.waitOnce()
	return s.Store.Add(obj)
}

func (s *heldStore) Update(obj any) error {
	s.waitOnce()
	return s.Store.Update(obj)
}

// popped pops with your PopDeltas and describes the result as "key: Type Type...".
func popped(ctx context.Context, fifo *cache.DeltaFIFO, known cache.Store) string {
	GinkgoHelper()
	key, deltas := pop(ctx, fifo, known)
	return key + ": " + typesOf(deltas)
}

// popTimeout bounds the wait for PopDeltas. The queue lives in memory, so a PopDeltas with
// something to pop returns at once; the default 30 s wait would only slow down the failure.
const popTimeout = 5 * time.Second

// pop calls your PopDeltas in a goroutine, since Pop blocks while the queue is empty, and waits
// a bounded time for its answer.
func pop(ctx context.Context, fifo *cache.DeltaFIFO, known cache.Store) (string, cache.Deltas) {
	GinkgoHelper()
	type result struct {
		key    string
		deltas cache.Deltas
		err    error
	}
	done := make(chan result, 1)
	go func() {
		defer GinkgoRecover()
		key, deltas, err := informers.PopDeltas(fifo, known)
		done <- result{key, deltas, err}
	}()
	var r result
	Eventually(done).WithContext(ctx).WithTimeout(popTimeout).Should(Receive(&r), "PopDeltas did not return: nothing was queued (a queue that does not know the consumer's store drops the deletion of an object it no longer holds), or it waits for more than one key")
	Expect(r.err).NotTo(HaveOccurred())
	return r.key, r.deltas
}

// typesOf lists the types of deltas, oldest first: "Added Updated Deleted".
func typesOf(deltas cache.Deltas) string {
	types := make([]string, len(deltas))
	for i, d := range deltas {
		types[i] = string(d.Type)
	}
	return strings.Join(types, " ")
}
