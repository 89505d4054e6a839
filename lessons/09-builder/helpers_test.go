package sites_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	sites "workshop.local/lessons/09-builder"
	"workshop.local/lessons/internal/harness"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson09"

// How long specs wait for a controller. Each watch, source and handler here acts within
// milliseconds of an event: quiet is how long a spec watches for reconciles that must not come,
// and settle how long it waits for a controller to act on a change (slack for a loaded machine;
// a wrong wiring then fails in 15 s instead of the default 30).
const (
	quiet  = time.Second
	settle = 15 * time.Second
)

// scheme knows client-go's kinds and Website, for the specs' own client.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(sites.AddToScheme(s))
	return s
}()

// newManager returns a manager whose cache holds the spec's namespace and whose Scheme knows
// Website; edit, if not nil, changes its options first. Start it with harness.StartManager.
func newManager(cfg *rest.Config, namespace string, edit func(*manager.Options)) manager.Manager {
	GinkgoHelper()
	opts := harness.ManagerOptions(namespace)
	Expect(sites.AddToScheme(opts.Scheme)).To(Succeed())
	if edit != nil {
		edit(&opts)
	}
	mgr, err := manager.New(cfg, opts)
	Expect(err).NotTo(HaveOccurred())
	return mgr
}

// direct is the specs' own client: no cache, every read and write goes to the API server.
func direct() client.Client {
	GinkgoHelper()
	c, err := client.New(cluster.Config, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// createSite creates a Website and returns it as the API server has it (with its UID).
func createSite(ctx context.Context, namespace, name string) *sites.Website {
	GinkgoHelper()
	site := &sites.Website{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       sites.WebsiteSpec{Replicas: 1, Page: "<h1>" + name + "</h1>"},
	}
	Expect(direct().Create(ctx, site)).To(Succeed())
	return site
}

// createPage creates site's page ConfigMap, controlled by site, as its reconciler would.
func createPage(ctx context.Context, site *sites.Website) *corev1.ConfigMap {
	GinkgoHelper()
	page := sites.DesiredPage(site, nil)
	Expect(controllerutil.SetControllerReference(site, page, scheme)).To(Succeed())
	Expect(direct().Create(ctx, page)).To(Succeed())
	return page
}

// createDeployment creates site's Deployment, controlled by site, as its reconciler would.
func createDeployment(ctx context.Context, site *sites.Website) *appsv1.Deployment {
	GinkgoHelper()
	deployment := sites.DesiredDeployment(site)
	Expect(controllerutil.SetControllerReference(site, deployment, scheme)).To(Succeed())
	Expect(direct().Create(ctx, deployment)).To(Succeed())
	return deployment
}

// createConfigMap creates a plain ConfigMap with one key.
func createConfigMap(ctx context.Context, namespace, name, key, value string) {
	GinkgoHelper()
	Expect(direct().Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Data:       map[string]string{key: value},
	})).To(Succeed())
}

// createSharedConfigMap creates a ConfigMap that controller controls and each of owners owns
// without controlling it (an owner reference with controller unset).
func createSharedConfigMap(ctx context.Context, name string, controller *sites.Website, owners ...*sites.Website) {
	GinkgoHelper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: controller.Namespace, Name: name}}
	Expect(controllerutil.SetControllerReference(controller, cm, scheme)).To(Succeed())
	for _, owner := range owners {
		Expect(controllerutil.SetOwnerReference(owner, cm, scheme)).To(Succeed())
	}
	Expect(direct().Create(ctx, cm)).To(Succeed())
}

// createSharedDeployment creates a Deployment (pods of its own) that controller controls and
// each of owners owns without controlling it.
func createSharedDeployment(ctx context.Context, name string, controller *sites.Website, owners ...*sites.Website) {
	GinkgoHelper()
	deployment := sites.DesiredDeployment(controller)
	deployment.Name = name
	labels := map[string]string{"lesson09.workshop.local/shared": name}
	deployment.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels}
	deployment.Spec.Template.Labels = labels
	Expect(controllerutil.SetControllerReference(controller, deployment, scheme)).To(Succeed())
	for _, owner := range owners {
		Expect(controllerutil.SetOwnerReference(owner, deployment, scheme)).To(Succeed())
	}
	Expect(direct().Create(ctx, deployment)).To(Succeed())
}

// change reads obj (its namespace and name must be set) from the API server, lets edit change
// it, and writes it back; status, if true, writes through the status subresource. A conflict
// (someone else wrote it in between, such as the cluster's Deployment controller) starts over.
func change[T client.Object](ctx context.Context, obj T, status bool, edit func(T)) {
	GinkgoHelper()
	c := direct()
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		edit(obj)
		if status {
			return c.Status().Update(ctx, obj)
		}
		return c.Update(ctx, obj)
	})).To(Succeed())
}

// websitesPath is the URL path of the Websites of a namespace.
func websitesPath(namespace string) string {
	return "/apis/lesson09.workshop.local/v1/namespaces/" + namespace + "/websites"
}

// liveLists returns the LIST requests (GETs of the collection that are not watches) in log for
// the collection at path, each as "path?query".
func liveLists(log *harness.RequestLog, path string) []string {
	var lists []string
	for _, r := range log.Requests() {
		if r.Method != http.MethodGet || r.URL.Path != path {
			continue
		}
		if watch := r.URL.Query().Get("watch"); watch == "true" || watch == "1" {
			continue
		}
		lists = append(lists, r.URL.Path+"?"+r.URL.RawQuery)
	}
	return lists
}

// keyOf is the request key ("namespace/name") of a Website, as ReconcileRecorder.Keys has it.
func keyOf(site *sites.Website) string { return site.Namespace + "/" + site.Name }

// newKeys is the distinct keys of the requests rec started after its first from requests.
func newKeys(rec *harness.ReconcileRecorder, from int) []string {
	var keys []string
	for _, req := range rec.Requests()[from:] {
		if key := req.String(); !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	return keys
}

// expectReconciles makes a change and checks that it makes rec reconcile exactly the keys in
// want, each at least once: nothing else, and, when want is empty, nothing for a while.
func expectReconciles(ctx context.Context, rec *harness.ReconcileRecorder, what string, change func(), want ...string) {
	GinkgoHelper()
	from := len(rec.Requests())
	change()
	since := func() []string { return newKeys(rec, from) }
	if len(want) == 0 {
		Consistently(since).WithContext(ctx).WithTimeout(quiet).Should(BeEmpty(), "%s: no reconcile should follow", what)
		return
	}
	Eventually(since).WithContext(ctx).WithTimeout(settle).Should(ConsistOf(want), "%s: exactly these Websites should be reconciled", what)
}

// logLines records what a logger wrote, one map per line (its message under "msg", and every
// key and value).
type logLines struct {
	mu    sync.Mutex
	lines []map[string]any
}

// logger returns a logger that writes to l (and, through Ginkgo, to the spec's output).
func (l *logLines) logger() logr.Logger {
	return funcr.NewJSON(func(obj string) {
		var line map[string]any
		if json.Unmarshal([]byte(obj), &line) == nil {
			l.mu.Lock()
			l.lines = append(l.lines, line)
			l.mu.Unlock()
		}
		GinkgoWriter.Println(obj)
	}, funcr.Options{})
}

// withMessage returns the lines logged with message msg.
func (l *logLines) withMessage(msg string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var found []map[string]any
	for _, line := range l.lines {
		if line["msg"] == msg {
			found = append(found, line)
		}
	}
	return found
}

// reconcileTotal is controller_runtime_reconcile_total{controller=name, result="success"} in
// controller-runtime's metrics registry: the reconciles of that controller that succeeded, in
// this test process (specs running before this one count too: compare before and after).
func reconcileTotal(name string) float64 {
	GinkgoHelper()
	families, err := metrics.Registry.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, family := range families {
		if family.GetName() != "controller_runtime_reconcile_total" {
			continue
		}
		for _, m := range family.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["controller"] == name && labels["result"] == "success" {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
