package sites_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
		requests := &harness.RequestLog{}
		mgr := newManager(requests.Watching(cluster.Config), ns, nil)
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
		// sharedStep is a step whose object has owners besides its controller. One event may
		// enqueue several keys whose reconciles start one after the other: it holds on a moment,
		// so that a key too many shows.
		sharedStep := func(what string, change func(), want ...string) {
			GinkgoHelper()
			from := len(built.Requests())
			step(what, change, want...)
			Consistently(func() []string { return newKeys(built, from) }).WithContext(ctx).WithTimeout(time.Second).Should(ConsistOf(want),
				"%s: the hand-built controller reconciled %v, your controller reconciled another Website too", what, want)
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
		sharedStep("a ConfigMap that alpha controls and beta only owns (Owns enqueues the controller, not every owner)", func() {
			createSharedConfigMap(ctx, "shared", alpha, beta)
		}, a)
		requests.Reset()
		step("the settings ConfigMap created (Watches with a map function: every Website in the namespace)", func() {
			createConfigMap(ctx, ns, sites.SettingsName, "footer", "<footer>workshop</footer>")
		}, a, b)
		Expect(liveLists(requests, websitesPath(ns))).To(BeEmpty(),
			"the settings' map function listed Websites from the API server at each event: give SitesInNamespace the manager's client (its cache), not the API reader")
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
		sharedStep("a Deployment that beta controls and alpha only owns (Owns enqueues the controller, not every owner)", func() {
			createSharedDeployment(ctx, "shared", beta, alpha)
		}, b)
		Expect(built.Keys()).To(ConsistOf(handBuilt.Keys()), "over the whole script, your controller should reconcile the same Websites as the hand-built one")
	}, SpecTimeout(harness.Timeout))

	It("runs the Website reconciler: children made, status reported, children changed by hand put back", func(ctx SpecContext) {
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
		Eventually(func(g Gomega) int64 {
			var got sites.Website
			g.Expect(direct().Get(ctx, client.ObjectKeyFromObject(site), &got)).To(Succeed())
			return got.Status.ObservedGeneration
		}).WithContext(ctx).WithTimeout(settle).Should(Equal(int64(1)), "the Website should report the generation its reconciler acted on (status.observedGeneration 1)")

		// A child changed by hand is put back: its event reaches the Website that controls it.
		deploymentKey := client.ObjectKeyFromObject(site)
		change(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: deploymentKey.Name}}, false, func(d *appsv1.Deployment) {
			d.Spec.Replicas = ptr.To(int32(3))
		})
		Eventually(func(g Gomega) int32 {
			var deployment appsv1.Deployment
			g.Expect(direct().Get(ctx, deploymentKey, &deployment)).To(Succeed())
			return ptr.Deref(deployment.Spec.Replicas, 0)
		}).WithContext(ctx).WithTimeout(settle).Should(Equal(site.Spec.Replicas), "a Deployment scaled by hand should be scaled back to the Website's replicas: Owns(&appsv1.Deployment{}) reconciles its Website")

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

	It("is named ControllerName and reconciles up to Workers Websites at once, no more", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		// Each reconcile waits until the spec releases it (or the manager stops), so the
		// reconciles that run at once pile up: as many as the controller has workers.
		release := make(chan struct{})
		var releaseOnce sync.Once
		releaseAll := func() { releaseOnce.Do(func() { close(release) }) }
		rec := harness.RecordReconciles(reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return reconcile.Result{}, nil
		}))
		_, err := sites.NewWebsiteController(mgr, rec, harness.FastRateLimiter(), predicate.Funcs{})
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController failed")
		succeeded := reconcileTotal(sites.ControllerName)
		harness.StartManager(ctx, mgr)
		DeferCleanup(releaseAll) // registered after StartManager's cleanup, so it runs first

		for i := range sites.Workers + 1 {
			createSite(ctx, ns, fmt.Sprintf("site-%d", i))
		}
		Eventually(rec.Running).WithContext(ctx).WithTimeout(settle).Should(Equal(sites.Workers), func() string {
			return fmt.Sprintf("%d Websites were waiting and the controller reconciled %d at once: it should run Workers (%d) workers (MaxConcurrentReconciles, set in the same WithOptions call as the rate limiter)",
				sites.Workers+1, rec.Running(), sites.Workers)
		})
		Consistently(rec.Running).WithContext(ctx).WithTimeout(quiet).Should(BeNumerically("<=", sites.Workers),
			"the controller reconciled more than Workers (%d) Websites at once", sites.Workers)
		releaseAll()
		Eventually(rec.Count).WithContext(ctx).WithTimeout(settle).Should(Equal(sites.Workers+1), "once released, every Website should be reconciled")
		// The name is the controller label of its metrics: its reconciles count under it.
		Eventually(func() float64 { return reconcileTotal(sites.ControllerName) - succeeded }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", sites.Workers+1),
			"controller_runtime_reconcile_total{controller=%q} did not count the controller's reconciles: Named(ControllerName)", sites.ControllerName)
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
