package pages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	pages "workshop.local/lessons/14-code-generator"
	"workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"
	pageinformers "workshop.local/lessons/14-code-generator/pkg/generated/informers/externalversions"
	pageinformersv1alpha1 "workshop.local/lessons/14-code-generator/pkg/generated/informers/externalversions/lesson14/v1alpha1"
	pagelisters "workshop.local/lessons/14-code-generator/pkg/generated/listers/lesson14/v1alpha1"

	"workshop.local/lessons/internal/harness"
)

// soon is how long a healthy controller takes, at most, to react on the workshop cluster;
// quick, how long one more step of a sync takes once the step before it is seen done.
const (
	soon  = 10 * time.Second
	quick = 3 * time.Second
)

// The rate limiter the specs give your controller: a failed key comes back after 20 ms, then
// 40 ms, doubling up to 640 ms.
const (
	baseDelay = 20 * time.Millisecond
	maxDelay  = 640 * time.Millisecond
)

// running is your controller as a spec started it, with what the spec watches of it.
type running struct {
	log     *harness.RequestLog // every request its clients (and informers) sent
	limiter *recordingLimiter   // its queue's rate limiter: the retries of each key
	handed  *handedOut          // every object its listers handed it
	pages   pagelisters.PageLister
}

// option changes how startController runs your controller.
type option func(*settings)

type settings struct {
	everyNamespace bool // the ConfigMap informer watches every namespace (sample-controller's way)
	refuseStatus   int  // the first n status writes of Pages are refused with a conflict
}

// configMapsOfEveryNamespace gives the controller a ConfigMap informer on every namespace, as
// sample-controller's is; its Page informer stays on the spec's namespace.
func configMapsOfEveryNamespace(s *settings) { s.everyNamespace = true }

// refusingStatusWrites refuses the first n writes to a Page's status with a conflict, as the
// API server refuses an UpdateStatus of an object changed in between.
func refusingStatusWrites(n int) option { return func(s *settings) { s.refuseStatus = n } }

// startController runs your controller on namespace ns, with its own informers (wrapped, so the
// spec sees what their listers hand out) and the fast rate limiter above (recorded), its
// requests recorded in the log.
func startController(ctx context.Context, ns string, opts ...option) *running {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	r := &running{log: &harness.RequestLog{}, handed: &handedOut{copies: map[runtime.Object]runtime.Object{}}}
	cfg := r.log.Watching(cluster.Config)
	if s.refuseStatus > 0 {
		cfg.Wrap(refuseStatusWrites(s.refuseStatus))
	}
	kube := kubernetes.NewForConfigOrDie(cfg)
	client := pageClient(cfg)
	bg := harness.Background(ctx)
	pageFactory := pageinformers.NewSharedInformerFactoryWithOptions(client, 0, pageinformers.WithNamespace(ns))
	cmNamespace := ns
	if s.everyNamespace {
		cmNamespace = metav1.NamespaceAll
	}
	kubeFactory := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(cmNamespace))
	pageInformer := pageFactory.Lesson14().V1alpha1().Pages()
	r.pages = pageInformer.Lister()
	r.limiter = &recordingLimiter{
		TypedRateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](baseDelay, maxDelay),
		retries:          map[cache.ObjectName][]time.Time{},
	}
	c, err := pages.NewController(bg, kube, client,
		watchedPageInformer{pageInformer, r.handed},
		watchedConfigMapInformer{kubeFactory.Core().V1().ConfigMaps(), r.handed},
		r.limiter)
	Expect(err).NotTo(HaveOccurred())
	pageFactory.Start(bg.Done())
	kubeFactory.Start(bg.Done())
	go func() {
		defer GinkgoRecover()
		_ = c.Run(bg, 2)
	}()
	DeferCleanup(func() {
		pageFactory.Shutdown()
		kubeFactory.Shutdown()
	})
	return r
}

// createPage creates a Page through the specs' own generated client.
func createPage(ctx context.Context, ns, name string, spec v1alpha1.PageSpec) *v1alpha1.Page {
	page, err := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Create(ctx,
		&v1alpha1.Page{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "creating a Page needs exercise 1's register.go")
	return page
}

// pageEvents lists the reasons of the events recorded on the Page ns/name.
func pageEvents(ctx context.Context, ns, name string) ([]string, error) {
	list, err := cluster.Clientset.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
	if err != nil {
		return nil, err
	}
	var reasons []string
	for _, e := range list.Items {
		if e.InvolvedObject.Kind == "Page" {
			reasons = append(reasons, e.Type+" "+e.Reason)
		}
	}
	return reasons, nil
}

// ownWrites are the writes to Pages and ConfigMaps among log's (events are not counted).
func ownWrites(log *harness.RequestLog) []string {
	return slices.DeleteFunc(log.Writes(), func(w string) bool { return strings.Contains(w, "/events") })
}

// oneObject is the path of one Page or ConfigMap (not of a collection, which informers list and
// watch).
var oneObject = regexp.MustCompile(`/namespaces/[^/]+/(pages|configmaps)/[^/]+$`)

// liveReads are the GETs of one Page or ConfigMap among log's: reads the listers could serve.
func liveReads(log *harness.RequestLog) []string {
	var reads []string
	for _, r := range log.Requests() {
		if r.Method == http.MethodGet && oneObject.MatchString(r.URL.Path) {
			reads = append(reads, "GET "+r.URL.Path)
		}
	}
	return reads
}

// pageStatus reads the status of the Page ns/name from the API server.
func pageStatus(ctx context.Context, ns, name string) (v1alpha1.PageStatus, error) {
	got, err := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return v1alpha1.PageStatus{}, err
	}
	return got.Status, nil
}

// expectCacheUntouched says the controller changed no object its listers handed it.
func expectCacheUntouched(r *running) {
	Expect(r.handed.changed()).To(BeEmpty(),
		"the controller changed objects its listers returned (below): a lister's objects are the informer's cache, shared with every reader, and must say what the API server says until the API server says otherwise")
}

var _ = Describe("Exercise 2: a controller on the generated code", harness.Exercise(2), func() {
	It("renders a Page into a ConfigMap the Page controls, reports it through /status, and records Synced", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		run := startController(ctx, ns)
		page := createPage(ctx, ns, "home", v1alpha1.PageSpec{Title: "Home", Body: "Welcome", Theme: "dark"})

		key := cache.ObjectName{Namespace: ns, Name: "home"}
		var cm *corev1.ConfigMap
		Eventually(func() error {
			var err error
			cm, err = cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-home", metav1.GetOptions{})
			// A sync may fail once on a cache a moment behind; a new Page's sync that keeps failing
			// will not create the ConfigMap by waiting longer.
			if n := run.limiter.retriesSince(key, time.Time{}); err != nil && n >= 3 {
				return StopTrying(fmt.Sprintf("the Page's sync failed %d times (its key was put back rate-limited) and no ConfigMap page-home exists: see the controller's errors in the output; the API server refuses a ConfigMap whose owner reference lacks the Page's apiVersion, kind, name or UID", n))
			}
			return err
		}).WithContext(ctx).WithTimeout(soon).Should(Succeed(), "no ConfigMap page-home: the controller never created the Page's ConfigMap (is each key taken from the queue handed to the sync?)")
		Expect(cm.Data).To(Equal(map[string]string{"title": "Home", "body": "Welcome", "theme": "dark"}))
		Expect(metav1.IsControlledBy(cm, page)).To(BeTrue(), "the ConfigMap's owner references %v do not make the Page its controller (metav1.NewControllerRef)", cm.OwnerReferences)

		Eventually(pageStatus).WithContext(ctx).WithArguments(ns, "home").WithTimeout(quick).Should(Equal(v1alpha1.PageStatus{ConfigMap: "page-home", ObservedGeneration: page.Generation}),
			"the Page's status was not written: with the status subresource, Update ignores .status; UpdateStatus writes it")
		Expect(ownWrites(run.log)).To(ContainElement("PUT /apis/lesson14.workshop.local/v1alpha1/namespaces/"+ns+"/pages/home/status"),
			"the status was not written through the status subresource")
		Eventually(pageEvents).WithContext(ctx).WithArguments(ns, "home").WithTimeout(quick).Should(ContainElement("Normal Synced"),
			"no Normal event Synced on the Page after it was synced: the controller reports each successful sync")
		Expect(liveReads(run.log)).To(BeEmpty(),
			"the controller read objects from the API server (below) that its listers hold: every read a sync needs comes from the informers' caches, which cost the API server nothing")
		expectCacheUntouched(run)
	}, SpecTimeout(harness.Timeout))

	It("follows a spec change, keeps what others put on the ConfigMap, and writes nothing when nothing changed", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		run := startController(ctx, ns)
		client := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns)
		createPage(ctx, ns, "news", v1alpha1.PageSpec{Title: "News"})
		Eventually(func() (string, error) {
			status, err := pageStatus(ctx, ns, "news")
			return status.ConfigMap, err
		}).WithContext(ctx).WithTimeout(soon).Should(Equal("page-news"))

		// Another tool labels and annotates the ConfigMap: not the controller's to keep or drop.
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Patch(ctx, "page-news", types.MergePatchType,
			[]byte(`{"metadata":{"labels":{"backup":"daily"},"annotations":{"example.com/reviewed":"yes"}}}`), metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())

		page, err := client.Patch(ctx, "news", types.MergePatchType, []byte(`{"spec":{"title":"Latest news"}}`), metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())
		var cm *corev1.ConfigMap
		Eventually(func() (string, error) {
			var err error
			cm, err = cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-news", metav1.GetOptions{})
			if err != nil {
				return "", err
			}
			return cm.Data["title"], nil
		}).WithContext(ctx).WithTimeout(soon).Should(Equal("Latest news"), "the ConfigMap did not follow the Page's new title")
		Expect(cm.Labels).To(HaveKeyWithValue("backup", "daily"),
			"the controller's update dropped the label another client had put on the ConfigMap: the controller owns the data, not the whole object")
		Expect(cm.Annotations).To(HaveKeyWithValue("example.com/reviewed", "yes"),
			"the controller's update dropped the annotation another client had put on the ConfigMap: the controller owns the data, not the whole object")
		Eventually(func() (int64, error) {
			status, err := pageStatus(ctx, ns, "news")
			return status.ObservedGeneration, err
		}).WithContext(ctx).WithTimeout(quick).Should(Equal(page.Generation), "status.observedGeneration did not follow the new generation")

		// A change that changes nothing the controller renders: a label.
		run.log.Reset()
		_, err = client.Patch(ctx, "news", types.MergePatchType, []byte(`{"metadata":{"labels":{"nudge":"1"}}}`), metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())
		Consistently(ownWrites).WithContext(ctx).WithArguments(run.log).Should(BeEmpty(),
			"a label on the Page changes nothing the controller renders, yet it wrote (below): a controller writes only what differs from what should be")
		Expect(liveReads(run.log)).To(BeEmpty(),
			"the controller read objects from the API server (below) that its listers hold: every read a sync needs comes from the informers' caches, which cost the API server nothing")
		expectCacheUntouched(run)
	}, SpecTimeout(harness.Timeout))

	It("leaves a ConfigMap it does not control alone, warns, backs off, and retries until it is gone", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		foreign := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "page-about"}, Data: map[string]string{"mine": "yes"}}
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, foreign, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		run := startController(ctx, ns)
		page := createPage(ctx, ns, "about", v1alpha1.PageSpec{Title: "About"})
		key := cache.ObjectName{Namespace: ns, Name: "about"}

		expectWarnedAndLeftAlone(ctx, ns, "about", foreign, "a ConfigMap it does not control (no owner references)")

		// While the foreign ConfigMap is there, every sync fails: the retries must back off
		// (20 ms, 40 ms, ... 640 ms: about 5 in 2 seconds, never more than 12).
		before := run.handed.pageReads()
		Consistently(func() int { return run.handed.pageReads() - before }).WithContext(ctx).WithTimeout(2*time.Second).Should(BeNumerically("<=", 12),
			"while the foreign ConfigMap was in the way, the Page was synced more than 12 times within 2 seconds (below, the count when the check stopped; a backoff from 20 ms doubling to 640 ms allows about 5): a key that fails comes back later each time (the queue's rate limiter), not at once")
		Expect(run.limiter.retriesSince(key, time.Time{})).To(BeNumerically(">=", 2),
			"while the foreign ConfigMap was in the way, the Page's failed sync was put back rate-limited fewer than 2 times in more than 2 seconds (below): a sync that could not do its work has failed, and its key comes back later, each time later, until it succeeds")

		// The foreign ConfigMap goes; nothing enqueues the Page but the retry of its failure.
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, "page-about", metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() (bool, error) {
			cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-about", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil && metav1.IsControlledBy(cm, page), err
		}).WithContext(ctx).WithTimeout(soon).Should(BeTrue(),
			"after the foreign ConfigMap was deleted, the Page got no ConfigMap: nothing enqueues the Page again but the retry of its failed sync")
		// The sync that created it goes on to the status and succeeds: a few milliseconds.
		Eventually(func() int { return run.limiter.NumRequeues(key) }).WithContext(ctx).WithTimeout(quick).Should(BeZero(),
			"the Page synced, but the queue still counts its earlier failures, so its next failure would wait up to 640 ms instead of 20 ms: the queue keeps counting a key's failures until it is told to forget them after a success")
	}, SpecTimeout(harness.Timeout))

	It("looks for a Page's ConfigMap in the Page's own namespace", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		other := cluster.Namespace(ctx, "lesson14")
		// A ConfigMap of the same name in another namespace, which the controller's
		// cluster-wide ConfigMap informer also holds.
		_, err := cluster.Clientset.CoreV1().ConfigMaps(other).Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "page-contact"}, Data: map[string]string{"elsewhere": "yes"}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		startController(ctx, ns, configMapsOfEveryNamespace)
		page := createPage(ctx, ns, "contact", v1alpha1.PageSpec{Title: "Contact"})

		const elsewhere = "a ConfigMap page-contact exists in another namespace, which the controller's informer (on every namespace) also holds: a Page's ConfigMap is the one of its own namespace"
		Eventually(func() (bool, error) {
			if reasons, err := pageEvents(ctx, ns, "contact"); err == nil && slices.Contains(reasons, "Warning ErrResourceExists") {
				return false, StopTrying("the controller warned that the Page's ConfigMap is taken (Warning ErrResourceExists), while the Page's namespace has no ConfigMap page-contact and " + elsewhere)
			}
			cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-contact", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil && metav1.IsControlledBy(cm, page), err
		}).WithContext(ctx).WithTimeout(soon).Should(BeTrue(),
			"the Page got no ConfigMap in its namespace while "+elsewhere)
		cm, err := cluster.Clientset.CoreV1().ConfigMaps(other).Get(ctx, "page-contact", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(cm.Data).To(Equal(map[string]string{"elsewhere": "yes"}), "the controller changed the ConfigMap of the same name in another namespace")
	}, SpecTimeout(harness.Timeout))

	It("leaves alone a ConfigMap that another object of the Page's kind and name controls", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		// Another operator's Page (another API group, another UID) controls a ConfigMap of
		// the name this Page wants. (The garbage collector cannot look that group up, so it
		// leaves the ConfigMap alone.)
		controls := true
		theirs := metav1.OwnerReference{APIVersion: "cms.lesson14.workshop.local/v1", Kind: "Page", Name: "team",
			UID: "00000000-0000-0000-0000-000000000014", Controller: &controls}
		taken := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "page-team", OwnerReferences: []metav1.OwnerReference{theirs}},
			Data:       map[string]string{"cms": "theirs"}}
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, taken, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		startController(ctx, ns)
		createPage(ctx, ns, "team", v1alpha1.PageSpec{Title: "Team"})

		expectWarnedAndLeftAlone(ctx, ns, "team", taken,
			"a ConfigMap that another object named team controls (another UID: a controller reference points at one object, by its UID)")
	}, SpecTimeout(harness.Timeout))

	It("lets a deleted Page go without retrying it", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		run := startController(ctx, ns)
		page := createPage(ctx, ns, "old", v1alpha1.PageSpec{Title: "Old"})
		key := cache.ObjectName{Namespace: ns, Name: "old"}
		Eventually(pageStatus).WithContext(ctx).WithArguments(ns, "old").WithTimeout(soon).Should(Equal(v1alpha1.PageStatus{ConfigMap: "page-old", ObservedGeneration: page.Generation}),
			"the Page was never synced")

		Expect(pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Delete(ctx, "old", metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() bool {
			_, err := run.pages.Pages(ns).Get("old")
			return apierrors.IsNotFound(err)
		}).WithContext(ctx).WithTimeout(soon).Should(BeTrue(), "the controller's informer never saw the Page deleted")
		// Its ConfigMap goes too (the garbage collector would delete it a little later): its
		// delete event brings the Page's key to the controller once more.
		err := cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, "page-old", metav1.DeleteOptions{})
		Expect(err == nil || apierrors.IsNotFound(err)).To(BeTrue(), "deleting the ConfigMap: %v", err)
		deleted := time.Now()

		// The delete event brings the key once more. A key that fails is back within 20 ms, then
		// 40 ms, ... at most 640 ms later, for ever: a second and a half with at most one failure
		// (a sync that read the Page just before it went) means the controller let the key go.
		Consistently(func() int { return run.limiter.retriesSince(key, deleted) }).WithContext(ctx).WithTimeout(1500*time.Millisecond).Should(BeNumerically("<=", 1),
			"after the Page and its ConfigMap were deleted, the Page's key kept failing (below, how many times it was put back rate-limited within 1.5 seconds): a Page that is gone leaves the controller nothing to do (the garbage collector deletes its ConfigMap), which is no error to retry")
	}, SpecTimeout(harness.Timeout))

	It("retries a sync whose status write failed", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		run := startController(ctx, ns, refusingStatusWrites(3))
		page := createPage(ctx, ns, "faq", v1alpha1.PageSpec{Title: "FAQ"})
		Eventually(func() error {
			_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-faq", metav1.GetOptions{})
			return err
		}).WithContext(ctx).WithTimeout(soon).Should(Succeed(), "no ConfigMap page-faq: the Page was never synced")
		// Three refusals retried after 20, 40 and 80 ms: the status is written well within 3 seconds.
		Eventually(pageStatus).WithContext(ctx).WithArguments(ns, "faq").WithTimeout(quick).Should(Equal(v1alpha1.PageStatus{ConfigMap: "page-faq", ObservedGeneration: page.Generation}),
			"the API server refused the first 3 status writes with a conflict (as it does when the Page changed in between), and the status was never written: a sync whose status write failed has failed, and its key comes back later")
		expectCacheUntouched(run)
	}, SpecTimeout(harness.Timeout))
})

// expectWarnedAndLeftAlone waits for the Warning ErrResourceExists on the Page ns/page, whose
// ConfigMap's name is taken by theirs (what is described), and fails at once when the controller
// changes that ConfigMap's data or owner references instead.
func expectWarnedAndLeftAlone(ctx context.Context, ns, page string, theirs *corev1.ConfigMap, what string) {
	GinkgoHelper()
	const warned = "warned"
	var outcome string // warned, or what the controller did to their ConfigMap
	Eventually(func() (string, error) {
		cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, theirs.Name, metav1.GetOptions{})
		switch {
		case err != nil:
			return "", err
		case !reflect.DeepEqual(cm.Data, theirs.Data):
			outcome = fmt.Sprintf("the controller wrote into %s, %s: its data is %v instead of %v; a ConfigMap that is not the Page's is left alone", theirs.Name, what, cm.Data, theirs.Data)
		case !reflect.DeepEqual(cm.OwnerReferences, theirs.OwnerReferences):
			outcome = fmt.Sprintf("the controller changed the owner references of %s, %s, to %v: a ConfigMap that is not the Page's is left alone, not taken over", theirs.Name, what, cm.OwnerReferences)
		default:
			reasons, err := pageEvents(ctx, ns, page)
			if slices.Contains(reasons, "Warning ErrResourceExists") {
				outcome = warned
			}
			return outcome, err
		}
		return outcome, nil
	}).WithContext(ctx).WithTimeout(soon).ShouldNot(BeEmpty(),
		"no Warning event ErrResourceExists on the Page, whose ConfigMap's name is taken by %s: the Page's events say why it has no ConfigMap", what)
	if outcome != warned {
		Fail(outcome)
	}
}

// refuseStatusWrites is a transport wrapper that answers the first n writes to a Page's status
// with 409 Conflict, without sending them.
func refuseStatusWrites(n int) func(http.RoundTripper) http.RoundTripper {
	var mu sync.Mutex
	refused := 0
	return func(rt http.RoundTripper) http.RoundTripper {
		return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodGet || !strings.Contains(r.URL.Path, "/pages/") || !strings.HasSuffix(r.URL.Path, "/status") {
				return rt.RoundTrip(r)
			}
			mu.Lock()
			refuse := refused < n
			if refuse {
				refused++
			}
			mu.Unlock()
			if !refuse {
				return rt.RoundTrip(r)
			}
			if r.Body != nil {
				_ = r.Body.Close()
			}
			status := metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   metav1.StatusFailure, Code: http.StatusConflict, Reason: metav1.StatusReasonConflict,
				Message: "Operation cannot be fulfilled on pages.lesson14.workshop.local: the object has been modified; please apply your changes to the latest version and try again (refused by the spec)",
			}
			body, err := json.Marshal(status)
			if err != nil {
				return nil, err
			}
			return &http.Response{
				StatusCode: http.StatusConflict, Status: "409 Conflict", Request: r,
				Header: http.Header{"Content-Type": []string{"application/json"}},
				Body:   io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
			}, nil
		})
	}
}

// recordingLimiter is the queue's rate limiter, recording when each key was retried (When).
type recordingLimiter struct {
	workqueue.TypedRateLimiter[cache.ObjectName]
	mu      sync.Mutex
	retries map[cache.ObjectName][]time.Time
}

func (l *recordingLimiter) When(key cache.ObjectName) time.Duration {
	l.mu.Lock()
	l.retries[key] = append(l.retries[key], time.Now())
	l.mu.Unlock()
	return l.TypedRateLimiter.When(key)
}

// retriesSince is how many times key was put back rate-limited since t.
func (l *recordingLimiter) retriesSince(key cache.ObjectName, t time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, at := range l.retries[key] {
		if !at.Before(t) {
			n++
		}
	}
	return n
}

// handedOut records every object the listers handed the controller, with a copy taken the
// first time, to tell later whether the controller changed it: client-go's cache mutation
// detector does the same, but it is switched on only by an environment variable read when the
// test binary starts, and it panics in a goroutine of its own that the informer starts, not in
// the spec.
type handedOut struct {
	mu     sync.Mutex
	copies map[runtime.Object]runtime.Object
	pages  int // reads through the Page lister: about one per sync
}

func (h *handedOut) record(objs ...runtime.Object) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, obj := range objs {
		if _, seen := h.copies[obj]; !seen {
			h.copies[obj] = obj.DeepCopyObject()
		}
	}
}

func (h *handedOut) pageRead() {
	h.mu.Lock()
	h.pages++
	h.mu.Unlock()
}

func (h *handedOut) pageReads() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pages
}

// changed names the objects that no longer equal their copy.
func (h *handedOut) changed() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var changed []string
	for obj, copied := range h.copies {
		if reflect.DeepEqual(obj, copied) {
			continue
		}
		switch o := obj.(type) {
		case *v1alpha1.Page:
			changed = append(changed, fmt.Sprintf("Page %s/%s%s", o.Namespace, o.Name, parts(o.Spec, copied.(*v1alpha1.Page).Spec, o.Status, copied.(*v1alpha1.Page).Status, o.ObjectMeta, copied.(*v1alpha1.Page).ObjectMeta)))
		case *corev1.ConfigMap:
			changed = append(changed, fmt.Sprintf("ConfigMap %s/%s%s", o.Namespace, o.Name, parts(o.Data, copied.(*corev1.ConfigMap).Data, nil, nil, o.ObjectMeta, copied.(*corev1.ConfigMap).ObjectMeta)))
		default:
			changed = append(changed, fmt.Sprintf("%T", obj))
		}
	}
	slices.Sort(changed)
	return changed
}

// parts says which parts of an object changed: its content (spec or data), status, metadata.
func parts(content, contentCopy, status, statusCopy any, meta, metaCopy metav1.ObjectMeta) string {
	var p []string
	if !reflect.DeepEqual(content, contentCopy) {
		p = append(p, "spec or data")
	}
	if !reflect.DeepEqual(status, statusCopy) {
		p = append(p, "status")
	}
	if !reflect.DeepEqual(meta, metaCopy) {
		p = append(p, "metadata")
	}
	return " (" + strings.Join(p, ", ") + " changed)"
}

// handOut records the objects a lister returns.
func handOut[T runtime.Object](h *handedOut, objs ...T) {
	for _, o := range objs {
		if !reflect.ValueOf(o).IsNil() {
			h.record(o)
		}
	}
}

// The wrappers below are the informers the controller gets: the real ones, whose listers
// record what they hand out.

type watchedPageInformer struct {
	pageinformersv1alpha1.PageInformer
	h *handedOut
}

func (w watchedPageInformer) Lister() pagelisters.PageLister {
	return watchedPageLister{w.PageInformer.Lister(), w.h}
}

type watchedPageLister struct {
	inner pagelisters.PageLister
	h     *handedOut
}

func (l watchedPageLister) List(selector labels.Selector) ([]*v1alpha1.Page, error) {
	l.h.pageRead()
	items, err := l.inner.List(selector)
	handOut(l.h, items...)
	return items, err
}

func (l watchedPageLister) Pages(namespace string) pagelisters.PageNamespaceLister {
	return watchedPageNamespaceLister{l.inner.Pages(namespace), l.h}
}

type watchedPageNamespaceLister struct {
	inner pagelisters.PageNamespaceLister
	h     *handedOut
}

func (l watchedPageNamespaceLister) List(selector labels.Selector) ([]*v1alpha1.Page, error) {
	l.h.pageRead()
	items, err := l.inner.List(selector)
	handOut(l.h, items...)
	return items, err
}

func (l watchedPageNamespaceLister) Get(name string) (*v1alpha1.Page, error) {
	l.h.pageRead()
	page, err := l.inner.Get(name)
	if err == nil {
		handOut(l.h, page)
	}
	return page, err
}

type watchedConfigMapInformer struct {
	coreinformers.ConfigMapInformer
	h *handedOut
}

func (w watchedConfigMapInformer) Lister() corelisters.ConfigMapLister {
	return watchedConfigMapLister{w.ConfigMapInformer.Lister(), w.h}
}

type watchedConfigMapLister struct {
	inner corelisters.ConfigMapLister
	h     *handedOut
}

func (l watchedConfigMapLister) List(selector labels.Selector) ([]*corev1.ConfigMap, error) {
	items, err := l.inner.List(selector)
	handOut(l.h, items...)
	return items, err
}

func (l watchedConfigMapLister) ConfigMaps(namespace string) corelisters.ConfigMapNamespaceLister {
	return watchedConfigMapNamespaceLister{l.inner.ConfigMaps(namespace), l.h}
}

type watchedConfigMapNamespaceLister struct {
	inner corelisters.ConfigMapNamespaceLister
	h     *handedOut
}

func (l watchedConfigMapNamespaceLister) List(selector labels.Selector) ([]*corev1.ConfigMap, error) {
	items, err := l.inner.List(selector)
	handOut(l.h, items...)
	return items, err
}

func (l watchedConfigMapNamespaceLister) Get(name string) (*corev1.ConfigMap, error) {
	cm, err := l.inner.Get(name)
	if err == nil {
		handOut(l.h, cm)
	}
	return cm, err
}
