package operator_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// clusterWait is how long a spec waits for the cluster's own part (a pod scheduled and made
// ready by the node), apart from the controller's, so a slow node is not blamed on your code.
const clusterWait = 60 * time.Second

// running is the operator of one spec: its namespace, the directory it registers sites in, a
// record of its reconciles, a log of the requests it sent, the events its reconciler recorded,
// and the faults a spec can put in its way.
type running struct {
	ns         string
	directory  types.NamespacedName
	reconciles *harness.ReconcileRecorder
	requests   *harness.RequestLog
	events     *eventSpy
	faults     *faults
	// unregistered notes the sites a reconcile left with the finalizer and no entry.
	unregistered *unregistered
	stop         func() error // stops the operator's manager; start runs a new one
}

// startOperator runs the StaticSite controller, with your code, in a manager whose cache holds
// a new namespace, registering sites in a directory in a second namespace of its own. Failed
// reconciles are retried after 20 ms, doubling up to 640 ms (harness.FastRateLimiter), rather
// than after the controller's default delays, which grow to minutes, so a spec sees a recovery
// soon. Its reconciler's events pass through op.events, and its requests through op.faults.
func startOperator(ctx SpecContext) *running {
	GinkgoHelper()
	op := &running{ns: cluster.Namespace(ctx, prefix), requests: &harness.RequestLog{}, faults: &faults{}}
	op.directory = types.NamespacedName{Namespace: cluster.Namespace(ctx, prefix), Name: operator.DirectoryName}
	// Cleanups run last registered, first run: registered after the namespaces and before the
	// manager (op.start), this one runs once the manager has stopped and before the namespaces
	// are deleted. A site still carrying the finalizer would keep its namespace from going away.
	DeferCleanup(dropFinalizers, op.ns, NodeTimeout(30*time.Second))
	op.start(ctx)
	return op
}

// start runs the operator in a new manager, with a new record of its reconciles (after stop, a
// restart: its first reconciles are those of the sites as they are now).
func (op *running) start(ctx SpecContext) {
	GinkgoHelper()
	opts := harness.ManagerOptions(op.ns)
	Expect(v1alpha1.AddToScheme(opts.Scheme)).To(Succeed())
	cfg := op.requests.Watching(cluster.Config)
	cfg.Wrap(op.faults.wrap)
	mgr, err := manager.New(cfg, opts)
	Expect(err).NotTo(HaveOccurred())
	r := operator.NewReconciler(mgr, op.directory.Namespace)
	op.events = &eventSpy{inner: r.Recorder}
	r.Recorder = op.events
	op.unregistered = &unregistered{inner: r, directory: op.directory}
	op.reconciles = harness.RecordReconciles(op.unregistered)
	Expect(r.Wiring(mgr).WithOptions(controller.Options{RateLimiter: harness.FastRateLimiter()}).Complete(op.reconciles)).To(Succeed())
	op.stop = harness.StartManager(ctx, mgr)
}

// dropFinalizers takes every finalizer off the StaticSites left in ns, once the operator has
// stopped: the namespace can then be deleted whatever state a spec left them in.
func dropFinalizers(ctx SpecContext, ns string) {
	var list v1alpha1.StaticSiteList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	for _, site := range list.Items {
		if len(site.Finalizers) == 0 {
			continue
		}
		patch := client.MergeFrom(site.DeepCopy())
		site.Finalizers = nil
		Expect(client.IgnoreNotFound(k8s.Patch(ctx, &site, patch))).To(Succeed())
	}
}

// create creates site and returns it as the API server has it.
func create(ctx context.Context, site *v1alpha1.StaticSite) *v1alpha1.StaticSite {
	GinkgoHelper()
	Expect(k8s.Create(ctx, site)).To(Succeed())
	return site
}

// change reads obj from the API server, lets edit change it, and writes it back, retrying on
// a conflict with the controller's own writes.
func change[T client.Object](ctx context.Context, obj T, edit func(T)) {
	GinkgoHelper()
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		edit(obj)
		return k8s.Update(ctx, obj)
	})).To(Succeed())
}

// get reads obj (namespace and name set) from the API server.
func get[T client.Object](g Gomega, ctx context.Context, obj T) T {
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
	return obj
}

// page, deployment and service are site's children's keys, for get.
func page(site *v1alpha1.StaticSite) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: operator.PageName(site)}}
}
func deployment(site *v1alpha1.StaticSite) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name}}
}
func service(site *v1alpha1.StaticSite) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name}}
}

// controlledBy matches an object whose controller reference is site.
func controlledBy(site *v1alpha1.StaticSite) OmegaMatcher {
	return WithTransform(func(obj client.Object) bool {
		ref := metav1.GetControllerOf(obj)
		return ref != nil && ref.UID == site.UID && ref.Kind == "StaticSite"
	}, BeTrue())
}

// waitReady waits until site's Deployment has all its replicas ready: the cluster's part. The
// Deployment itself is the operator's part (exercise 2), so it gets the operator's wait first:
// without it, waiting the cluster's minute would only blame the cluster.
func waitReady(ctx context.Context, site *v1alpha1.StaticSite) {
	GinkgoHelper()
	Eventually(func(g Gomega) { get(g, ctx, deployment(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
		"the operator never made %s's Deployment, which this spec needs: exercise 2 comes first", site.Name)
	Eventually(func(g Gomega) int32 {
		return get(g, ctx, deployment(site)).Status.ReadyReplicas
	}).WithContext(ctx).WithTimeout(clusterWait).Should(Equal(site.Spec.Replicas),
		"the cluster did not make %s's web servers ready: is the workshop cluster's node Ready (make cluster-status)?", site.Name)
}

// childWrites are the writes the operator sent to site's children since its log was reset.
func (op *running) childWrites(site *v1alpha1.StaticSite) []string {
	var writes []string
	for _, w := range op.requests.Writes() {
		for _, child := range []string{"/configmaps/" + operator.PageName(site), "/deployments/" + site.Name, "/services/" + site.Name} {
			if strings.HasSuffix(w, child) || strings.Contains(w, child+"/") {
				writes = append(writes, w)
			}
		}
	}
	return writes
}

// statusWrites are the writes the operator sent to site's status since its log was reset.
func (op *running) statusWrites(site *v1alpha1.StaticSite) []string {
	return slices.DeleteFunc(op.requests.Writes(), func(w string) bool {
		return !strings.HasSuffix(w, "/staticsites/"+site.Name+"/status")
	})
}

// nudge makes the operator reconcile site once more, without changing anything it owns (an
// annotation on its page: Owns brings the page's update to the site), and waits for that
// reconcile to end.
func (op *running) nudge(ctx context.Context, site *v1alpha1.StaticSite, note string) {
	GinkgoHelper()
	key := client.ObjectKeyFromObject(site)
	before := op.reconciles.StartedFor(key)
	change(ctx, page(site), func(cm *corev1.ConfigMap) {
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["lesson10.workshop.local/nudge"] = note
	})
	// More calls finished than had started before the change: one that started after it ended.
	Eventually(func() int { return op.reconciles.CountFor(key) }).WithContext(ctx).WithTimeout(settle).
		Should(BeNumerically(">", before), "an update of %s's page should reconcile the site (Owns(&corev1.ConfigMap{}) in SetupWithManager)", site.Name)
}

// squat makes a ConfigMap named like site's page, controlled by another object, so that the
// operator cannot make the page its own: SetControllerReference refuses a second controller.
func squat(ctx context.Context, site *v1alpha1.StaticSite) *corev1.ConfigMap {
	GinkgoHelper()
	owner := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: "squatter"}}
	Expect(k8s.Create(ctx, owner)).To(Succeed())
	squatter := page(site)
	Expect(controllerutil.SetControllerReference(owner, squatter, scheme)).To(Succeed())
	Expect(k8s.Create(ctx, squatter)).To(Succeed())
	return squatter
}

// gone says whether obj no longer exists.
func gone(ctx context.Context, obj client.Object) func() bool {
	return func() bool {
		return apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj))
	}
}

// failures are the texts of the errors the operator's reconciles of site returned so far.
func (op *running) failures(site *v1alpha1.StaticSite) []string {
	var texts []string
	for _, call := range op.reconciles.For(client.ObjectKeyFromObject(site)) {
		if call.Err != nil {
			texts = append(texts, call.Err.Error())
		}
	}
	return texts
}

// containsAnyOf matches a string that contains one of texts (a message built around an error).
func containsAnyOf(texts func() []string) OmegaMatcher {
	return WithTransform(func(s string) bool {
		return slices.ContainsFunc(texts(), func(t string) bool { return t != "" && strings.Contains(s, t) })
	}, BeTrue())
}

// spied is one event the operator's reconciler recorded, as the spy saw it.
type spied struct {
	Regarding, Related         string // the objects' names ("" for no related object)
	Type, Reason, Action, Note string
}

// eventSpy stands between the reconciler and its event recorder: it notes each event as the
// reconciler sends it, then passes it on. Unlike the Events in the API server, which the
// recorder sends later, merges into series or drops, the spy sees every call at once.
type eventSpy struct {
	inner  recorder.EventRecorder
	mu     sync.Mutex
	events []spied
}

var _ recorder.EventRecorder = &eventSpy{}

func (s *eventSpy) Eventf(regarding, related runtime.Object, eventtype, reason, action, note string, args ...any) {
	s.note(regarding, related, eventtype, reason, action, fmt.Sprintf(note, args...))
	s.inner.Eventf(regarding, related, eventtype, reason, action, note, args...)
}

func (s *eventSpy) AnnotatedEventf(regarding, related runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...any) {
	s.note(regarding, related, eventtype, reason, action, fmt.Sprintf(note, args...))
	s.inner.AnnotatedEventf(regarding, related, annotations, eventtype, reason, action, note, args...)
}

func (s *eventSpy) note(regarding, related runtime.Object, eventtype, reason, action, note string) {
	e := spied{Regarding: nameOf(regarding), Related: nameOf(related), Type: eventtype, Reason: reason, Action: action, Note: note}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, e)
}

// mark is how many events the spy has seen: since(mark, ...) lists those that came after.
func (s *eventSpy) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.events)
}

// since lists the events regarding site, with one of reasons (any reason when none is given),
// recorded after mark.
func (s *eventSpy) since(mark int, site *v1alpha1.StaticSite, reasons ...string) []spied {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []spied
	for _, e := range s.events[mark:] {
		if e.Regarding == site.Name && (len(reasons) == 0 || slices.Contains(reasons, e.Reason)) {
			found = append(found, e)
		}
	}
	return found
}

func nameOf(obj runtime.Object) string {
	if obj == nil {
		return ""
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetName()
}

// faults makes chosen requests of the operator fail, as an API server that refuses a write
// would: a spec's way to see what the operator does when one step of a reconcile fails.
type faults struct {
	mu    sync.Mutex
	match func(*http.Request) bool
}

// failWrites makes every write (not a read) the operator sends to the object at path fail with
// an internal error, until clear. Its subresources (a site's /status) are not affected.
func (f *faults) failWrites(path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.match = func(r *http.Request) bool {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return false
		}
		return r.URL.Path == path
	}
}

// clear lets every request through again.
func (f *faults) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.match = nil
}

func (f *faults) wrap(rt http.RoundTripper) http.RoundTripper {
	return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		f.mu.Lock()
		fail := f.match != nil && f.match(r)
		f.mu.Unlock()
		if !fail {
			return rt.RoundTrip(r)
		}
		if r.Body != nil {
			_ = r.Body.Close()
		}
		const body = `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"InternalError","code":500,"message":"the spec made this write fail"}`
		return &http.Response{
			StatusCode: http.StatusInternalServerError, Status: "500 Internal Server Error", Request: r,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)),
		}, nil
	})
}

// sitePath and directoryPath are the URL paths of a site and of the operator's directory.
func sitePath(site *v1alpha1.StaticSite) string {
	return fmt.Sprintf("/apis/%s/namespaces/%s/staticsites/%s", v1alpha1.GroupVersion, site.Namespace, site.Name)
}
func (op *running) directoryPath() string {
	return fmt.Sprintf("/api/v1/namespaces/%s/configmaps/%s", op.directory.Namespace, op.directory.Name)
}
