package pages_test

import (
	"context"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	pages "workshop.local/lessons/14-code-generator"
	"workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"
	pageinformers "workshop.local/lessons/14-code-generator/pkg/generated/informers/externalversions"

	"workshop.local/lessons/internal/harness"
)

// soon is how long a healthy controller takes, at most, to react on the workshop cluster.
const soon = 10 * time.Second

// startController runs your controller on namespace ns, with its own informers and a fast rate
// limiter (retries after 20 ms, doubling up to 640 ms), its requests recorded in the returned log.
func startController(ctx context.Context, ns string) *harness.RequestLog {
	log := &harness.RequestLog{}
	cfg := log.Watching(cluster.Config)
	kube := kubernetes.NewForConfigOrDie(cfg)
	client := pageClient(cfg)
	bg := harness.Background(ctx)
	pageFactory := pageinformers.NewSharedInformerFactoryWithOptions(client, 0, pageinformers.WithNamespace(ns))
	kubeFactory := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(ns))
	limiter := workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](20*time.Millisecond, 640*time.Millisecond)
	c, err := pages.NewController(bg, kube, client, pageFactory.Lesson14().V1alpha1().Pages(), kubeFactory.Core().V1().ConfigMaps(), limiter)
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
	return log
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

var _ = Describe("Exercise 2: a controller on the generated code", harness.Exercise(2), func() {
	It("renders a Page into a ConfigMap the Page controls, reports it through /status, and records Synced", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		log := startController(ctx, ns)
		page := createPage(ctx, ns, "home", v1alpha1.PageSpec{Title: "Home", Body: "Welcome", Theme: "dark"})

		var cm *corev1.ConfigMap
		Eventually(func() error {
			var err error
			cm, err = cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-home", metav1.GetOptions{})
			return err
		}).WithContext(ctx).WithTimeout(soon).Should(Succeed(), "no ConfigMap page-home: does processNextWorkItem hand keys to syncHandler, and does it create the ConfigMap?")
		Expect(cm.Data).To(Equal(map[string]string{"title": "Home", "body": "Welcome", "theme": "dark"}))
		Expect(metav1.IsControlledBy(cm, page)).To(BeTrue(), "the ConfigMap's owner references %v do not make the Page its controller (metav1.NewControllerRef)", cm.OwnerReferences)

		Eventually(func() (v1alpha1.PageStatus, error) {
			got, err := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Get(ctx, "home", metav1.GetOptions{})
			return got.Status, err
		}).WithContext(ctx).WithTimeout(soon).Should(Equal(v1alpha1.PageStatus{ConfigMap: "page-home", ObservedGeneration: page.Generation}),
			"the Page's status was not written: with the status subresource, Update ignores .status; UpdateStatus writes it")
		Expect(ownWrites(log)).To(ContainElement("PUT /apis/lesson14.workshop.local/v1alpha1/namespaces/" + ns + "/pages/home/status"))
		Eventually(pageEvents).WithContext(ctx).WithArguments(ns, "home").WithTimeout(soon).Should(ContainElement("Normal Synced"),
			"no Normal event Synced on the Page: record one with the controller's recorder after a sync")
	}, SpecTimeout(harness.Timeout))

	It("follows a spec change, and writes nothing when nothing changed", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		log := startController(ctx, ns)
		client := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns)
		createPage(ctx, ns, "news", v1alpha1.PageSpec{Title: "News"})
		Eventually(func() (string, error) {
			got, err := client.Get(ctx, "news", metav1.GetOptions{})
			return got.Status.ConfigMap, err
		}).WithContext(ctx).WithTimeout(soon).Should(Equal("page-news"))

		page, err := client.Patch(ctx, "news", types.MergePatchType, []byte(`{"spec":{"title":"Latest news"}}`), metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() (string, error) {
			cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-news", metav1.GetOptions{})
			return cm.Data["title"], err
		}).WithContext(ctx).WithTimeout(soon).Should(Equal("Latest news"), "the ConfigMap did not follow the Page's new title")
		Eventually(func() (int64, error) {
			got, err := client.Get(ctx, "news", metav1.GetOptions{})
			return got.Status.ObservedGeneration, err
		}).WithContext(ctx).WithTimeout(soon).Should(Equal(page.Generation), "status.observedGeneration did not follow the new generation")

		// A change that changes nothing the controller renders: a label.
		log.Reset()
		_, err = client.Patch(ctx, "news", types.MergePatchType, []byte(`{"metadata":{"labels":{"nudge":"1"}}}`), metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())
		Consistently(ownWrites).WithContext(ctx).WithArguments(log).Should(BeEmpty(),
			"a sync that changes nothing wrote again: compare the ConfigMap's data and the status with what they should be before writing")
	}, SpecTimeout(harness.Timeout))

	It("leaves a ConfigMap it does not control alone, warns, and retries until it is gone", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		foreign := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "page-about"}, Data: map[string]string{"mine": "yes"}}
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, foreign, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		startController(ctx, ns)
		page := createPage(ctx, ns, "about", v1alpha1.PageSpec{Title: "About"})

		Eventually(pageEvents).WithContext(ctx).WithArguments(ns, "about").WithTimeout(soon).Should(ContainElement("Warning ErrResourceExists"),
			"no Warning event ErrResourceExists on the Page, whose ConfigMap's name is taken by a ConfigMap it does not control")
		cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-about", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(cm.Data).To(Equal(foreign.Data), "the controller changed a ConfigMap it does not control")
		Expect(cm.OwnerReferences).To(BeEmpty(), "the controller adopted a ConfigMap it does not control")

		// The foreign ConfigMap goes; nothing enqueues the Page but the retry of its failure.
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, "page-about", metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() (bool, error) {
			cm, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "page-about", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil && metav1.IsControlledBy(cm, page), err
		}).WithContext(ctx).WithTimeout(soon).Should(BeTrue(),
			"after the foreign ConfigMap was deleted, the Page got no ConfigMap: after an error, processNextWorkItem must put the key back rate-limited (AddRateLimited)")
	}, SpecTimeout(harness.Timeout))
})
