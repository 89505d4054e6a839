package sites_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	sites "workshop.local/lessons/09-builder"
	"workshop.local/lessons/internal/harness"
)

// Failure messages for the two checks every ReadinessChanged spec makes first.
const (
	readinessDropsAll  = "ReadinessChanged dropped an update whose status.readyReplicas went from 1 to 2: a pod became ready, the site's readiness changed"
	readinessPassesAll = "ReadinessChanged let through an update that only added an annotation (same readyReplicas): is exercise 3 still the stub?"
)

// createIdleDeployment creates a Deployment controlled by site, with no replicas: no pod is ever
// made for it, so its ready replicas change only when a spec writes its status. It is named
// apart from its site (site-web), so that only its owner reference leads to the site.
func createIdleDeployment(ctx context.Context, site *sites.Website) *appsv1.Deployment {
	GinkgoHelper()
	deployment := sites.DesiredDeployment(site)
	deployment.Name = site.Name + "-web"
	deployment.Spec.Replicas = ptr.To(int32(0))
	Expect(controllerutil.SetControllerReference(site, deployment, scheme)).To(Succeed())
	Expect(direct().Create(ctx, deployment)).To(Succeed())
	return deployment
}

var _ = Describe("Exercise 3: a second controller and its filter", harness.Exercise(3), func() {
	// This is the only spec with name validation on. controller-runtime remembers every name
	// it validated for the life of the process (pkg/controller/name.go), so a second spec like
	// it in the same process would collide with this one; the other specs' managers skip the
	// check (harness.ManagerOptions).
	It("runs beside the Website controller in a manager that validates controller names", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, func(o *manager.Options) {
			o.Controller.SkipNameValidation = ptr.To(false)
		})
		_, err := sites.NewWebsiteController(mgr, harness.RecordReconciles(nil), harness.FastRateLimiter(), predicate.Funcs{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController (exercise 1) failed: this exercise adds a second controller beside it")
		_, err = sites.NewReadinessController(mgr, harness.RecordReconciles(nil))
		Expect(err).NotTo(HaveOccurred(), "adding the readiness controller beside the Website controller failed: each controller in a process needs a name of its own (Named)")

		// What happens without Named: the Builder names a controller after its kind,
		// lower-cased, and "website" is taken. The same chain with a fresh name is accepted, so
		// the name is what was refused.
		_, err = ctrl.NewControllerManagedBy(mgr).For(&sites.Website{}).Build(harness.RecordReconciles(nil))
		Expect(err).To(HaveOccurred(),
			"a third controller For(&Website{}) without Named is named \"website\", like the Website controller of exercise 1: Build should refuse it")
		_, err = ctrl.NewControllerManagedBy(mgr).Named("website_third").For(&sites.Website{}).Build(harness.RecordReconciles(nil))
		Expect(err).NotTo(HaveOccurred(), "the same controller with a name of its own should be accepted")
	}, SpecTimeout(harness.Timeout))

	It("logs and counts its reconciles under its own name, apart from the Website controller's", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		logs := &logLines{}
		mgr := newManager(cluster.Config, ns, func(o *manager.Options) { o.Logger = logs.logger() })
		// Each reconciler logs through the logger its controller puts in the context.
		logging := func(msg string) *harness.ReconcileRecorder {
			return harness.RecordReconciles(reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
				log.FromContext(ctx).Info(msg)
				return reconcile.Result{}, nil
			}))
		}
		website, readiness := logging("reconciled by the Website controller"), logging("reconciled by the readiness controller")
		_, err := sites.NewWebsiteController(mgr, website, harness.FastRateLimiter(), predicate.Funcs{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController (exercise 1) failed")
		_, err = sites.NewReadinessController(mgr, readiness)
		Expect(err).NotTo(HaveOccurred(), "NewReadinessController failed")
		before := reconcileTotal(sites.ReadinessControllerName)
		harness.StartManager(ctx, mgr)

		site := createSite(ctx, ns, "alpha")
		Eventually(readiness.Keys).WithContext(ctx).WithTimeout(settle).Should(ContainElement(keyOf(site)), "the readiness controller never reconciled a new Website: For(&Website{})")
		Eventually(func() []map[string]any { return logs.withMessage("reconciled by the readiness controller") }).WithContext(ctx).WithTimeout(settle).Should(
			ContainElement(HaveKeyWithValue("controller", sites.ReadinessControllerName)),
			"the logger in the readiness controller's context should say controller=%q: Named(ReadinessControllerName)", sites.ReadinessControllerName)
		Eventually(func() []map[string]any { return logs.withMessage("reconciled by the Website controller") }).WithContext(ctx).WithTimeout(settle).Should(
			ContainElement(HaveKeyWithValue("controller", sites.ControllerName)), "the Website controller of exercise 1 should log as controller=%q", sites.ControllerName)
		Eventually(func() float64 { return reconcileTotal(sites.ReadinessControllerName) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">", before),
			"controller_runtime_reconcile_total{controller=%q} did not grow: a controller's metrics carry its name", sites.ReadinessControllerName)
	}, SpecTimeout(harness.Timeout))

	Describe("ReadinessChanged", func() {
		// deployment is a Deployment as the informer would deliver it: two replicas wanted, one
		// ready and available; edit changes it.
		deployment := func(resourceVersion string, edit func(*appsv1.Deployment)) *appsv1.Deployment {
			d := &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "alpha", Generation: 1, ResourceVersion: resourceVersion},
				Spec:       appsv1.DeploymentSpec{Replicas: ptr.To(int32(2))},
				Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 2, UpdatedReplicas: 2,
					ReadyReplicas: 1, AvailableReplicas: 1, UnavailableReplicas: 1},
			}
			if edit != nil {
				edit(d)
			}
			return d
		}
		old := deployment("10", nil)
		podReady := deployment("11", func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 2 })
		annotated := deployment("11", func(d *appsv1.Deployment) { d.Annotations = map[string]string{"note": "x"} })

		It("lets creations, deletions and generic events through", func() {
			p := sites.ReadinessChanged()
			Expect(p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: annotated})).To(BeFalse(), readinessPassesAll)
			Expect(p.Create(event.CreateEvent{Object: old})).To(BeTrue(), "a new Deployment: its site's readiness starts, let it through")
			Expect(p.Delete(event.DeleteEvent{Object: old})).To(BeTrue(), "a deleted Deployment: its site has no web server left, let it through")
			Expect(p.Generic(event.GenericEvent{Object: old})).To(BeTrue(), "a generic event is an explicit request to reconcile")
		})

		DescribeTable("lets an update of a Deployment through only when its ready replicas changed",
			func(before, after client.Object, want bool, why string) {
				p := sites.ReadinessChanged()
				Expect(p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: podReady})).To(BeTrue(), readinessDropsAll)
				Expect(p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: annotated})).To(BeFalse(), readinessPassesAll)
				Expect(p.Update(event.UpdateEvent{ObjectOld: before, ObjectNew: after})).To(Equal(want), why)
			},
			Entry("a pod became ready", old, podReady, true,
				"status.readyReplicas went from 1 to 2: let the update through"),
			Entry("a pod stopped being ready", old, deployment("11", func(d *appsv1.Deployment) {
				d.Status.ReadyReplicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas = 0, 0, 2
			}), true,
				"status.readyReplicas went from 1 to 0: readiness that drops is a change too, compare old and new for any difference"),
			Entry("a ready pod became available", podReady, deployment("12", func(d *appsv1.Deployment) {
				d.Status.ReadyReplicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas = 2, 2, 0
			}), false,
				"only status.availableReplicas changed (a ready pod passed minReadySeconds); the site reports status.readyReplicas, drop the update"),
			Entry("the Deployment controller made a pod", old, deployment("11", func(d *appsv1.Deployment) { d.Status.Replicas = 3 }), false,
				"only status.replicas changed (a pod that is not ready yet): drop the update"),
			Entry("the Deployment was scaled", old, deployment("11", func(d *appsv1.Deployment) { d.Generation, d.Spec.Replicas = 2, ptr.To(int32(3)) }), false,
				"the spec changed (and the generation) but no more pods are ready yet: drop the update, the ready pods will come with their own update"),
			Entry("the Deployment controller caught up with the generation", old, deployment("11", func(d *appsv1.Deployment) { d.Status.ObservedGeneration = 2 }), false,
				"only status.observedGeneration changed: drop the update"),
			Entry("an update of a ready Deployment that changed something else", podReady, deployment("12", func(d *appsv1.Deployment) {
				d.Status.ReadyReplicas = 2
				d.Labels = map[string]string{"team": "web"}
			}), false,
				"readyReplicas is 2 before and after: compare the old and the new value rather than ask whether pods are ready"),
			Entry("nothing changed (a resync)", old, deployment("10", nil), false,
				"an informer's resync delivers the object it has as an update: drop it"),
			Entry("an update of a Website, not a Deployment", &sites.Website{ObjectMeta: metav1.ObjectMeta{Name: "alpha", ResourceVersion: "10"}},
				&sites.Website{ObjectMeta: metav1.ObjectMeta{Name: "alpha", ResourceVersion: "11"}, Status: sites.WebsiteStatus{ReadyReplicas: 1}}, false,
				"ReadinessChanged is for Deployments only: an update of anything else is dropped"),
		)
	})

	It("reconciles a Website for each of its events, and when the readiness of its Deployment changes", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		rec := harness.RecordReconciles(nil)
		_, err := sites.NewReadinessController(mgr, rec)
		Expect(err).NotTo(HaveOccurred(), "NewReadinessController failed")
		harness.StartManager(ctx, mgr)

		var alpha, beta *sites.Website
		expectReconciles(ctx, rec, "two Websites created (For)", func() {
			alpha, beta = createSite(ctx, ns, "alpha"), createSite(ctx, ns, "beta")
		}, ns+"/alpha", ns+"/beta")
		// The Deployment has no replicas, so no pod ever changes its readiness: the cluster's
		// Deployment controller still updates it (an annotation, its status), and this spec
		// writes its ready replicas itself, as that controller would when a pod became ready.
		var deployment *appsv1.Deployment
		expectReconciles(ctx, rec, "alpha's Deployment created (Owns(&appsv1.Deployment{}): a creation passes ReadinessChanged)", func() {
			deployment = createIdleDeployment(ctx, alpha)
		}, keyOf(alpha))
		expectReconciles(ctx, rec, "alpha's Deployment annotated by hand (its ready replicas did not change: ReadinessChanged on the Deployments' watch should drop it)", func() {
			change(ctx, deployment, false, func(d *appsv1.Deployment) { d.Annotations = map[string]string{"note": "x"} })
		})
		expectReconciles(ctx, rec, "beta's status overwritten by someone else (every event of a Website counts: no predicate on For, none for the whole controller)", func() {
			change(ctx, beta, true, func(s *sites.Website) { s.Status.ReadyReplicas = 7 })
		}, keyOf(beta))
		expectReconciles(ctx, rec, "alpha's Deployment reports a ready replica (status.readyReplicas 0 to 1: ReadinessChanged lets it through)", func() {
			change(ctx, deployment, true, func(d *appsv1.Deployment) {
				d.Status.Replicas, d.Status.ReadyReplicas = 1, 1
			})
		}, keyOf(alpha))
	}, SpecTimeout(harness.Timeout))
})
