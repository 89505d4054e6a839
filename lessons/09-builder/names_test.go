package sites_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	sites "workshop.local/lessons/09-builder"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: two controllers, two names", harness.Exercise(3), func() {
	// This is the only spec with name validation on. controller-runtime remembers every name
	// it validated for the life of the process (pkg/controller/name.go), so a second spec like
	// it in the same process would collide with this one; the other specs' managers skip the
	// check (harness.ManagerOptions).
	It("runs beside the Website controller in a manager that validates controller names", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, func(o *manager.Options) {
			validate := false
			o.Controller.SkipNameValidation = &validate
		})
		_, err := sites.NewWebsiteController(mgr, harness.RecordReconciles(nil), harness.FastRateLimiter(), predicate.Funcs{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController (exercise 1) failed: this exercise adds a second controller beside it")
		_, err = sites.NewReadinessController(mgr, harness.RecordReconciles(nil))
		Expect(err).NotTo(HaveOccurred(), "adding the readiness controller beside the Website controller failed: each controller in a process needs a name of its own (Named)")

		// What happens without Named: the Builder names a controller after its kind,
		// lower-cased, and "website" is taken.
		_, err = ctrl.NewControllerManagedBy(mgr).For(&sites.Website{}).Build(harness.RecordReconciles(nil))
		Expect(err).To(MatchError(ContainSubstring("controller with name website already exists")),
			"a third controller For(&Website{}) without Named is named \"website\", like the Website controller of exercise 1, and is refused")
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
		Eventually(website.Keys).WithContext(ctx).WithTimeout(settle).Should(ContainElement(keyOf(site)))
		Eventually(func() []map[string]any { return logs.withMessage("reconciled by the readiness controller") }).WithContext(ctx).WithTimeout(settle).Should(
			ContainElement(HaveKeyWithValue("controller", sites.ReadinessControllerName)),
			"the logger in the readiness controller's context should say controller=%q: Named(ReadinessControllerName)", sites.ReadinessControllerName)
		Expect(logs.withMessage("reconciled by the Website controller")).To(ContainElement(HaveKeyWithValue("controller", sites.ControllerName)))
		Eventually(func() float64 { return reconcileTotal(sites.ReadinessControllerName) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">", before),
			"controller_runtime_reconcile_total{controller=%q} did not grow: a controller's metrics carry its name", sites.ReadinessControllerName)
	}, SpecTimeout(harness.Timeout))

	It("reconciles a Website when the Deployment it controls changes", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		rec := harness.RecordReconciles(nil)
		_, err := sites.NewReadinessController(mgr, rec)
		Expect(err).NotTo(HaveOccurred(), "NewReadinessController failed")
		harness.StartManager(ctx, mgr)
		alpha, beta := createSite(ctx, ns, "alpha"), createSite(ctx, ns, "beta")
		Eventually(rec.Keys).WithContext(ctx).WithTimeout(settle).Should(ConsistOf(keyOf(alpha), keyOf(beta)), "the readiness controller should reconcile new Websites: For(&Website{})")
		expectReconciles(ctx, rec, "alpha's Deployment created, then updated by the cluster's Deployment controller (Owns(&appsv1.Deployment{}))", func() {
			createDeployment(ctx, alpha)
		}, keyOf(alpha))
	}, SpecTimeout(harness.Timeout))
})
