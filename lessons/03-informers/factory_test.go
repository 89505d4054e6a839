package informers_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	informers "workshop.local/lessons/03-informers"
	"workshop.local/lessons/internal/harness"
)

// pickLabel is what the specs' label selector, pickSelector, selects.
var (
	pickLabel    = map[string]string{"lesson03.workshop.local/pick": "yes"}
	pickSelector = "lesson03.workshop.local/pick=yes"
)

var _ = Describe("Exercise 4: SharedInformerFactory and handlers", harness.Exercise(4), func() {
	Context("the handler, called by hand", func() {
		It("records adds, updates and deletes by namespace/name", func() {
			rec := &informers.Recorder{}
			handler := informers.ConfigMapHandler(rec)
			handler.OnAdd(configMap("team-a", "settings", "1", nil), true)
			handler.OnUpdate(configMap("team-a", "settings", "1", nil), configMap("team-a", "settings", "2", nil))
			handler.OnDelete(configMap("team-a", "settings", "2", nil))
			Expect(rec.Events()).To(Equal([]string{"add team-a/settings", "update team-a/settings", "delete team-a/settings"}))
		})

		It("copes with tombstones, whether or not they carry the last known object", func() {
			rec := &informers.Recorder{}
			handler := informers.ConfigMapHandler(rec)
			handler.OnDelete(cache.DeletedFinalStateUnknown{Key: "team-a/stale", Obj: configMap("team-a", "stale", "1", nil)})
			handler.OnDelete(cache.DeletedFinalStateUnknown{Key: "team-a/lost"})
			Expect(rec.Events()).To(Equal([]string{"delete team-a/stale", "delete team-a/lost"}),
				"two tombstones (cache.DeletedFinalStateUnknown, not ConfigMaps), one with the last known ConfigMap and one without: a tombstone's key is certain, and each deletion is recorded under it")
		})
	})

	It("caches only the selected ConfigMaps of its namespace, and has synced when it returns", func(ctx SpecContext) {
		ns, other := cluster.Namespace(ctx, "lesson03"), cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "picked", pickLabel)
		createConfigMap(ctx, ns, "unlabelled", nil)
		createConfigMap(ctx, other, "elsewhere", pickLabel)

		rec := &informers.Recorder{}
		lister := startConfigMapInformer(ctx, ns, rec)

		// No Eventually: a synced informer answers at once.
		cached, err := lister.List(labels.Everything())
		Expect(err).NotTo(HaveOccurred())
		Expect(names(cached)).To(ConsistOf("picked"), "the cache should hold the labelled ConfigMaps of %s, all of them, as soon as StartConfigMapInformer returns", ns)
		picked, err := lister.ConfigMaps(ns).Get("picked")
		Expect(err).NotTo(HaveOccurred())
		Expect(picked.Data).To(HaveKeyWithValue("value", "1"))
		_, err = lister.ConfigMaps(ns).Get("unlabelled")
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "a lister says NotFound for what the informer does not select, got %v", err)
		Expect(rec.Events()).To(Equal([]string{"add " + ns + "/picked"}),
			"StartConfigMapInformer returned before its handler had been told of the initial list: it should return only once the handler has caught up")
	}, SpecTimeout(harness.Timeout))

	It("returns only once its handler has been told about every object of the initial list", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "picked", pickLabel)
		rec := &informers.Recorder{}
		held, release := informers.HoldRecords(rec, "add ") // a slow handler, busy with the initial list
		DeferCleanup(release)

		returned := make(chan error, 1)
		go func() {
			defer GinkgoRecover()
			_, err := informers.StartConfigMapInformer(harness.Background(ctx), cluster.Clientset, ns, pickSelector, rec)
			returned <- err
		}()
		expectWaitingWhileHeld(ctx, "StartConfigMapInformer", held, returned)
		release()
		var err error
		Eventually(returned).WithContext(ctx).Should(Receive(&err), "StartConfigMapInformer should return once the handler has finished the initial list")
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.Events()).To(Equal([]string{"add " + ns + "/picked"}))
	}, SpecTimeout(harness.Timeout))

	It("tells its handler about every change in its selection, in order, and nothing else", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "picked", pickLabel)
		rec := &informers.Recorder{}
		lister := startConfigMapInformer(ctx, ns, rec)

		createConfigMap(ctx, ns, "late", pickLabel)
		updateConfigMap(ctx, ns, "late", setValue("2"))
		createConfigMap(ctx, ns, "unlabelled", nil)
		deleteConfigMap(ctx, ns, "late")
		Eventually(rec.Events).WithContext(ctx).Should(ContainElement("delete "+ns+"/late"), "the handler should hear of the deletion of 'late'")
		Expect(rec.Events()).To(Equal([]string{"add " + ns + "/picked", "add " + ns + "/late", "update " + ns + "/late", "delete " + ns + "/late"}),
			"one watch delivers changes in order, and 'unlabelled' is not selected")

		// An object that loses its label leaves the selection: the watch reports it deleted.
		updateConfigMap(ctx, ns, "picked", func(cm *corev1.ConfigMap) { cm.Labels = nil })
		Eventually(rec.Events).WithContext(ctx).Should(ContainElement("delete "+ns+"/picked"), "a ConfigMap that lost its label is gone from the selection")
		_, err := lister.ConfigMaps(ns).Get("picked")
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "the lister should no longer have 'picked', got %v", err)
		_, err = cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "picked", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "yet the ConfigMap itself still exists")
	}, SpecTimeout(harness.Timeout))

	It("tells its handler nothing while nothing changes", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "picked", pickLabel)
		rec := &informers.Recorder{}
		startConfigMapInformer(ctx, ns, rec)

		// Nobody touches 'picked' from here on: whatever the handler hears now is not a change.
		Consistently(rec.Events).WithContext(ctx).WithTimeout(quietFor).Should(Equal([]string{"add " + ns + "/picked"}),
			"nobody changed %s/picked, yet the handler was told more than its add within %s of the start: an informer that replays its cache every so often (a resync) tells its handler of updates in which nothing changed; the informers of this lesson tell it only of changes", ns, quietFor)
	}, SpecTimeout(harness.Timeout))
})

// quietFor is how long the specs watch an informer that has nothing to report: longer than the
// 30 s resync period so many examples use.
const quietFor = 40 * time.Second

// startConfigMapInformer calls StartConfigMapInformer for the picked ConfigMaps of namespace.
func startConfigMapInformer(ctx context.Context, namespace string, rec *informers.Recorder) corelisters.ConfigMapLister {
	GinkgoHelper()
	return returnsWithin(ctx, "StartConfigMapInformer", startWithin, informersRun, func() (corelisters.ConfigMapLister, error) {
		return informers.StartConfigMapInformer(harness.Background(ctx), cluster.Clientset, namespace, pickSelector, rec)
	})
}
