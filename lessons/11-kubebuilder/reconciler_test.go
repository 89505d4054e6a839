//go:build workshop

package lesson11

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"workshop.local/lessons/internal/harness"
)

// image is the web servers' image the exercise asks for.
const image = "registry.k8s.io/pause:3.10"

// clusterWait is how long a spec waits for the cluster's own part (pods scheduled and made
// ready by the node), apart from the manager's, so a slow node is not blamed on your code.
const clusterWait = 60 * time.Second

// quiet is how long a spec watches for writes that should not come.
const quiet = 3 * time.Second

// create creates a Guestbook and returns it as the API server has it.
func create(ctx context.Context, gb *unstructured.Unstructured) *unstructured.Unstructured {
	GinkgoHelper()
	created, err := guestbooks(gb.GetNamespace()).Create(ctx, gb, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the Guestbook %s"+regenerate, gb.GetName())
	return created
}

// changeSpec sets the fields of values in gb's spec, retrying on a conflict with the manager's
// own writes, and returns the Guestbook's new generation.
func changeSpec(ctx context.Context, gb *unstructured.Unstructured, values map[string]any) int64 {
	GinkgoHelper()
	var generation int64
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		got, err := guestbooks(gb.GetNamespace()).Get(ctx, gb.GetName(), metav1.GetOptions{})
		if err != nil {
			return err
		}
		for key, value := range values {
			if err := unstructured.SetNestedField(got.Object, value, "spec", key); err != nil {
				return err
			}
		}
		updated, err := guestbooks(gb.GetNamespace()).Update(ctx, got, metav1.UpdateOptions{})
		if err == nil {
			generation = updated.GetGeneration()
		}
		return err
	})).To(Succeed())
	return generation
}

// page and deployment read gb's children from the API server.
func page(g Gomega, ctx context.Context, gb *unstructured.Unstructured) *corev1.ConfigMap {
	cm, err := cluster.Clientset.CoreV1().ConfigMaps(gb.GetNamespace()).Get(ctx, gb.GetName(), metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred(), "the ConfigMap %s (the page) should exist", gb.GetName())
	return cm
}

func deployment(g Gomega, ctx context.Context, gb *unstructured.Unstructured) *appsv1.Deployment {
	d, err := cluster.Clientset.AppsV1().Deployments(gb.GetNamespace()).Get(ctx, gb.GetName(), metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred(), "the Deployment %s should exist", gb.GetName())
	return d
}

// controlledBy matches an object whose controller reference is gb.
func controlledBy(gb *unstructured.Unstructured) OmegaMatcher {
	return WithTransform(func(obj metav1.Object) bool {
		ref := metav1.GetControllerOf(obj)
		return ref != nil && ref.UID == gb.GetUID() && ref.Kind == "Guestbook" && ref.APIVersion == group+"/v1"
	}, BeTrue())
}

// configMapOf is the name of the ConfigMap a volume holds ("" for another kind of volume).
func configMapOf(v corev1.Volume) string {
	if v.ConfigMap == nil {
		return ""
	}
	return v.ConfigMap.Name
}

// status reads gb's status from the API server.
func status(g Gomega, ctx context.Context, gb *unstructured.Unstructured) map[string]any {
	got, err := guestbooks(gb.GetNamespace()).Get(ctx, gb.GetName(), metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	s, _ := got.Object["status"].(map[string]any)
	return s
}

// available matches a status whose Available condition has the status s, a reason, and the
// observedGeneration generation; and whose own observedGeneration is generation too.
func available(s metav1.ConditionStatus, generation int64) OmegaMatcher {
	return And(
		HaveKeyWithValue("observedGeneration", BeNumerically("==", generation)),
		HaveKeyWithValue("conditions", ContainElement(And(
			HaveKeyWithValue("type", "Available"),
			HaveKeyWithValue("status", string(s)),
			HaveKeyWithValue("reason", Not(BeEmpty())),
			HaveKeyWithValue("observedGeneration", BeNumerically("==", generation)),
		))),
	)
}

// readyReplicas matches a status whose readyReplicas is n (a status without it counts as 0).
func readyReplicas(n int) OmegaMatcher {
	if n == 0 {
		return Or(Not(HaveKey("readyReplicas")), HaveKeyWithValue("readyReplicas", BeNumerically("==", 0)))
	}
	return HaveKeyWithValue("readyReplicas", BeNumerically("==", n))
}

// waitReady waits until gb's Deployment has n ready replicas: the cluster's part. The
// Deployment itself is the manager's part, so it gets the manager's wait first.
func waitReady(ctx context.Context, m *running, gb *unstructured.Unstructured, n int32) {
	GinkgoHelper()
	Eventually(func(g Gomega) { deployment(g, ctx, gb) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
		func() string { return "the manager never made the Deployment " + gb.GetName() + "." + m.diagnosis() })
	Eventually(func(g Gomega) int32 { return deployment(g, ctx, gb).Status.ReadyReplicas }).WithContext(ctx).WithTimeout(clusterWait).Should(Equal(n),
		"the cluster did not make %s's web servers ready: is the workshop cluster's node Ready (make cluster-status)?", gb.GetName())
}

// annotatePage and annotateDeployment put another tool's note (an annotation and a label) on
// gb's page ConfigMap or Deployment: a change that makes the manager reconcile gb, and that it
// must leave alone.
func annotatePage(ctx context.Context, gb *unstructured.Unstructured) {
	GinkgoHelper()
	cms := cluster.Clientset.CoreV1().ConfigMaps(gb.GetNamespace())
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm := page(Default, ctx, gb)
		metav1.SetMetaDataAnnotation(&cm.ObjectMeta, noteAnnotation, "page")
		metav1.SetMetaDataLabel(&cm.ObjectMeta, noteLabel, "page")
		_, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})).To(Succeed())
}

func annotateDeployment(ctx context.Context, gb *unstructured.Unstructured) {
	GinkgoHelper()
	deployments := cluster.Clientset.AppsV1().Deployments(gb.GetNamespace())
	Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d := deployment(Default, ctx, gb)
		metav1.SetMetaDataAnnotation(&d.ObjectMeta, noteAnnotation, "deployment")
		metav1.SetMetaDataLabel(&d.ObjectMeta, noteLabel, "deployment")
		_, err := deployments.Update(ctx, d, metav1.UpdateOptions{})
		return err
	})).To(Succeed())
}

// noteAnnotation and noteLabel are the annotation and the label of "another tool" on a child.
const (
	noteAnnotation = "example.com/note"
	noteLabel      = "example.com/team"
)

// otherImage is the image someone puts in the Deployment's pod template by hand.
const otherImage = "registry.k8s.io/pause:3.9"

var _ = Describe("Exercise 2: the reconciler", harness.Exercise(2), func() {
	BeforeEach(func() { requireManager() })

	It("makes the page ConfigMap and the Deployment, each controlled by the Guestbook", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startManager(ctx, ns, "")
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{
			"title": "Visitors", "replicas": int64(2), "theme": "dark", "entries": []any{"first!", "hello from Lisbon"},
		}))

		Eventually(func(g Gomega) {
			cm := page(g, ctx, gb)
			g.Expect(cm).To(controlledBy(gb), "the ConfigMap should name the Guestbook as its controller (an owner reference with controller: true; a plain owner reference does not bring the child's events to the Guestbook)")
			g.Expect(cm.Data).To(HaveKeyWithValue("index.html", And(ContainSubstring("Visitors"), ContainSubstring("dark"), ContainSubstring("first!"), ContainSubstring("hello from Lisbon"))),
				"the ConfigMap's index.html should show the title, the theme and every entry")
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), func() string { return "the page ConfigMap is not right." + m.diagnosis() })

		Eventually(func(g Gomega) {
			d := deployment(g, ctx, gb)
			g.Expect(d).To(controlledBy(gb), "the Deployment should name the Guestbook as its controller (an owner reference with controller: true)")
			g.Expect(d.Spec.Selector).NotTo(BeNil(), "the Deployment has no selector")
			g.Expect(d.Spec.Selector.MatchLabels).To(And(HaveKeyWithValue("app.kubernetes.io/name", "guestbook"), HaveKeyWithValue("app.kubernetes.io/instance", gb.GetName())),
				"the Deployment's selector should pick this Guestbook's web servers only (app.kubernetes.io/name: guestbook and app.kubernetes.io/instance: %s): a selector without the instance makes two Guestbooks of one namespace select each other's pods, and a selector cannot change later", gb.GetName())
			g.Expect(d.Spec.Replicas).To(HaveValue(Equal(int32(2))), "the Deployment should run spec.replicas web servers")
			g.Expect(d.Spec.Template.Spec.Containers).To(ContainElement(HaveField("Image", image)), "the web servers' image should be %s", image)
			g.Expect(d.Spec.Template.Spec.Volumes).To(ContainElement(WithTransform(configMapOf, Equal(gb.GetName()))), "the pods should mount the page ConfigMap (a volume of it)")
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), func() string { return "the Deployment is not right." + m.diagnosis() })
	}, SpecTimeout(harness.Timeout))

	It("lets a deleted Guestbook go without an error", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startManager(ctx, ns, "")
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1)}))
		Eventually(func(g Gomega) { deployment(g, ctx, gb); page(g, ctx, gb) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
			func() string { return "the Guestbook's children were never made." + m.diagnosis() })

		// Its deletion is an event too: the next reconcile finds the Guestbook gone. A reconcile
		// already running when it went (its children's changes start them) may fail, writing the
		// status of what is no longer there, and its retry too if the cache has not yet heard of
		// the deletion; then a retry finds it gone. A reconciler that returns Get's NotFound fails
		// every retry, with the queue's growing back-off (5 ms, 10 ms, 20 ms...): about ten
		// times in the quiet seconds.
		Expect(guestbooks(ns).Delete(ctx, gb.GetName(), metav1.DeleteOptions{})).To(Succeed())
		Consistently(notFoundErrors).WithArguments(m).WithContext(ctx).WithTimeout(quiet).Should(BeNumerically("<", 5),
			"reconciles of the deleted Guestbook keep returning an error (see the manager's log below), and controller-runtime retries each with a growing back-off: "+
				"a Guestbook that is gone (its read says NotFound) is nothing to do, its children go with the garbage collector")
	}, SpecTimeout(harness.Timeout))

	It("returns the error of a read or a status write that failed, so that the request is retried", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1)}))

		got := probe(ctx, "get", ns, gb.GetName())
		Expect(got.Error != "" || got.Retry).To(BeTrue(),
			"Reconcile was called for the Guestbook %s while its read of the Guestbook failed with an internal error (not NotFound: nothing says it is gone), and it returned no error and no RequeueAfter: the request is dropped, and the Guestbook waits for some other change to be reconciled. Only NotFound means gone", gb.GetName())

		got = probe(ctx, "status", ns, gb.GetName())
		Expect(got.Error != "" || got.Retry).To(BeTrue(),
			"Reconcile was called for the Guestbook %s while every write of its status failed with a conflict (another writer was first), and it returned no error and no RequeueAfter: the status stays stale until some other change reconciles the Guestbook, and a steady Guestbook may never see one", gb.GetName())
	}, SpecTimeout(harness.Timeout))

	It("follows changes of the Guestbook, and puts back a child changed or deleted by hand", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startManager(ctx, ns, "")
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1)}))
		Eventually(func(g Gomega) { deployment(g, ctx, gb); page(g, ctx, gb) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
			func() string { return "the manager never made the Guestbook's children." + m.diagnosis() })

		changeSpec(ctx, gb, map[string]any{"replicas": int64(3), "entries": []any{"a new entry"}})
		Eventually(func(g Gomega) {
			g.Expect(deployment(g, ctx, gb).Spec.Replicas).To(HaveValue(Equal(int32(3))), "the Deployment's replicas should follow spec.replicas (3)")
			g.Expect(page(g, ctx, gb).Data).To(HaveKeyWithValue("index.html", ContainSubstring("a new entry")), "the page should show the new entry")
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
			func() string {
				return "a change of the Guestbook (replicas 3, a new entry) should reach the children that already exist, not only the ones made afterwards." + m.diagnosis()
			})

		// Someone scales the Deployment by hand, and puts another image in its pod template.
		Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
			edited := deployment(Default, ctx, gb)
			edited.Spec.Replicas = new(int32(1))
			for i := range edited.Spec.Template.Spec.Containers {
				edited.Spec.Template.Spec.Containers[i].Image = otherImage
			}
			_, err := cluster.Clientset.AppsV1().Deployments(ns).Update(ctx, edited, metav1.UpdateOptions{})
			return err
		})).To(Succeed())
		Eventually(func(g Gomega) *int32 { return deployment(g, ctx, gb).Spec.Replicas }).WithContext(ctx).WithTimeout(settle).Should(HaveValue(Equal(int32(3))),
			func() string {
				return "someone scaled the Deployment to 1 by hand: the manager should set it back to the Guestbook's 3 (a change of a child should make the manager reconcile its Guestbook)." + m.diagnosis()
			})
		// The reconcile that put the replicas back has put the template back too, or never will.
		Eventually(func(g Gomega) []corev1.Container { return deployment(g, ctx, gb).Spec.Template.Spec.Containers }).WithContext(ctx).WithTimeout(2*time.Second).Should(
			And(ContainElement(HaveField("Image", image)), Not(ContainElement(HaveField("Image", otherImage)))),
			func() string {
				return "someone put the image " + otherImage + " in the Deployment's pod template by hand, and the manager, which put the replicas back, left the template so: the web servers' pod template is the Guestbook's to decide, on every reconcile, not only when the Deployment is made." + m.diagnosis()
			})

		old := page(Default, ctx, gb)
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, old.Name, metav1.DeleteOptions{})).To(Succeed())
		Eventually(func(g Gomega) types.UID { return page(g, ctx, gb).UID }).WithContext(ctx).WithTimeout(settle).ShouldNot(Equal(old.UID),
			func() string {
				return "someone deleted the page ConfigMap: the manager should make it again (the deletion of a child should make the manager reconcile its Guestbook)." + m.diagnosis()
			})
	}, SpecTimeout(harness.Timeout))

	It("reports observedGeneration, readyReplicas and Available through the status subresource", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startManager(ctx, ns, "")
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1)}))
		waitReady(ctx, m, gb, 1)
		Eventually(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(settle).Should(And(available(metav1.ConditionTrue, 1), readyReplicas(1)),
			func() string {
				return "with its one web server ready, the Guestbook's status (written through the status subresource) should say: observedGeneration 1 (the status's and the Available condition's), readyReplicas 1, Available True with a reason." + m.diagnosis()
			})

		generation := changeSpec(ctx, gb, map[string]any{"replicas": int64(2)})
		waitReady(ctx, m, gb, 2)
		Eventually(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(settle).Should(And(available(metav1.ConditionTrue, generation), readyReplicas(2)),
			func() string {
				return "after a change of the spec, observedGeneration (the status's and the condition's) should follow metadata.generation, and readyReplicas the Deployment's." + m.diagnosis()
			})

		// New entries change the Guestbook but not its Deployment, whose generation stays.
		generation = changeSpec(ctx, gb, map[string]any{"entries": []any{"hello"}})
		Eventually(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(settle).Should(available(metav1.ConditionTrue, generation),
			func() string {
				return "after a change of the entries alone, observedGeneration (the status's and the condition's) should be the Guestbook's metadata.generation: the status describes the Guestbook's spec, not the Deployment's." + m.diagnosis()
			})
	}, SpecTimeout(harness.Timeout))

	It("is not Available while its web servers are not all ready", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startManager(ctx, ns, "")
		gb := create(ctx, newGuestbook(ns, "stuck", map[string]any{"title": "Stuck", "replicas": int64(1)}))
		waitReady(ctx, m, gb, 1)
		// From now on a new pod cannot be scheduled: the second web server never becomes ready.
		unschedulable(ctx, ns)
		generation := changeSpec(ctx, gb, map[string]any{"replicas": int64(2)})
		Eventually(func(g Gomega) []int32 {
			d := deployment(g, ctx, gb)
			return []int32{d.Status.Replicas, d.Status.ReadyReplicas}
		}).WithContext(ctx).WithTimeout(clusterWait).Should(Equal([]int32{2, 1}),
			func() string {
				return "the Guestbook's Deployment should have made its second pod (which cannot be scheduled, so it never becomes ready)." + m.diagnosis()
			})
		partly := func() string {
			return "the Deployment has 2 pods of which 1 is ready (status.replicas 2, status.readyReplicas 1) for spec.replicas 2: readyReplicas 1, and Available False with a reason, since not every web server the spec asks for is ready." + m.diagnosis()
		}
		Eventually(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(settle).Should(And(available(metav1.ConditionFalse, generation), readyReplicas(1)), partly)
		// The status read may still be the one written before the Deployment made its pod, and
		// the manager may not have reconciled its change yet: it must stay so.
		Consistently(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(quiet).Should(And(available(metav1.ConditionFalse, generation), readyReplicas(1)), partly)
	}, SpecTimeout(harness.Timeout))

	It("writes nothing when nothing changed", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startManager(ctx, ns, "")
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1), "entries": []any{"hi"}}))
		waitReady(ctx, m, gb, 1)
		Eventually(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(settle).Should(And(available(metav1.ConditionTrue, 1), readyReplicas(1)),
			func() string { return "the Guestbook never became Available (see the status spec)." + m.diagnosis() })

		children := []string{"guestbooks", "configmaps", "deployments"}
		m.requests.reset()
		Consistently(func() []string { return m.writes(children...) }).WithContext(ctx).WithTimeout(quiet).Should(BeEmpty(),
			"with the Guestbook and its children as they should be, the idle manager should write nothing, yet it sent the writes above")

		// Another tool labels and annotates the page, then the Deployment: each change makes the
		// manager reconcile the Guestbook, and each of those reconciles must leave them so.
		annotatePage(ctx, gb)
		Consistently(func(g Gomega) {
			cm := page(g, ctx, gb)
			g.Expect(cm.Labels).To(HaveKeyWithValue(noteLabel, "page"), "another tool labelled the page ConfigMap %s=page, and the manager removed the label: a child's labels that are not the controller's are someone else's, and stay", noteLabel)
			g.Expect(cm.Annotations).To(HaveKey(noteAnnotation), "another tool annotated the page ConfigMap, and the manager removed the annotation: it is someone else's, and stays")
			g.Expect(m.writes(children...)).To(BeEmpty(), "another tool labelled and annotated the page ConfigMap, which makes the manager reconcile the Guestbook: with everything as it should be, that reconcile should write nothing, yet it sent these writes")
		}).WithContext(ctx).WithTimeout(quiet).ProbeEvery(100 * time.Millisecond).Should(Succeed())

		annotateDeployment(ctx, gb)
		Consistently(func(g Gomega) {
			g.Expect(deployment(g, ctx, gb).Labels).To(HaveKeyWithValue(noteLabel, "deployment"), "another tool labelled the Deployment %s=deployment, and the manager removed the label: a child's labels that are not the controller's are someone else's, and stay", noteLabel)
			g.Expect(m.writes(children...)).To(BeEmpty(), "another tool labelled and annotated the Deployment, which makes the manager reconcile the Guestbook: with everything as it should be, that reconcile should write nothing, yet it sent these writes (the API server fills in defaults in a stored object, a pod template's among them, that a freshly built one lacks)")
		}).WithContext(ctx).WithTimeout(quiet).ProbeEvery(100 * time.Millisecond).Should(Succeed())

		// Nothing else changes now (the Deployment's rollout is long over): only the page's own
		// deletion can bring the manager back to the Guestbook.
		old := page(Default, ctx, gb)
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, old.Name, metav1.DeleteOptions{})).To(Succeed())
		Eventually(func(g Gomega) types.UID { return page(g, ctx, gb).UID }).WithContext(ctx).WithTimeout(settle).ShouldNot(Equal(old.UID),
			func() string {
				return "someone deleted the page ConfigMap while the Guestbook and its Deployment were at rest: the manager should make it again (the deletion of a child should make the manager reconcile its Guestbook, whatever else happens)." + m.diagnosis()
			})
	}, SpecTimeout(harness.Timeout))
})

// unschedulable makes every pod created in ns from now on request more CPU than any node has (a
// LimitRange's default request), so the scheduler never places it and it never becomes ready.
// It returns once the API server applies the default (a dry-run pod gets it).
func unschedulable(ctx SpecContext, ns string) {
	GinkgoHelper()
	huge := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1000")}
	limits := &corev1.LimitRange{
		ObjectMeta: metav1.ObjectMeta{Name: "unschedulable"},
		Spec:       corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer, DefaultRequest: huge, Default: huge}}},
	}
	_, err := cluster.Clientset.CoreV1().LimitRanges(ns).Create(ctx, limits, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	Eventually(func(g Gomega) corev1.ResourceList {
		probe := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "probe"},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "probe", Image: image}}},
		}
		created, err := cluster.Clientset.CoreV1().Pods(ns).Create(ctx, probe, dryRun)
		g.Expect(err).NotTo(HaveOccurred())
		return created.Spec.Containers[0].Resources.Requests
	}).WithContext(ctx).WithTimeout(settle).Should(HaveKey(corev1.ResourceCPU), "the API server did not apply the LimitRange's default CPU request")
}
