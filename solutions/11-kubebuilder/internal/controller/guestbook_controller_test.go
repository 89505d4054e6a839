package controller

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	webappv1 "workshop.local/lessons/11-kubebuilder/api/v1"
)

// Exercise 4: the controller's own envtest specs, as a kubebuilder project keeps them. The
// scaffold's suite_test.go starts envtest (an etcd and a kube-apiserver, nothing else) with the
// CRDs of config/crd/bases, and gives k8sClient (a client without a cache) and cfg. These specs
// promise what a user of the Guestbook API may count on, read back through k8sClient.
//
// envtest runs no controllers but the ones a spec starts: no Deployment controller (a
// Deployment never gets pods, nor a status, unless a spec writes one) and no garbage collector
// (deleting a Guestbook leaves its children; what the specs can check is that the children
// name the Guestbook as their controller, which is what the garbage collector follows).

// timeout is how long a spec waits for the controller: envtest answers in milliseconds, so
// this is slack for a loaded machine.
const timeout = 10 * time.Second

var _ = Describe("Guestbook Controller", func() {
	Context("When reconciling a resource", func() {
		const resourceName = "test-resource"

		var (
			typeNamespacedName   types.NamespacedName
			controllerReconciler *GuestbookReconciler
		)

		// reconcileOnce calls Reconcile once, as the controller would for an event of the
		// guestbook, and expects it to succeed.
		reconcileOnce := func(ctx context.Context) {
			GinkgoHelper()
			_, err := controllerReconciler.Reconcile(ctx, reconcile.Request{NamespacedName: typeNamespacedName})
			Expect(err).NotTo(HaveOccurred())
		}

		BeforeEach(func(ctx SpecContext) {
			By("creating the custom resource for the Kind Guestbook, in a namespace of its own")
			typeNamespacedName = types.NamespacedName{Name: resourceName, Namespace: newNamespace(ctx)}
			resource := &webappv1.Guestbook{
				ObjectMeta: metav1.ObjectMeta{
					Name:      resourceName,
					Namespace: typeNamespacedName.Namespace,
				},
				Spec: webappv1.GuestbookSpec{
					Title:    "Visitors",
					Replicas: 2,
					Theme:    "dark",
					Entries:  []string{"first!", "hello from Lisbon"},
				},
			}
			Expect(k8sClient.Create(ctx, resource)).To(Succeed())
			controllerReconciler = &GuestbookReconciler{
				Client: k8sClient,
				Scheme: k8sClient.Scheme(),
			}
		})

		AfterEach(func(ctx SpecContext) {
			resource := &webappv1.Guestbook{}
			err := k8sClient.Get(ctx, typeNamespacedName, resource)
			Expect(err).NotTo(HaveOccurred())

			By("Cleanup the specific resource instance Guestbook")
			Expect(k8sClient.Delete(ctx, resource)).To(Succeed())
		})

		It("makes the page ConfigMap and the Deployment, both controlled by the guestbook", func(ctx SpecContext) {
			By("Reconciling the created resource")
			reconcileOnce(ctx)

			guestbook := get(ctx, typeNamespacedName, &webappv1.Guestbook{})
			page := get(ctx, typeNamespacedName, &corev1.ConfigMap{})
			Expect(page.Data).To(HaveKeyWithValue("index.html", And(
				ContainSubstring("Visitors"), ContainSubstring("dark"), ContainSubstring("first!"), ContainSubstring("hello from Lisbon"),
			)), "the page should show the title, the theme and every entry")
			Expect(metav1.IsControlledBy(page, guestbook)).To(BeTrue(),
				"the ConfigMap should name the guestbook as its controller (the garbage collector deletes it with the guestbook), but its owners are %v", page.OwnerReferences)

			deployment := get(ctx, typeNamespacedName, &appsv1.Deployment{})
			Expect(deployment.Spec.Replicas).To(HaveValue(BeEquivalentTo(2)), "the Deployment should run spec.replicas web servers")
			Expect(deployment.Spec.Template.Spec.Volumes).To(ContainElement(HaveField("ConfigMap.Name", resourceName)),
				"the web servers should mount the page ConfigMap")
			Expect(metav1.IsControlledBy(deployment, guestbook)).To(BeTrue(),
				"the Deployment should name the guestbook as its controller (the garbage collector deletes it with the guestbook), but its owners are %v", deployment.OwnerReferences)
		}, SpecTimeout(time.Minute))

		It("brings a change of the guestbook to its children", func(ctx SpecContext) {
			reconcileOnce(ctx)

			By("changing the replicas and the entries, then reconciling again")
			change(ctx, typeNamespacedName, func(g *webappv1.Guestbook) {
				g.Spec.Replicas = 3
				g.Spec.Entries = append(g.Spec.Entries, "a later entry")
			})
			reconcileOnce(ctx)

			Expect(get(ctx, typeNamespacedName, &appsv1.Deployment{}).Spec.Replicas).To(HaveValue(BeEquivalentTo(3)),
				"the Deployment should follow a change of spec.replicas")
			Expect(get(ctx, typeNamespacedName, &corev1.ConfigMap{}).Data).To(HaveKeyWithValue("index.html", ContainSubstring("a later entry")),
				"the page should follow a change of spec.entries")
		}, SpecTimeout(time.Minute))

		It("is Available only once every web server is ready, and says which generation it saw", func(ctx SpecContext) {
			reconcileOnce(ctx)

			By("reading the status while the Deployment has no ready pod (envtest runs no Deployment controller)")
			guestbook := get(ctx, typeNamespacedName, &webappv1.Guestbook{})
			Expect(guestbook.Status.ReadyReplicas).To(BeZero(), "no web server is ready yet")
			expectAvailable(guestbook, metav1.ConditionFalse)

			By("making the Deployment's pods ready, as the Deployment controller would, then reconciling again")
			setReady(ctx, typeNamespacedName, 2)
			reconcileOnce(ctx)
			guestbook = get(ctx, typeNamespacedName, &webappv1.Guestbook{})
			Expect(guestbook.Status.ReadyReplicas).To(BeEquivalentTo(2), "status.readyReplicas should be the Deployment's readyReplicas")
			expectAvailable(guestbook, metav1.ConditionTrue)

			By("changing the entries only, then reconciling again")
			change(ctx, typeNamespacedName, func(g *webappv1.Guestbook) { g.Spec.Entries = []string{"hello"} })
			reconcileOnce(ctx)
			guestbook = get(ctx, typeNamespacedName, &webappv1.Guestbook{})
			Expect(guestbook.Generation).To(BeEquivalentTo(2))
			expectAvailable(guestbook, metav1.ConditionTrue)
		}, SpecTimeout(time.Minute))

		It("writes nothing when nothing changed", func(ctx SpecContext) {
			reconcileOnce(ctx)

			By("reconciling the unchanged guestbook again, through a client that notes every write")
			var writes []string
			controllerReconciler.Client = notingWrites(&writes)
			reconcileOnce(ctx)
			Expect(writes).To(BeEmpty(),
				"a reconcile of a guestbook whose children and status are already right should send no write to the API server")
		}, SpecTimeout(time.Minute))
	})

	Context("When running in a manager", func() {
		It("puts back a child that was changed or deleted, and follows its Deployment's readiness", func(ctx SpecContext) {
			ns := newNamespace(ctx)
			startManager(ctx, ns)
			key := types.NamespacedName{Namespace: ns, Name: "visitors"}
			Expect(k8sClient.Create(ctx, &webappv1.Guestbook{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: key.Name},
				Spec:       webappv1.GuestbookSpec{Title: "Visitors", Replicas: 2},
			})).To(Succeed())
			Eventually(func(g Gomega) {
				g.Expect(k8sClient.Get(ctx, key, &corev1.ConfigMap{})).To(Succeed())
				g.Expect(k8sClient.Get(ctx, key, &appsv1.Deployment{})).To(Succeed())
			}).WithContext(ctx).WithTimeout(timeout).Should(Succeed(), "the controller should make the page ConfigMap and the Deployment")

			By("deleting the page ConfigMap")
			page := get(ctx, key, &corev1.ConfigMap{})
			Expect(k8sClient.Delete(ctx, page)).To(Succeed())
			Eventually(func(g Gomega) types.UID {
				again := &corev1.ConfigMap{}
				g.Expect(k8sClient.Get(ctx, key, again)).To(Succeed())
				return again.UID
			}).WithContext(ctx).WithTimeout(timeout).ShouldNot(Equal(page.UID), "the controller should make the deleted page ConfigMap again")

			By("scaling the Deployment by hand")
			deployment := get(ctx, key, &appsv1.Deployment{})
			deployment.Spec.Replicas = new(int32(5))
			Expect(k8sClient.Update(ctx, deployment)).To(Succeed())
			Eventually(func(g Gomega) *int32 {
				g.Expect(k8sClient.Get(ctx, key, deployment)).To(Succeed())
				return deployment.Spec.Replicas
			}).WithContext(ctx).WithTimeout(timeout).Should(HaveValue(BeEquivalentTo(2)), "the controller should scale the Deployment back to the guestbook's 2")

			By("making the Deployment's pods ready")
			setReady(ctx, key, 2)
			Eventually(func(g Gomega) {
				guestbook := &webappv1.Guestbook{}
				g.Expect(k8sClient.Get(ctx, key, guestbook)).To(Succeed())
				g.Expect(guestbook.Status.ReadyReplicas).To(BeEquivalentTo(2))
				g.Expect(meta.IsStatusConditionTrue(guestbook.Status.Conditions, "Available")).To(BeTrue())
			}).WithContext(ctx).WithTimeout(timeout).Should(Succeed(),
				"once the Deployment reports its 2 web servers ready, the guestbook should say readyReplicas 2 and Available True")
		}, SpecTimeout(time.Minute))
	})
})

// newNamespace creates a namespace for one spec. envtest runs no namespace controller, so a
// deleted namespace would stay Terminating for ever: the specs leave theirs to envtest's end.
func newNamespace(ctx context.Context) string {
	GinkgoHelper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "guestbook-test-"}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	return ns.Name
}

// get reads the object named key from the API server into obj and returns obj.
func get[T client.Object](ctx context.Context, key types.NamespacedName, obj T) T {
	GinkgoHelper()
	Expect(k8sClient.Get(ctx, key, obj)).To(Succeed(), "%T %s should exist", obj, key)
	return obj
}

// change reads the guestbook, lets edit change its spec and writes it back.
func change(ctx context.Context, key types.NamespacedName, edit func(*webappv1.Guestbook)) {
	GinkgoHelper()
	guestbook := get(ctx, key, &webappv1.Guestbook{})
	edit(guestbook)
	Expect(k8sClient.Update(ctx, guestbook)).To(Succeed())
}

// setReady writes the Deployment's status as the Deployment controller would once ready of its
// pods are ready: envtest runs no Deployment controller, so nothing else ever does.
func setReady(ctx context.Context, key types.NamespacedName, ready int32) {
	GinkgoHelper()
	deployment := get(ctx, key, &appsv1.Deployment{})
	deployment.Status = appsv1.DeploymentStatus{
		ObservedGeneration: deployment.Generation,
		Replicas:           ready, UpdatedReplicas: ready, ReadyReplicas: ready, AvailableReplicas: ready,
	}
	Expect(k8sClient.Status().Update(ctx, deployment)).To(Succeed())
}

// expectAvailable checks the guestbook's Available condition has status want, and that the
// status says it describes the guestbook's current generation.
func expectAvailable(guestbook *webappv1.Guestbook, want metav1.ConditionStatus) {
	GinkgoHelper()
	Expect(guestbook.Status.ObservedGeneration).To(Equal(guestbook.Generation),
		"status.observedGeneration should be the generation the controller last reconciled")
	available := meta.FindStatusCondition(guestbook.Status.Conditions, "Available")
	Expect(available).NotTo(BeNil(), "the status should have an Available condition")
	Expect(available.Status).To(Equal(want), "Available should be %s with %d of %d web servers ready (%s)",
		want, guestbook.Status.ReadyReplicas, guestbook.Spec.Replicas, available.Message)
	Expect(available.ObservedGeneration).To(Equal(guestbook.Generation),
		"the Available condition's observedGeneration should be the generation the controller last reconciled")
}

// notingWrites is a client of the envtest API server that notes each write it sends in writes,
// as "Update ConfigMap ns/name" (interceptor.Funcs: a function per call, the real client's
// call inside).
func notingWrites(writes *[]string) client.Client {
	GinkgoHelper()
	direct, err := client.NewWithWatch(cfg, client.Options{Scheme: k8sClient.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	note := func(verb string, obj client.Object) {
		*writes = append(*writes, fmt.Sprintf("%s %T %s/%s", verb, obj, obj.GetNamespace(), obj.GetName()))
	}
	return interceptor.NewClient(direct, interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			note("Create", obj)
			return c.Create(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			note("Update", obj)
			return c.Update(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			note("Patch", obj)
			return c.Patch(ctx, obj, patch, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			note("Delete", obj)
			return c.Delete(ctx, obj, opts...)
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			note("Update "+sub+" of", obj)
			return c.SubResource(sub).Update(ctx, obj, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			note("Patch "+sub+" of", obj)
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
}

// startManager runs the controller in a manager of its own, as cmd/main.go does, until the spec
// ends: its cache holds namespace ns only, its metrics server is off (its default, :8080,
// would collide with another manager's), and its controller may share the name of another
// spec's (controller-runtime refuses a second controller of one name in a process otherwise).
func startManager(ctx context.Context, ns string) {
	GinkgoHelper()
	skipNameValidation := true
	mgr, err := manager.New(cfg, manager.Options{
		Scheme:     k8sClient.Scheme(),
		Cache:      cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Controller: config.Controller{SkipNameValidation: &skipNameValidation},
	})
	Expect(err).NotTo(HaveOccurred())
	Expect((&GuestbookReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme()}).SetupWithManager(mgr)).To(Succeed())

	mgrCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		defer GinkgoRecover()
		done <- mgr.Start(mgrCtx)
	}()
	DeferCleanup(func() {
		stop()
		Expect(<-done).To(Succeed(), "the manager should stop cleanly")
	})
}
