package queues_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"

	queues "workshop.local/lessons/04-workqueue"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: a ConfigMap checksum controller", harness.Exercise(4), func() {
	It("annotates every ConfigMap labelled true with the checksum of its data, and leaves the others alone", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		// One worker syncs keys one after another, in the order they were queued.
		controller := startController(ctx, ns, 1, &apiRecorder{})
		createConfigMap(ctx, ns, "a-plain", nil, map[string]string{"color": "blue"})
		createConfigMap(ctx, ns, "b-switched-off", map[string]string{queues.ManagedLabel: "false"}, map[string]string{"color": "red"})
		labelled := createConfigMap(ctx, ns, "c-labelled", managed, map[string]string{"color": "green"})

		controller.eventually(ctx, func(g Gomega) {
			g.Expect(checksumOf(ctx, g, ns, "c-labelled")).To(Equal(queues.Checksum(labelled.Data)))
		}, "c-labelled has the label %s=true, so it should get the annotation %s with the checksum of its data", queues.ManagedLabel, queues.ChecksumAnnotation)
		// a-plain and b-switched-off were queued first, so the single worker was done with them
		// before c-labelled.
		for name, why := range map[string]string{
			"a-plain":        "has no " + queues.ManagedLabel + " label",
			"b-switched-off": "has the label " + queues.ManagedLabel + "=false: the label's value says whether to look after it, not its presence",
		} {
			cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(cm.Annotations).NotTo(HaveKey(queues.ChecksumAnnotation), "%s %s: the controller should leave it alone", name, why)
		}
	}, SpecTimeout(harness.Timeout))

	It("adds its annotation beside the annotations other tools wrote", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		controller := startController(ctx, ns, 1, &apiRecorder{})
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "settings", Labels: maps.Clone(managed), Annotations: map[string]string{otherToolAnnotation: "team-a"}},
			Data:       map[string]string{"color": "blue"},
		}
		created, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		controller.eventually(ctx, func(g Gomega) {
			g.Expect(checksumOf(ctx, g, ns, "settings")).To(Equal(queues.Checksum(created.Data)))
		}, "settings is labelled, so it should get the checksum annotation")
		stored, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(stored.Annotations).To(HaveKeyWithValue(otherToolAnnotation, "team-a"),
			"another tool's annotation %s is gone: set your key in the existing annotations, do not replace the whole map", otherToolAnnotation)
	}, SpecTimeout(harness.Timeout))

	It("follows changes: a label added later, then new data", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		controller := startController(ctx, ns, 2, &apiRecorder{})
		createConfigMap(ctx, ns, "settings", nil, map[string]string{"color": "blue"})

		data := updateConfigMap(ctx, ns, "settings", func(cm *corev1.ConfigMap) {
			cm.Labels = map[string]string{queues.ManagedLabel: "true"}
		})
		controller.eventually(ctx, func(g Gomega) {
			g.Expect(checksumOf(ctx, g, ns, "settings")).To(Equal(queues.Checksum(data)))
		}, "the label was added by an update: the update event should bring the ConfigMap's key to the queue")

		data = updateConfigMap(ctx, ns, "settings", func(cm *corev1.ConfigMap) { cm.Data["color"] = "red" })
		controller.eventually(ctx, func(g Gomega) {
			g.Expect(checksumOf(ctx, g, ns, "settings")).To(Equal(queues.Checksum(data)))
		}, "the data changed, so the annotation should hold the new checksum")
	}, SpecTimeout(harness.Timeout))

	It("reads from the informer's cache, and writes only when the annotation is out of date", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		api := &apiRecorder{}
		controller := startController(ctx, ns, 1, api)
		// One worker syncs keys in the order they were queued, and each ConfigMap is created
		// once the one before has its checksum. So when the third has its checksum, the worker
		// has also synced first again, for the update event that its own write caused.
		for _, name := range []string{"first", "second", "third"} {
			created := createConfigMap(ctx, ns, name, managed, map[string]string{"name": name})
			controller.eventually(ctx, func(g Gomega) {
				g.Expect(checksumOf(ctx, g, ns, name)).To(Equal(queues.Checksum(created.Data)))
			}, "%s is labelled, so it should get the checksum annotation", name)
		}
		Expect(api.writesOf("first")).To(Equal(1), "first needed one write. That write came back as an update event, and syncing it again should have found the annotation already right and written nothing")
		Expect(api.reads()).To(BeEmpty(), "sync read these ConfigMaps with GET requests to the API server, while the informer's cache holds them at no cost")
	}, SpecTimeout(harness.Timeout))

	It("retries a key whose update failed with a transient error", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		api := &apiRecorder{failures: 1}
		controller := startController(ctx, ns, 1, api)
		labelled := createConfigMap(ctx, ns, "settings", managed, map[string]string{"color": "blue"})

		controller.eventually(ctx, func(g Gomega) {
			g.Expect(checksumOf(ctx, g, ns, "settings")).To(Equal(queues.Checksum(labelled.Data)))
		}, "the first update was answered with 409 Conflict (by the spec), and the annotation never appeared: a key whose sync failed is retried")
		Expect(api.writesOf("settings")).To(BeNumerically(">=", 2), "one failed update, then at least one that went through")
	}, SpecTimeout(harness.Timeout))

	It("stops cleanly when its context is cancelled", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		runCtx, cancel := context.WithCancel(ctx)
		DeferCleanup(cancel)
		controller := startController(runCtx, ns, 2, &apiRecorder{})
		labelled := createConfigMap(ctx, ns, "settings", managed, map[string]string{"color": "blue"})
		controller.eventually(ctx, func(g Gomega) {
			g.Expect(checksumOf(ctx, g, ns, "settings")).To(Equal(queues.Checksum(labelled.Data)))
		}, "the controller should be running before the spec stops it")

		cancel()
		Eventually(controller.stopped).WithContext(ctx).Should(BeClosed(), "Run did not return after its context was cancelled, with no sync in progress: it should stop its workers and return soon after")
		Expect(controller.err).NotTo(HaveOccurred(), "Run should return nil after a clean shutdown")
	}, SpecTimeout(harness.Timeout))

	It("returns only once the sync in progress when it was cancelled has finished", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		runCtx, cancel := context.WithCancel(ctx)
		DeferCleanup(cancel)
		api := holdingWrites()
		controller := startController(runCtx, ns, 1, api)
		DeferCleanup(api.release) // before startController's cleanup, which waits for Run
		createConfigMap(ctx, ns, "settings", managed, map[string]string{"color": "blue"})
		Eventually(api.held).WithContext(ctx).Should(Receive(Equal("settings")),
			"settings is labelled, yet the controller sent no update of it")

		// The worker is in the middle of its sync: its update has not been answered yet.
		cancel()
		Consistently(controller.stopped).WithContext(ctx).ShouldNot(BeClosed(),
			"Run returned while its worker was still in the middle of a sync (its update of settings had not been answered): Run's return tells the caller that the controller has stopped, so it should come only once every worker has finished the key in hand")
		api.release()
		Eventually(controller.stopped).WithContext(ctx).Should(BeClosed(), "the sync in progress has finished, so Run should return")
		Expect(controller.err).NotTo(HaveOccurred(), "Run should return nil after a clean shutdown")
	}, SpecTimeout(harness.Timeout))

	It("returns an error when its cache never synced before it was cancelled", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson04")
		runCtx, cancel := context.WithCancel(ctx)
		DeferCleanup(cancel)
		// Every list and watch of ConfigMaps is refused, as for a client without the RBAC to list
		// them: the informer retries, and its cache never syncs.
		controller := startController(runCtx, ns, 1, &apiRecorder{refuseLists: true})
		Consistently(controller.stopped).WithContext(ctx).ShouldNot(BeClosed(),
			"Run returned while its context was live and its cache had not synced yet: a cache that has not synced may still do so, and Run waits for it as long as its context lasts")

		cancel()
		Eventually(controller.stopped).WithContext(ctx).Should(BeClosed(), "Run should return soon after its context is cancelled, whether or not its cache synced")
		Expect(controller.err).To(HaveOccurred(),
			"every list of ConfigMaps was refused (403 Forbidden), so the informer's cache never synced, yet Run returned nil, as after a clean shutdown: a controller that never had a complete cache has done no trustworthy work, and its Run says so with an error")
	}, SpecTimeout(harness.Timeout))
})

// runningController is a controller the spec started, as main would.
type runningController struct {
	stopped chan struct{} // closed when Run has returned
	err     error         // what Run returned; read it only after stopped is closed
	cache   *cacheCopies  // copies of what the informer cached, to find objects changed in place
}

// startController does what main does in sample-controller: it makes a client (through api)
// and an informer factory for the namespace, calls NewController, starts the factory, and runs
// the controller with the given number of workers until ctx is done.
func startController(ctx context.Context, ns string, workers int, api *apiRecorder) *runningController {
	GinkgoHelper()
	cfg := rest.CopyConfig(cluster.Config)
	cfg.Wrap(api.wrap)
	client := kubernetes.NewForConfigOrDie(cfg)
	cached := &cacheCopies{}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns), informers.WithTransform(cached.transform))
	ctx, cancel := context.WithCancel(ctx)
	DeferCleanup(cancel)

	controller, err := queues.NewController(ctx, client, factory.Core().V1().ConfigMaps())
	Expect(err).NotTo(HaveOccurred(), "NewController failed")
	Expect(controller).NotTo(BeNil(), "NewController returned no controller")
	factory.StartWithContext(ctx)

	running := &runningController{stopped: make(chan struct{}), cache: cached}
	go func() {
		defer GinkgoRecover()
		defer close(running.stopped)
		running.err = controller.Run(ctx, workers)
	}()
	DeferCleanup(func(cleanupCtx SpecContext) {
		cancel()
		// A timeout shorter than the node's, so that a Run that never returns fails here, with
		// this message, rather than by the node timing out.
		Eventually(running.stopped).WithContext(cleanupCtx).WithTimeout(20*time.Second).Should(BeClosed(),
			"Run did not return within 20 s of its context being cancelled: once its context ends, a controller should stop its workers and return once each has finished the key in hand")
		factory.Shutdown()
		running.expectCacheUntouched()
	}, NodeTimeout(30*time.Second))
	return running
}

// eventually polls check until it passes. It stops at once if Run has returned: a controller
// that is not running will never make it pass.
func (r *runningController) eventually(ctx context.Context, check func(Gomega), description string, args ...any) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		select {
		case <-r.stopped:
			StopTrying(fmt.Sprintf("Run returned while its context was still live (it returned %v): it should block until ctx is done", r.err)).Now()
		default:
		}
		check(g)
	}).WithContext(ctx).Should(Succeed(), append([]any{description}, args...)...)
	r.expectCacheUntouched()
}

// expectCacheUntouched fails the spec if the controller changed an object in the informer's
// cache in place.
func (r *runningController) expectCacheUntouched() {
	GinkgoHelper()
	if changes := r.cache.mutated(); len(changes) > 0 {
		Fail("the controller changed objects in the informer's cache in place, which every other reader of the cache shares: what a lister hands out is the cache's own object, and only a copy is yours to change.\n" +
			strings.Join(changes, "\n"))
	}
}

// managed are the labels of a ConfigMap the controller looks after.
var managed = map[string]string{queues.ManagedLabel: "true"}

// otherToolAnnotation is an annotation some other tool wrote on a ConfigMap.
const otherToolAnnotation = "example.com/owner"

// createConfigMap creates a ConfigMap with labels and data.
func createConfigMap(ctx context.Context, ns, name string, labels, data map[string]string) *corev1.ConfigMap {
	GinkgoHelper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: maps.Clone(labels)}, Data: data}
	created, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	return created
}

// updateConfigMap changes a ConfigMap and returns its new data. The controller may write the
// same object at the same time, so a Conflict is retried on a fresh copy.
func updateConfigMap(ctx context.Context, ns, name string, change func(*corev1.ConfigMap)) map[string]string {
	GinkgoHelper()
	var data map[string]string
	configMaps := cluster.Clientset.CoreV1().ConfigMaps(ns)
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := configMaps.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(cm)
		updated, err := configMaps.Update(ctx, cm, metav1.UpdateOptions{})
		if err == nil {
			data = updated.Data
		}
		return err
	})).To(Succeed())
	return data
}

// checksumOf reads a ConfigMap from the API server (not from a cache) and returns its checksum
// annotation.
func checksumOf(ctx context.Context, g Gomega, ns, name string) string {
	cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	return cm.Annotations[queues.ChecksumAnnotation]
}
