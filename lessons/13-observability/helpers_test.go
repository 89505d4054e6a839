package observe_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	observe "workshop.local/lessons/13-observability"
	"workshop.local/lessons/internal/harness"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson13"

// settle is how long specs wait for a controller to act on what they did.
const settle = 20 * time.Second

// controllerName is a controller name of its own for each spec: controller-runtime's metrics
// live in one registry per process, labelled by controller, so each spec reads its own.
func controllerName(ns string) string {
	return strings.ReplaceAll(ns, "-", "_")
}

// rig is one spec's controller: your Publisher with its Tally, behind a recorder that notes
// every call's reconcileID and error, in a manager whose logs go to book.
type rig struct {
	name  string
	mgr   manager.Manager
	store *fakeStore
	tally *observe.Tally
	book  *logBook
	rec   *harness.ReconcileRecorder
	calls *callLog
}

// setup builds a manager for namespace ns (edit, if not nil, changes its options) and adds
// your controller to it, with workers workers and retry as its rate limiter.
func setup(ns string, store *fakeStore, workers int, retry workqueue.TypedRateLimiter[reconcile.Request],
	edit func(*manager.Options)) *rig {
	GinkgoHelper()
	return setupReading(ns, store, workers, retry, edit, nil)
}

// setupReading is setup with the Publisher's Reader wrapped by wrap (nil: the manager's client
// as it is), for specs that make reads fail.
func setupReading(ns string, store *fakeStore, workers int, retry workqueue.TypedRateLimiter[reconcile.Request],
	edit func(*manager.Options), wrap func(client.Reader) client.Reader) *rig {
	GinkgoHelper()
	r := &rig{name: controllerName(ns), store: store, tally: &observe.Tally{}, book: &logBook{}, calls: &callLog{}}
	opts := harness.ManagerOptions(ns)
	opts.Logger = r.book.logger()
	if edit != nil {
		edit(&opts)
	}
	var err error
	r.mgr, err = manager.New(cluster.Config, opts)
	Expect(err).NotTo(HaveOccurred())
	var reader client.Reader = r.mgr.GetClient()
	if wrap != nil {
		reader = wrap(reader)
	}
	p := &observe.Publisher{Reader: reader, Store: store, Tally: r.tally, Controller: r.name}
	r.rec = harness.RecordReconciles(p)
	r.calls.inner = r.rec
	// NewController is support code: it gives the recorders (around your Publisher) and your
	// ControllerOptions to the Builder.
	Expect(observe.NewController(r.mgr, r.name, r.calls, workers, retry)).To(Succeed())
	return r
}

// start starts the rig's manager (stopped when the spec ends) and returns once its cache has
// synced.
func (r *rig) start(ctx context.Context) { harness.StartManager(ctx, r.mgr) }

// callLog wraps the Publisher and remembers, for each call, its request, reconcileID and
// error: the reconcileID ties a call to the lines it logged. When requeueOnce names a
// ConfigMap, the first call for it that succeeds returns a RequeueAfter, as a reconciler that
// polls something would (the specs of exercise 2 count it).
type callLog struct {
	inner       reconcile.Reconciler
	requeueOnce types.NamespacedName
	mu          sync.Mutex
	calls       []reconcileCall
	requeued    bool
}

type reconcileCall struct {
	Request     types.NamespacedName
	ReconcileID string
	Err         error
}

func (c *callLog) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := c.inner.Reconcile(ctx, req)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && !c.requeued && req.NamespacedName == c.requeueOnce {
		c.requeued = true
		res.RequeueAfter = 50 * time.Millisecond
	}
	c.calls = append(c.calls, reconcileCall{Request: req.NamespacedName, ReconcileID: string(controller.ReconcileIDFromContext(ctx)), Err: err})
	return res, err
}

// Failed returns how many finished calls returned an error.
func (c *callLog) Failed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, call := range c.calls {
		if call.Err != nil {
			n++
		}
	}
	return n
}

// For returns the finished calls for one ConfigMap.
func (c *callLog) For(name types.NamespacedName) []reconcileCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	var found []reconcileCall
	for _, call := range c.calls {
		if call.Request == name {
			found = append(found, call)
		}
	}
	return found
}

// createConfigMaps creates n ConfigMaps named name-0 … name-(n-1), each with i+1 keys, and
// returns them as the API server has them.
func createConfigMaps(ctx context.Context, ns, name string, n int) []*corev1.ConfigMap {
	GinkgoHelper()
	var made []*corev1.ConfigMap
	for i := range n {
		data := map[string]string{}
		for k := range i%3 + 1 {
			data[fmt.Sprintf("k%d", k)] = "v"
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("%s-%d", name, i)}, Data: data}
		got, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		made = append(made, got)
	}
	return made
}

// keysOf returns the "namespace/name" keys of cms.
func keysOf(cms []*corev1.ConfigMap) []string {
	keys := make([]string, 0, len(cms))
	for _, cm := range cms {
		keys = append(keys, cm.Namespace+"/"+cm.Name)
	}
	return keys
}

// freePort asks the kernel for a free TCP port on loopback and gives it back, for a metrics
// server to bind. (controller-runtime's manager does not say which port it bound for ":0".)
func freePort() int {
	GinkgoHelper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// family returns the metric family name from controller-runtime's registry (the one the
// manager serves), or nil when nothing registered it.
func family(name string) *dto.MetricFamily {
	GinkgoHelper()
	families, err := metrics.Registry.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() == name {
			return f
		}
	}
	return nil
}

// labelsOf returns a series' labels as a map.
func labelsOf(m *dto.Metric) map[string]string {
	labels := map[string]string{}
	for _, l := range m.GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	return labels
}

// seriesOf returns the series of f whose controller label is controller.
func seriesOf(f *dto.MetricFamily, controller string) []*dto.Metric {
	var found []*dto.Metric
	for _, m := range f.GetMetric() {
		if labelsOf(m)["controller"] == controller {
			found = append(found, m)
		}
	}
	return found
}

// sumOf adds up the counter or gauge values of the series of the family name (in
// controller-runtime's registry) for controller whose labels include want.
func sumOf(name, controller string, want map[string]string) float64 {
	GinkgoHelper()
	total := 0.0
	for _, m := range seriesOf(family(name), controller) {
		labels := labelsOf(m)
		match := true
		for k, v := range want {
			match = match && labels[k] == v
		}
		if match {
			total += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return total
}

// fmtValue prints a logged value as text (a resourceVersion, a UID, a number).
func fmtValue(v any) string { return fmt.Sprint(v) }

// configMap returns a ConfigMap to create, with one key.
func configMap(ns, name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string]string{"k": "v"}}
}

// createOptions are the options of every create.
var createOptions = metav1.CreateOptions{}

// countingLimiter is a rate limiter around another one that counts how often the controller
// asked it for a retry's delay: it tells whether a controller uses the limiter it was given.
type countingLimiter struct {
	workqueue.TypedRateLimiter[reconcile.Request]
	mu    sync.Mutex
	whens int
}

func (l *countingLimiter) When(item reconcile.Request) time.Duration {
	l.mu.Lock()
	l.whens++
	l.mu.Unlock()
	return l.TypedRateLimiter.When(item)
}

// Whens is how many delays the controller asked for.
func (l *countingLimiter) Whens() int { l.mu.Lock(); defer l.mu.Unlock(); return l.whens }

// failingReader is a client.Reader whose first Get of each object fails with err (an error
// other than NotFound, as a timeout or a cache not yet synced gives), then reads through.
type failingReader struct {
	client.Reader
	err    error
	mu     sync.Mutex
	failed map[types.NamespacedName]bool
}

func (f *failingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	f.mu.Lock()
	first := !f.failed[key]
	if f.failed == nil {
		f.failed = map[types.NamespacedName]bool{}
	}
	f.failed[key] = true
	f.mu.Unlock()
	if first {
		return f.err
	}
	return f.Reader.Get(ctx, key, obj, opts...)
}
