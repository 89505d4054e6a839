package operator_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/internal/harness"
)

// controlled is the failure message when a child has no controller reference to its site.
const controlled = "every child should have the site as its controller (controllerutil.SetControllerReference): that brings its events back to the site and lets the garbage collector delete it with the site"

var _ = Describe("Exercise 2: the children, owned and idempotent", harness.Exercise(2), func() {
	It("makes a page, a Deployment and a Service, each controlled by the site", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 2, operator.ExposureService))
		Eventually(func(g Gomega) {
			g.Expect(get(g, ctx, page(site)).Data).To(HaveKeyWithValue("index.html", site.Spec.Page), "the page ConfigMap should hold the site's page (DesiredPage)")
			g.Expect(get(g, ctx, deployment(site)).Spec.Replicas).To(HaveValue(Equal(int32(2))), "the Deployment should run the site's replicas (DesiredDeployment)")
			g.Expect(get(g, ctx, service(site)).Spec.Ports).To(ContainElement(HaveField("Port", int32(80))), "a site exposed through a Service should have one (DesiredService)")
			g.Expect(get(g, ctx, page(site))).To(controlledBy(site), controlled)
			g.Expect(get(g, ctx, deployment(site))).To(controlledBy(site), controlled)
			g.Expect(get(g, ctx, service(site))).To(controlledBy(site), controlled)
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed())
	}, SpecTimeout(harness.Timeout))

	It("follows the site's changes, and puts back a child changed or deleted by hand", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, operator.ExposureService))
		Eventually(func(g Gomega) { get(g, ctx, deployment(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the site's Deployment was never made")

		change(ctx, site, func(s *operator.StaticSite) { s.Spec.Replicas, s.Spec.Page = 3, "<h1>v2</h1>" })
		Eventually(func(g Gomega) {
			g.Expect(get(g, ctx, deployment(site)).Spec.Replicas).To(HaveValue(Equal(int32(3))))
			g.Expect(get(g, ctx, page(site)).Data).To(HaveKeyWithValue("index.html", "<h1>v2</h1>"))
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "a change of the site's replicas and page should reach its Deployment and page: CreateOrUpdate updates what exists")

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
		site := create(ctx, newSite(op.ns, "web", 1, operator.ExposureService))
		Eventually(func(g Gomega) { get(g, ctx, service(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the site's Service was never made")
		// A Service named like a site that does not control it: someone else's.
		hidden := newSite(op.ns, "hidden", 0, operator.ExposureNone)
		foreign := service(hidden)
		foreign.Spec.Ports = []corev1.ServicePort{{Port: 8080}}
		Expect(k8s.Create(ctx, foreign)).To(Succeed())
		create(ctx, hidden)

		change(ctx, site, func(s *operator.StaticSite) { s.Spec.Exposure = operator.ExposureNone })
		Eventually(gone(ctx, service(site))).WithContext(ctx).WithTimeout(settle).Should(BeTrue(), "a site whose exposure became None should no longer have a Service")
		Eventually(func() int { return op.reconciles.CountFor(client.ObjectKeyFromObject(hidden)) }).WithContext(ctx).WithTimeout(settle).
			Should(BeNumerically(">", 0), "the site hidden was never reconciled")
		Expect(gone(ctx, service(hidden))()).To(BeFalse(), "a Service the site does not control is not the controller's to delete (metav1.IsControlledBy)")

		change(ctx, site, func(s *operator.StaticSite) { s.Spec.Exposure = operator.ExposureService })
		Eventually(func(g Gomega) { get(g, ctx, service(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "exposed again, the site should get its Service back")
	}, SpecTimeout(harness.Timeout))

	It("writes nothing to children that are already right", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, operator.ExposureService))
		Eventually(func(g Gomega) { get(g, ctx, service(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), "the site's Service was never made")
		waitReady(ctx, site)

		op.requests.Reset()
		for i := range 3 {
			op.nudge(ctx, site, string(rune('a'+i)))
		}
		Expect(op.childWrites(site)).To(BeEmpty(),
			"three reconciles of a site whose children were right should write nothing to them: set only the fields the controller owns, so CreateOrUpdate finds nothing changed (the API server fills in defaults the desired object lacks)")
	}, SpecTimeout(harness.Timeout))
})

func ptrTo[T any](v T) *T { return &v }
