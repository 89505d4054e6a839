package operator_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// controlled is the failure message when a child has no controller reference to its site.
const controlled = "every child should have the site as its controller (controllerutil.SetControllerReference): that brings its events back to the site and lets the garbage collector delete it with the site"

// teamLabel is a label another tool puts on a site's children: the operator must leave it.
const teamLabel = "example.com/team"

var _ = Describe("Exercise 2: the children, owned and idempotent", harness.Exercise(2), func() {
	It("makes a page, a Deployment and a Service, each controlled by the site", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 2, v1alpha1.ExposureService))
		Eventually(func(g Gomega) {
			g.Expect(get(g, ctx, page(site)).Data).To(HaveKeyWithValue("index.html", site.Spec.Page), "the page ConfigMap should hold the site's page (DesiredPage)")
			g.Expect(get(g, ctx, deployment(site)).Spec.Replicas).To(HaveValue(Equal(int32(2))), "the Deployment should run the site's replicas (DesiredDeployment)")
			g.Expect(get(g, ctx, service(site)).Spec.Ports).To(ContainElement(HaveField("Port", int32(80))), "a site exposed through a Service should have one (DesiredService)")
			g.Expect(get(g, ctx, page(site))).To(controlledBy(site), controlled)
			g.Expect(get(g, ctx, deployment(site))).To(controlledBy(site), controlled)
			g.Expect(get(g, ctx, service(site))).To(controlledBy(site), controlled)
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed())

		pods := get(Default, ctx, deployment(site)).Spec.Template.Labels
		selector := get(Default, ctx, service(site)).Spec.Selector
		Expect(selector).NotTo(BeEmpty(), "the Service has no selector, so it sends its traffic to no pod: set its selector from DesiredService")
		for key, value := range selector {
			Expect(pods).To(HaveKeyWithValue(key, value), "the Service's selector should pick the site's web servers (the labels of the Deployment's pods), as DesiredService's does")
		}
	}, SpecTimeout(harness.Timeout))

	It("follows the site's changes, keeps other tools' labels, and puts back a child changed or deleted by hand", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(func(g Gomega) { get(g, ctx, deployment(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the site's Deployment was never made")
		// Another tool labels the Deployment; the site's change below makes the controller
		// update it, on top of that label.
		change(ctx, deployment(site), func(d *appsv1.Deployment) {
			if d.Labels == nil {
				d.Labels = map[string]string{}
			}
			d.Labels[teamLabel] = "web"
		})

		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Replicas, s.Spec.Page = 3, "<h1>v2</h1>" })
		Eventually(func(g Gomega) {
			g.Expect(get(g, ctx, deployment(site)).Spec.Replicas).To(HaveValue(Equal(int32(3))))
			g.Expect(get(g, ctx, page(site)).Data).To(HaveKeyWithValue("index.html", "<h1>v2</h1>"))
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "a change of the site's replicas and page should reach its Deployment and page: CreateOrUpdate updates what exists")
		Expect(get(Default, ctx, deployment(site)).Labels).To(And(HaveKeyWithValue(teamLabel, "web"), HaveKeyWithValue(operator.SiteLabel, site.Name)),
			"the Deployment should carry the site's label and keep the label another tool put on it: add the site's labels to the child's own, do not replace them all")

		change(ctx, deployment(site), func(d *appsv1.Deployment) { d.Spec.Replicas = ptrTo(int32(1)) })
		Eventually(func(g Gomega) *int32 { return get(g, ctx, deployment(site)).Spec.Replicas }).WithContext(ctx).WithTimeout(settle).
			Should(HaveValue(Equal(int32(3))), "someone scaled the Deployment by hand: the controller should set its replicas back to the site's")

		old := get(Default, ctx, page(site))
		Expect(k8s.Delete(ctx, old)).To(Succeed())
		Eventually(func(g Gomega) { g.Expect(get(g, ctx, page(site)).UID).NotTo(Equal(old.UID)) }).WithContext(ctx).WithTimeout(settle).
			Should(Succeed(), "a page deleted by hand should be made again")
	}, SpecTimeout(harness.Timeout))

	It("deletes its Service when the site's exposure becomes None, and leaves other Services alone", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(func(g Gomega) { get(g, ctx, service(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the site's Service was never made")
		// A site that is not exposed, and a Service of the same name that someone else made and
		// controls: it lists the site as an owner (so that it goes with the site), but its
		// controller is another object.
		hidden := create(ctx, newSite(op.ns, "hidden", 0, v1alpha1.ExposureNone))
		foreign := someoneElsesService(ctx, hidden)

		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Exposure = v1alpha1.ExposureNone })
		Eventually(gone(ctx, service(site))).WithContext(ctx).WithTimeout(settle).Should(BeTrue(), "a site whose exposure became None should no longer have a Service")

		// A reconcile of hidden that starts now sees the foreign Service in the cache.
		key := client.ObjectKeyFromObject(hidden)
		before := op.reconciles.StartedFor(key)
		change(ctx, hidden, func(s *v1alpha1.StaticSite) { s.Spec.Page = "<h1>still hidden</h1>" })
		Eventually(func() int { return op.reconciles.CountFor(key) }).WithContext(ctx).WithTimeout(settle).
			Should(BeNumerically(">", before), "the site hidden was not reconciled after its page changed")
		Expect(gone(ctx, foreign)()).To(BeFalse(),
			"the controller deleted a Service it does not control: one that lists the site only as an owner, whose controller is another object; delete only what metav1.IsControlledBy(service, site) says is the site's")

		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Exposure = v1alpha1.ExposureService })
		Eventually(func(g Gomega) { get(g, ctx, service(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "exposed again, the site should get its Service back")
	}, SpecTimeout(harness.Timeout))

	It("writes nothing to children that are already right, and records no change", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		Eventually(func(g Gomega) { get(g, ctx, service(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the site's Service was never made")
		waitReady(ctx, site)

		op.requests.Reset()
		mark := op.events.mark()
		for i := range 3 {
			op.nudge(ctx, site, string(rune('a'+i)))
		}
		Expect(op.childWrites(site)).To(BeEmpty(),
			"three reconciles of a site whose children were right should write nothing to them: set only the fields the controller owns, so CreateOrUpdate finds nothing changed (the API server fills in defaults the desired object lacks)")
		Expect(op.events.since(mark, site, string(operator.Created), string(operator.Updated), string(operator.Deleted))).To(BeEmpty(),
			"three reconciles that changed no child should record no change: CreateOrUpdate returns OperationResultNone when the child was already right, and there is nothing to tell")
	}, SpecTimeout(harness.Timeout))
})

// someoneElsesService makes a Service named like site's, whose controller is another object (a
// ConfigMap) and which lists site as a plain owner, not its controller.
func someoneElsesService(ctx SpecContext, site *v1alpha1.StaticSite) *corev1.Service {
	GinkgoHelper()
	owner := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name + "-owner"}}
	Expect(k8s.Create(ctx, owner)).To(Succeed())
	svc := service(site)
	svc.Spec.Ports = []corev1.ServicePort{{Port: 8080}}
	svc.OwnerReferences = []metav1.OwnerReference{
		*metav1.NewControllerRef(owner, corev1.SchemeGroupVersion.WithKind("ConfigMap")),
		{APIVersion: v1alpha1.GroupVersion.String(), Kind: "StaticSite", Name: site.Name, UID: site.UID},
	}
	Expect(k8s.Create(ctx, svc)).To(Succeed())
	return svc
}

func ptrTo[T any](v T) *T { return &v }
