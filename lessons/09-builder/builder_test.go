package sites_test

import (
	"context"
	"errors"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	sites "workshop.local/lessons/09-builder"
	"workshop.local/lessons/internal/harness"
)

// catchUp is how long after the hand-built controller yours may reconcile the same change.
const catchUp = 10 * time.Second

var _ = Describe("Exercise 1: the Builder", harness.Exercise(1), func() {
	It("reconciles the same Websites as the hand-built controller, for the same changes", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		// Both controllers run in one manager, so they see the same events; the parent's
		// predicate drops updates that did not change a Website's spec.
		handBuilt, built := harness.RecordReconciles(nil), harness.RecordReconciles(nil)
		_, err := sites.NewHandBuiltController(mgr, "website-handbuilt", handBuilt, harness.FastRateLimiter(), predicate.GenerationChangedPredicate{})
		Expect(err).NotTo(HaveOccurred())
		c, err := sites.NewWebsiteController(mgr, built, harness.FastRateLimiter(), predicate.GenerationChangedPredicate{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController failed")
		Expect(c).NotTo(BeNil(), "NewWebsiteController should return the controller Build made")
		harness.StartManager(ctx, mgr)

		step := func(what string, change func(), want ...string) {
			GinkgoHelper()
			// The same change, seen by both: first the hand-built controller (support code, so
			// this part only proves the script), then yours. Both hear of it from the same
			// informers, so yours is given a few seconds more, not the whole default wait.
			from := len(built.Requests())
			expectReconciles(ctx, handBuilt, "the hand-built controller, "+what, change, want...)
			Eventually(func() []string { return newKeys(built, from) }).WithContext(ctx).WithTimeout(catchUp).Should(ConsistOf(want),
				"%s: the hand-built controller reconciled %v, your controller should reconcile the same Websites (and no other key)", what, want)
		}
		quietStep := func(what string, change func()) {
			GinkgoHelper()
			from := len(built.Requests())
			expectReconciles(ctx, handBuilt, "the hand-built controller, "+what, change)
			Expect(newKeys(built, from)).To(BeEmpty(), "%s: the hand-built controller reconciled nothing, yours did", what)
		}
		var alpha, beta *sites.Website
		var page *corev1.ConfigMap
		a, b := ns+"/alpha", ns+"/beta"

		step("two Websites created (For)", func() {
			alpha, beta = createSite(ctx, ns, "alpha"), createSite(ctx, ns, "beta")
		}, a, b)
		step("alpha's page created (Owns: the child's event reconciles its controller, not the child)", func() {
			page = createPage(ctx, alpha)
		}, a)
		step("alpha's page edited (Owns; the parent's predicate must not filter the children's events)", func() {
			change(ctx, page, false, func(cm *corev1.ConfigMap) { cm.Data["index.html"] = "edited by hand" })
		}, a)
		step("the settings ConfigMap created (Watches with a map function: every Website in the namespace)", func() {
			createConfigMap(ctx, ns, sites.SettingsName, "footer", "<footer>workshop</footer>")
		}, a, b)
		quietStep("an unrelated ConfigMap created, alpha's status written, beta labelled (the map needs a predicate; the parent's predicate drops the rest)", func() {
			createConfigMap(ctx, ns, "notes", "k", "v")
			change(ctx, alpha, true, func(s *sites.Website) { s.Status.ReadyReplicas = 7 })
			change(ctx, beta, false, func(s *sites.Website) { s.Labels = map[string]string{"team": "web"} })
		})
		step("alpha's spec changed (For)", func() {
			change(ctx, alpha, false, func(s *sites.Website) { s.Spec.Replicas = 2 })
		}, a)
		step("alpha's page deleted (Owns)", func() {
			Expect(direct().Delete(ctx, page)).To(Succeed())
		}, a)
		step("beta's Deployment created (Owns)", func() {
			createDeployment(ctx, beta)
		}, b)
		Expect(built.Keys()).To(ConsistOf(handBuilt.Keys()), "over the whole script, your controller should reconcile the same Websites as the hand-built one")
	}, SpecTimeout(harness.Timeout))

	It("runs the Website reconciler: children made, readiness reported, a page deleted by hand put back", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		_, err := sites.NewWebsiteController(mgr, &sites.WebsiteReconciler{Client: mgr.GetClient()}, harness.FastRateLimiter(), predicate.GenerationChangedPredicate{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController failed")
		harness.StartManager(ctx, mgr)

		createConfigMap(ctx, ns, sites.SettingsName, "footer", "<footer>v1</footer>")
		site := createSite(ctx, ns, "alpha")
		pageKey := client.ObjectKey{Namespace: ns, Name: sites.PageName(site)}
		pageHTML := func(g Gomega) string {
			var page corev1.ConfigMap
			g.Expect(direct().Get(ctx, pageKey, &page)).To(Succeed())
			return page.Data["index.html"]
		}
		Eventually(pageHTML).WithContext(ctx).WithTimeout(settle).Should(Equal(site.Spec.Page+"<footer>v1</footer>"), "the Website's page should be made, with the settings' footer (For, and the reconciler)")
		// The cluster's part first: its Deployment controller and node make the pod ready, in
		// their own time. Then the controller's part: that status change must reach the site.
		Eventually(func(g Gomega) int32 {
			var deployment appsv1.Deployment
			g.Expect(direct().Get(ctx, client.ObjectKeyFromObject(site), &deployment)).To(Succeed())
			return deployment.Status.ReadyReplicas
		}).WithContext(ctx).WithTimeout(60*time.Second).Should(Equal(int32(1)), "the cluster did not make alpha's web server ready: is the workshop cluster's node Ready (make cluster-status)?")
		Eventually(func(g Gomega) sites.WebsiteStatus {
			var got sites.Website
			g.Expect(direct().Get(ctx, client.ObjectKeyFromObject(site), &got)).To(Succeed())
			return got.Status
		}).WithContext(ctx).WithTimeout(settle).Should(Equal(sites.WebsiteStatus{ObservedGeneration: 1, ReadyReplicas: 1}),
			"the Website should report its Deployment's ready replica: the Deployment's status changes when its pod is ready, and Owns(&appsv1.Deployment{}) brings that change to the Website's reconcile")

		var page corev1.ConfigMap
		Expect(direct().Get(ctx, pageKey, &page)).To(Succeed())
		Expect(direct().Delete(ctx, &page)).To(Succeed())
		Eventually(func(g Gomega) {
			var back corev1.ConfigMap
			g.Expect(direct().Get(ctx, pageKey, &back)).To(Succeed())
			g.Expect(back.UID).NotTo(Equal(page.UID))
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "a page deleted by hand should be made again: Owns(&corev1.ConfigMap{}) reconciles its Website")

		change(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sites.SettingsName}}, false, func(cm *corev1.ConfigMap) {
			cm.Data["footer"] = "<footer>v2</footer>"
		})
		Eventually(pageHTML).WithContext(ctx).WithTimeout(settle).Should(Equal(site.Spec.Page+"<footer>v2</footer>"), "new settings should reach every page: Watches the settings, mapped with SitesInNamespace")
	}, SpecTimeout(harness.Timeout))

	It("is named ControllerName and runs Workers workers", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		logs := &logLines{}
		mgr := newManager(cluster.Config, ns, func(o *manager.Options) { o.Logger = logs.logger() })
		_, err := sites.NewWebsiteController(mgr, harness.RecordReconciles(nil), harness.FastRateLimiter(), predicate.Funcs{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController failed")
		harness.StartManager(ctx, mgr)
		// A controller logs "Starting workers" with its name and its worker count when it
		// starts (pkg/internal/controller/controller.go).
		Eventually(func() []map[string]any { return logs.withMessage("Starting workers") }).WithContext(ctx).WithTimeout(settle).Should(ContainElement(And(
			HaveKeyWithValue("controller", sites.ControllerName),
			HaveKeyWithValue("worker count", BeNumerically("==", sites.Workers)),
		)), "the controller should log `Starting workers` as %q with a worker count of %d: Named(ControllerName), and WithOptions(controller.Options{MaxConcurrentReconciles: Workers, ...})", sites.ControllerName, sites.Workers)
	}, SpecTimeout(harness.Timeout))

	It("retries a failing Website at the pace of the rate limiter it was given", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		failures := 0
		rec := harness.RecordReconciles(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			if failures < 3 { // one worker per key: no two calls for one Website at once
				failures++
				return reconcile.Result{}, errors.New("injected by the spec: try again")
			}
			return reconcile.Result{}, nil
		}))
		_, err := sites.NewWebsiteController(mgr, rec, harness.FastRateLimiter(), predicate.Funcs{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController failed")
		harness.StartManager(ctx, mgr)

		site := client.ObjectKeyFromObject(createSite(ctx, ns, "flaky"))
		Eventually(func() int { return rec.CountFor(site) }).WithContext(ctx).WithTimeout(settle).Should(Equal(4), "a Website that failed 3 times should be tried 4 times")
		for i, gap := range rec.Gaps(site) {
			want := harness.FastRetryDelay(i + 1)
			Expect(gap).To(BeNumerically(">=", want), "retry %d came %s after the failure, before the rate limiter's %s: pass retry as the RateLimiter in WithOptions", i+1, gap, want)
			Expect(gap).To(BeNumerically("<", want+2*time.Second), "retry %d came %s after the failure; the rate limiter said %s", i+1, gap, want)
		}
	}, SpecTimeout(harness.Timeout))
})
