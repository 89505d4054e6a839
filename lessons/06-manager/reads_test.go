package managers_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	managers "workshop.local/lessons/06-manager"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 2: the cached client and the API reader", harness.Exercise(2), func() {
	var (
		ns       string
		mgr      manager.Manager
		requests *harness.RequestLog // what the manager sent to the API server
		gate     *Gate               // holds back the cache's ConfigMap watch
		settings client.ObjectKey    // a ConfigMap that exists before the manager starts
	)

	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, "lesson06")
		createConfigMap(ctx, ns, "settings", "1", nil)
		settings = client.ObjectKey{Namespace: ns, Name: "settings"}

		requests, gate = &harness.RequestLog{}, newGate()
		var err error
		mgr, err = manager.New(gate.Guarding(requests.Watching(cluster.Config), "configmaps"), harness.ManagerOptions(ns))
		Expect(err).NotTo(HaveOccurred())
		harness.StartManager(ctx, mgr)
		// Start the cache's ConfigMap informer now, so the specs count only your requests.
		_, err = mgr.GetCache().GetInformer(ctx, &corev1.ConfigMap{})
		Expect(err).NotTo(HaveOccurred())
		requests.Reset()
	}, NodeTimeout(harness.Timeout))

	It("ReadCached reads from the cache, with no request to the API server", func(ctx SpecContext) {
		for range 3 {
			cm, err := managers.ReadCached(ctx, mgr, settings)
			Expect(err).NotTo(HaveOccurred())
			Expect(cm.Data).To(HaveKeyWithValue("value", "1"))
		}
		Expect(paths(requests)).To(BeEmpty(),
			"three reads through the cache should send no request: read with mgr.GetClient(), not the API reader or a client of your own")

		missing, err := managers.ReadCached(ctx, mgr, client.ObjectKey{Namespace: ns, Name: "missing"})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(),
			"ReadCached of a ConfigMap that does not exist should return the cache's NotFound error, got %v and %v: pass the error on, do not turn it into an empty ConfigMap", missing, err)
		Expect(paths(requests)).To(BeEmpty(), "the cache knows what it does not hold: no request for a missing ConfigMap either")
	}, SpecTimeout(harness.Timeout))

	It("ReadFresh sees a change the cache has not seen yet, with exactly one GET", func(ctx SpecContext) {
		gate.Close() // from here on, the cache hears of no change
		updated := updateValue(ctx, settings, "2")

		cm, err := managers.ReadFresh(ctx, mgr, settings)
		Expect(err).NotTo(HaveOccurred())
		Expect(cm.ResourceVersion).To(Equal(updated.ResourceVersion),
			"ReadFresh returned resourceVersion %s with value %q, but the server holds %s with value \"2\": read through mgr.GetAPIReader(), not the cached client", cm.ResourceVersion, cm.Data["value"], updated.ResourceVersion)
		Expect(paths(requests)).To(Equal([]string{"/api/v1/namespaces/" + ns + "/configmaps/settings"}),
			"ReadFresh should send exactly one request: a GET of the ConfigMap")

		cached, err := managers.ReadCached(ctx, mgr, settings)
		Expect(err).NotTo(HaveOccurred())
		Expect(cached.Data).To(HaveKeyWithValue("value", "1"), "the cache cannot know the new value yet: the spec holds its watch back")
		gate.Open()
		Eventually(func() (map[string]string, error) {
			cm, err := managers.ReadCached(ctx, mgr, settings)
			if err != nil {
				return nil, err
			}
			return cm.Data, nil
		}).WithContext(ctx).Should(HaveKeyWithValue("value", "2"), "once the watch event arrives, the cache catches up")
	}, SpecTimeout(harness.Timeout))

	It("CreateAndRead returns only once the cache has the new ConfigMap, after one request", func(ctx SpecContext) {
		gate.Close()
		type result struct {
			cm  *corev1.ConfigMap
			err error
		}
		done := make(chan result, 1)
		go func() {
			defer GinkgoRecover()
			cm, err := managers.CreateAndRead(ctx, mgr, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "fresh"},
				Data:       map[string]string{"value": "1"},
			})
			done <- result{cm, err}
		}()

		const tooEarly = "CreateAndRead returned while its cache could not have seen the new ConfigMap (the spec holds the watch back): wait until ReadCached finds it"
		var stored *corev1.ConfigMap
		Eventually(func() error {
			select {
			case got := <-done:
				if got.err != nil {
					StopTrying("CreateAndRead failed: " + got.err.Error()).Now()
				}
				StopTrying(tooEarly).Now()
			default:
			}
			var err error
			stored, err = cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "fresh", metav1.GetOptions{})
			return err
		}).WithContext(ctx).Should(Succeed(), "CreateAndRead should create the ConfigMap %s/fresh", ns)
		Consistently(done).WithTimeout(consistentlyBriefly).ShouldNot(Receive(), tooEarly)

		gate.Open()
		var got result
		Eventually(done).WithContext(ctx).Should(Receive(&got), "CreateAndRead should return once the watch event reaches the cache")
		Expect(got.err).NotTo(HaveOccurred())
		Expect(got.cm).NotTo(BeNil())
		Expect(got.cm.UID).To(Equal(stored.UID), "CreateAndRead should return the ConfigMap it created")
		Expect(paths(requests)).To(Equal([]string{"/api/v1/namespaces/" + ns + "/configmaps"}),
			"CreateAndRead should send one request, the create (a POST to the collection), and read back from the cache")
	}, SpecTimeout(harness.Timeout))
})

var _ = Describe("Exercise 2: the cached client and the API reader", harness.Exercise(2), func() {
	It("CreateAndRead stops waiting when the cache answers with an error other than NotFound", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		elsewhere := cluster.Namespace(ctx, "lesson06") // a namespace the manager's cache does not cover
		mgr, err := manager.New(cluster.Config, harness.ManagerOptions(ns))
		Expect(err).NotTo(HaveOccurred())
		harness.StartManager(ctx, mgr)

		type result struct {
			cm  *corev1.ConfigMap
			err error
		}
		done := make(chan result, 1)
		go func() {
			defer GinkgoRecover()
			cm, err := managers.CreateAndRead(ctx, mgr, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Namespace: elsewhere, Name: "outside"},
				Data:       map[string]string{"value": "1"},
			})
			done <- result{cm, err}
		}()

		var got result
		Eventually(done).WithContext(ctx).WithTimeout(5*time.Second).Should(Receive(&got),
			"CreateAndRead is still waiting for a ConfigMap in %s, a namespace its cache does not cover, where it can never show up: the cache answers with an error that is not NotFound, and waiting will not change it; stop and return that error", elsewhere)
		_, err = cluster.Clientset.CoreV1().ConfigMaps(elsewhere).Get(ctx, "outside", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "CreateAndRead should create the ConfigMap %s/outside (the API server accepts it; only the cache does not cover that namespace)", elsewhere)
		Expect(got.err).To(HaveOccurred(),
			"CreateAndRead returned %v with no error, though its cache cannot hold a ConfigMap of namespace %s: return the cache's error", got.cm, elsewhere)
		Expect(apierrors.IsNotFound(got.err)).To(BeFalse(), "the cache's answer here is not NotFound, got %v", got.err)
	}, SpecTimeout(harness.Timeout))
})

var _ = Describe("Exercise 2: the cached client and the API reader", harness.Exercise(2), func() {
	It("CreateAndRead of a name that is taken returns the API server's AlreadyExists, not the ConfigMap already there", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "taken"}, Data: map[string]string{"value": "old"},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		mgr, err := manager.New(cluster.Config, harness.ManagerOptions(ns))
		Expect(err).NotTo(HaveOccurred())
		harness.StartManager(ctx, mgr)

		cm, err := managers.CreateAndRead(ctx, mgr, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "taken"}, Data: map[string]string{"value": "new"},
		})
		Expect(err).To(HaveOccurred(),
			"CreateAndRead of %s/taken, which already holds value \"old\", returned no error and a ConfigMap with value %q: the create failed, and the caller must learn that its ConfigMap was not written", ns, valueOf(cm))
		Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "CreateAndRead of a name that is taken should return the create's AlreadyExists; got %v", err)
	}, SpecTimeout(harness.Timeout))
})

// valueOf is a ConfigMap's value, for a message ("" for none).
func valueOf(cm *corev1.ConfigMap) string {
	if cm == nil {
		return ""
	}
	return cm.Data["value"]
}

// updateValue writes a new value into a ConfigMap through the API and returns what was stored.
func updateValue(ctx context.Context, key client.ObjectKey, value string) *corev1.ConfigMap {
	GinkgoHelper()
	configMaps := cluster.Clientset.CoreV1().ConfigMaps(key.Namespace)
	current, err := configMaps.Get(ctx, key.Name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	current.Data = map[string]string{"value": value}
	updated, err := configMaps.Update(ctx, current, metav1.UpdateOptions{})
	Expect(err).NotTo(HaveOccurred())
	return updated
}

// paths returns the paths of the requests recorded so far.
func paths(log *harness.RequestLog) []string {
	out := []string{}
	for _, u := range log.Sent() {
		out = append(out, u.Path)
	}
	return out
}
