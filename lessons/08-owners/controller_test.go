package owners_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

// reconcileWait bounds each wait for your controller to react: it takes well under a second
// when the watches are right, and a missing watch fails in this time, not in 30 s.
const reconcileWait = 15 * time.Second

var _ = Describe("Exercise 3: owner watches", harness.Exercise(3), func() {
	var ns string

	// start runs your controller, calling rec, in a manager of its own.
	start := func(ctx SpecContext, rec reconcile.Reconciler) {
		GinkgoHelper()
		ns = cluster.Namespace(ctx, prefix)
		mgr := newManager(ns)
		c, err := owners.NewWebsiteController(mgr, rec)
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController failed")
		Expect(c).NotTo(BeNil(), "NewWebsiteController should return the controller it made")
		harness.StartManager(ctx, mgr)
	}
	// ownedConfigMap creates a ConfigMap with a reference to site: a controller reference, or
	// a plain owner reference.
	ownedConfigMap := func(ctx context.Context, site *owners.Website, name string, controller bool) {
		GinkgoHelper()
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string]string{"k": "v"}}
		if controller {
			Expect(controllerutil.SetControllerReference(site, cm, newScheme())).To(Succeed())
		} else {
			Expect(controllerutil.SetOwnerReference(site, cm, newScheme())).To(Succeed())
		}
		create(ctx, cm)
	}

	It("reconciles a Website when it is created", func(ctx SpecContext) {
		rec := harness.RecordReconciles(nil)
		start(ctx, rec)
		site := newSite(ns, "blog", 1)
		create(ctx, site)
		Eventually(rec.Keys).WithContext(ctx).WithTimeout(reconcileWait).Should(ContainElement(ns+"/blog"),
			"creating a Website should reconcile it: watch Websites with a handler that enqueues the object itself")
	}, SpecTimeout(harness.Timeout))

	It("reconciles the site when a child it controls changes, never the child itself", func(ctx SpecContext) {
		rec := harness.RecordReconciles(nil)
		start(ctx, rec)
		site := newSite(ns, "blog", 0)
		create(ctx, site)
		siteKey := client.ObjectKeyFromObject(site)
		Eventually(func() int { return rec.StartedFor(siteKey) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeNumerically(">=", 1), "creating a Website should reconcile it")

		ownedConfigMap(ctx, site, "blog-page", true)
		Eventually(func() int { return rec.StartedFor(siteKey) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeNumerically(">=", 2),
			"a ConfigMap controlled by the site was created, but the site was not reconciled: watch ConfigMaps with handler.TypedEnqueueRequestForOwner(..., &Website{}, ...)")
		seen := rec.StartedFor(siteKey)

		deploy := newDeployment(site)
		Expect(controllerutil.SetControllerReference(site, deploy, newScheme())).To(Succeed())
		create(ctx, deploy)
		Eventually(func() int { return rec.StartedFor(siteKey) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeNumerically(">", seen),
			"a Deployment controlled by the site was created, but the site was not reconciled: watch Deployments with handler.TypedEnqueueRequestForOwner too")
		Expect(rec.Keys()).To(ConsistOf(ns+"/blog"),
			"only the site should be reconciled: a child's event should enqueue its owner (EnqueueRequestForOwner), not the child (EnqueueRequestForObject)")
	}, SpecTimeout(harness.Timeout))

	It("follows only controller references to Websites of this group", func(ctx SpecContext) {
		rec := harness.RecordReconciles(nil)
		start(ctx, rec)
		controlled, referenced := newSite(ns, "blog", 0), newSite(ns, "shop", 0)
		create(ctx, controlled)
		create(ctx, referenced)
		// shop is only an owner of this ConfigMap, not its controller.
		ownedConfigMap(ctx, referenced, "shop-notes", false)
		// This one's controller is a Website named shop too, but of another API group: another
		// kind, which no Website of lesson08.workshop.local has anything to do with.
		create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "foreign-notes", OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "lesson08.other.workshop.local/v1", Kind: "Website", Name: "shop",
				UID: "77777777-7777-7777-7777-777777777777", Controller: ptr.To(true),
			}}},
			Data: map[string]string{"k": "v"},
		})
		for _, site := range []*owners.Website{controlled, referenced} {
			key := client.ObjectKeyFromObject(site)
			Eventually(func() int { return rec.CountFor(key) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeNumerically(">=", 1), "creating Website %s should reconcile it", site.Name)
		}

		// The ConfigMap informer delivers these events in order, and the queue hands out
		// requests of equal priority (these are) first in, first out: once blog's reconcile for
		// the last has started, a request for shop caused by one of the first two would have
		// started too.
		change(ctx, types.NamespacedName{Namespace: ns, Name: "shop-notes"}, &corev1.ConfigMap{}, func(cm *corev1.ConfigMap) { cm.Data["k"] = "changed" })
		change(ctx, types.NamespacedName{Namespace: ns, Name: "foreign-notes"}, &corev1.ConfigMap{}, func(cm *corev1.ConfigMap) { cm.Data["k"] = "changed" })
		ownedConfigMap(ctx, controlled, "blog-page", true)
		Eventually(func() int { return rec.StartedFor(client.ObjectKeyFromObject(controlled)) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeNumerically(">=", 2),
			"a ConfigMap controlled by blog was created, but blog was not reconciled")
		Expect(rec.StartedFor(client.ObjectKeyFromObject(referenced))).To(Equal(1),
			"shop was reconciled again for a ConfigMap it does not control (a plain owner reference to it, or a controller reference to a Website of another API group): match the owner's group and kind, and only the controller reference (handler.OnlyControllerOwner())")
	}, SpecTimeout(harness.Timeout))

	It("restores a page edited or deleted by hand", func(ctx SpecContext) {
		start(ctx, healer{})
		site := newSite(ns, "blog", 0)
		create(ctx, site)
		var page corev1.ConfigMap
		Eventually(func() bool { return get(ctx, owners.PageKeyOf(site), &page) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeTrue(),
			"the page was never made: is the Website watched?")

		change(ctx, owners.PageKeyOf(site), &corev1.ConfigMap{}, func(cm *corev1.ConfigMap) { cm.Data[owners.PageKey] = "defaced" })
		Eventually(func() map[string]string {
			var cm corev1.ConfigMap
			get(ctx, owners.PageKeyOf(site), &cm)
			return cm.Data
		}).WithContext(ctx).WithTimeout(reconcileWait).Should(HaveKeyWithValue(owners.PageKey, site.Spec.Page),
			"the page was edited by hand and never restored: watch ConfigMaps so that a change to one enqueues its controller")

		Expect(k8s.Delete(ctx, &page)).To(Succeed())
		Eventually(func() types.UID {
			var cm corev1.ConfigMap
			get(ctx, owners.PageKeyOf(site), &cm)
			return cm.UID
		}).WithContext(ctx).WithTimeout(reconcileWait).ShouldNot(Or(BeEmpty(), Equal(page.UID)),
			"the page was deleted by hand and never made again: a delete event of a child must enqueue its controller too")
	}, SpecTimeout(harness.Timeout))

	It("restores a Deployment scaled or deleted by hand", func(ctx SpecContext) {
		start(ctx, healer{})
		site := newSite(ns, "blog", 1)
		create(ctx, site)
		var deploy appsv1.Deployment
		Eventually(func() bool { return get(ctx, owners.DeploymentKeyOf(site), &deploy) }).WithContext(ctx).WithTimeout(reconcileWait).Should(BeTrue(),
			"the Deployment was never made: is the Website watched?")

		change(ctx, owners.DeploymentKeyOf(site), &appsv1.Deployment{}, func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](3) })
		Eventually(func() *int32 {
			var d appsv1.Deployment
			get(ctx, owners.DeploymentKeyOf(site), &d)
			return d.Spec.Replicas
		}).WithContext(ctx).WithTimeout(reconcileWait).Should(Equal(ptr.To[int32](1)),
			"the Deployment was scaled by hand and never scaled back: watch Deployments so that a change to one enqueues its controller")

		Expect(k8s.Delete(ctx, &deploy)).To(Succeed())
		Eventually(func() types.UID {
			var d appsv1.Deployment
			get(ctx, owners.DeploymentKeyOf(site), &d)
			return d.UID
		}).WithContext(ctx).WithTimeout(reconcileWait).ShouldNot(Or(BeEmpty(), Equal(deploy.UID)),
			"the Deployment was deleted by hand and never made again: a delete event of a child must enqueue its controller too")
	}, SpecTimeout(harness.Timeout))
})

// healer is the specs' own reconciler for exercise 3: a plain one that puts the page's data
// and the Deployment's replicas back, so the specs check your watches, not exercise 2.
type healer struct{}

func (healer) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var site owners.Website
	if err := k8s.Get(ctx, req.NamespacedName, &site); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	var page corev1.ConfigMap
	err := k8s.Get(ctx, owners.PageKeyOf(&site), &page)
	switch {
	case apierrors.IsNotFound(err):
		page = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: owners.PageName(&site)}, Data: map[string]string{owners.PageKey: site.Spec.Page}}
		if err := controllerutil.SetControllerReference(&site, &page, k8s.Scheme()); err != nil {
			return reconcile.Result{}, err
		}
		err = k8s.Create(ctx, &page)
	case err == nil && page.Data[owners.PageKey] != site.Spec.Page:
		page.Data[owners.PageKey] = site.Spec.Page
		err = k8s.Update(ctx, &page)
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, healDeployment(ctx, &site)
}

func healDeployment(ctx context.Context, site *owners.Website) error {
	var deploy appsv1.Deployment
	err := k8s.Get(ctx, owners.DeploymentKeyOf(site), &deploy)
	switch {
	case apierrors.IsNotFound(err):
		fresh := newDeployment(site)
		if err := controllerutil.SetControllerReference(site, fresh, k8s.Scheme()); err != nil {
			return err
		}
		return k8s.Create(ctx, fresh)
	case err == nil && *deploy.Spec.Replicas != site.Spec.Replicas:
		deploy.Spec.Replicas = ptr.To(site.Spec.Replicas)
		return k8s.Update(ctx, &deploy)
	}
	return err
}
