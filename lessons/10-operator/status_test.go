package operator_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// status reads site's status from the API server.
func status(g Gomega, ctx SpecContext, site *v1alpha1.StaticSite) v1alpha1.StaticSiteStatus {
	var got v1alpha1.StaticSite
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(site), &got)).To(Succeed())
	return got.Status
}

// condition matches a status holding a condition of type t with status s (and some reason).
func condition(t string, s metav1.ConditionStatus) OmegaMatcher {
	return HaveField("Conditions", ContainElement(And(HaveField("Type", t), HaveField("Status", s), HaveField("Reason", Not(BeEmpty())))))
}

// describing matches a status whose observedGeneration, and every condition's, is generation.
func describing(generation int64) OmegaMatcher {
	return And(HaveField("ObservedGeneration", generation), HaveField("Conditions", HaveEach(HaveField("ObservedGeneration", generation))))
}

var _ = Describe("Exercise 3: status and conditions", harness.Exercise(3), func() {
	It("reports the generation it acted on, and Available once the web servers are ready", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		waitReady(ctx, site)
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(And(
			describing(1),
			HaveField("ReadyReplicas", int32(1)),
			condition(operator.Available, metav1.ConditionTrue),
			condition(operator.Progressing, metav1.ConditionFalse),
			condition(operator.Degraded, metav1.ConditionFalse),
		), "with its one web server ready: observedGeneration 1 (the status's and each condition's), readyReplicas 1, Available True, Progressing False, Degraded False, each condition with a reason (meta.SetStatusCondition, written with r.Client.Status())")

		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Replicas = 2 })
		waitReady(ctx, site)
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(And(
			describing(2),
			HaveField("ReadyReplicas", int32(2)),
			condition(operator.Available, metav1.ConditionTrue),
		), "after a change of the spec, observedGeneration (the status's and each condition's) should follow metadata.generation (2), and readyReplicas the Deployment")

		// A new page changes the site (generation 3) but not the Deployment's spec, whose own
		// generation stays 2.
		change(ctx, site, func(s *v1alpha1.StaticSite) { s.Spec.Page = "<h1>v3</h1>" })
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(describing(3),
			"after a change of the page alone, observedGeneration (the status's and each condition's) should be the site's metadata.generation, 3: it is the site's spec the status describes, not the Deployment's (still at generation 2)")
	}, SpecTimeout(harness.Timeout))

	It("reports a site scaled to zero as not Available", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "idle", 0, v1alpha1.ExposureNone))
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(And(
			HaveField("ObservedGeneration", int64(1)),
			condition(operator.Available, metav1.ConditionFalse),
			condition(operator.Degraded, metav1.ConditionFalse),
		), "a site with no web servers serves nothing: Available False (with a reason), though nothing failed")
	}, SpecTimeout(harness.Timeout))

	It("reports web servers that exist but are not ready: none ready, not Available, Progressing", func(ctx SpecContext) {
		op := startOperator(ctx)
		unschedulable(ctx, op.ns)
		site := create(ctx, newSite(op.ns, "stuck", 1, v1alpha1.ExposureService))
		// The Deployment is the operator's part (the operator's wait), its pod the cluster's.
		Eventually(func(g Gomega) { get(g, ctx, deployment(site)) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(),
			"the operator never made the site's Deployment, which this spec needs: exercise 2 comes first")
		Eventually(func(g Gomega) int32 { return get(g, ctx, deployment(site)).Status.Replicas }).WithContext(ctx).WithTimeout(clusterWait).Should(Equal(int32(1)),
			"the site's Deployment should have made its pod (it cannot be scheduled, so it never becomes ready): is exercise 2 done?")
		op.nudge(ctx, site, "pod made") // a reconcile that saw the Deployment's pod
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(And(
			HaveField("ObservedGeneration", int64(1)),
			HaveField("ReadyReplicas", int32(0)),
			condition(operator.Available, metav1.ConditionFalse),
			condition(operator.Progressing, metav1.ConditionTrue),
			condition(operator.Degraded, metav1.ConditionFalse),
		), "the Deployment has made its pod but none is ready (status.replicas 1, status.readyReplicas 0): readyReplicas 0 (the Deployment's readyReplicas, not its replicas), Available False, Progressing True, Degraded False")
	}, SpecTimeout(harness.Timeout))

	It("reports Degraded, with the error, while a child cannot be made, and recovers", func(ctx SpecContext) {
		op := startOperator(ctx)
		blocked := newSite(op.ns, "blocked", 1, v1alpha1.ExposureService)
		squatter := squat(ctx, blocked)
		create(ctx, blocked)
		Eventually(status).WithArguments(ctx, blocked).WithContext(ctx).WithTimeout(settle).Should(And(
			condition(operator.Degraded, metav1.ConditionTrue),
			HaveField("Conditions", ContainElement(And(HaveField("Type", operator.Degraded), HaveField("Message", containsAnyOf(func() []string { return op.failures(blocked) }))))),
			Not(condition(operator.Available, metav1.ConditionTrue)),
		), "another controller owns a ConfigMap named like the site's page, so the reconcile fails: Degraded True with the error (the one Reconcile returns) as its message, and not Available")

		Expect(k8s.Delete(ctx, squatter)).To(Succeed())
		change(ctx, blocked, func(s *v1alpha1.StaticSite) { s.Spec.Page = "<h1>free</h1>" })
		Eventually(status).WithArguments(ctx, blocked).WithContext(ctx).WithTimeout(settle).Should(condition(operator.Degraded, metav1.ConditionFalse),
			"once the page can be made, the next reconcile succeeds: Degraded False")
	}, SpecTimeout(harness.Timeout))

	It("writes the status only when it changed, keeping each condition's lastTransitionTime", func(ctx SpecContext) {
		op := startOperator(ctx)
		site := create(ctx, newSite(op.ns, "web", 1, v1alpha1.ExposureService))
		waitReady(ctx, site)
		Eventually(status).WithArguments(ctx, site).WithContext(ctx).WithTimeout(settle).Should(condition(operator.Available, metav1.ConditionTrue),
			"the site never became Available")
		before := meta.FindStatusCondition(status(Default, ctx, site).Conditions, operator.Available)

		op.requests.Reset()
		for i := range 3 {
			op.nudge(ctx, site, string(rune('a'+i)))
		}
		Expect(op.statusWrites(site)).To(BeEmpty(),
			"three reconciles that saw nothing new should not write the status: compare it with a copy taken before, and skip the write when they are equal")
		after := meta.FindStatusCondition(status(Default, ctx, site).Conditions, operator.Available)
		Expect(after.LastTransitionTime).To(Equal(before.LastTransitionTime),
			"Available stayed True, so its lastTransitionTime should not move: meta.SetStatusCondition keeps it unless the status changes")
	}, SpecTimeout(harness.Timeout))
})

// unschedulable makes every pod created in ns from now on request more CPU than any node has (a
// LimitRange's default request), so the scheduler never places it and it never becomes ready.
// It returns once the API server applies the default (a dry-run pod gets it).
func unschedulable(ctx SpecContext, ns string) {
	GinkgoHelper()
	huge := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1000")}
	limits := &corev1.LimitRange{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "unschedulable"},
		Spec:       corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer, DefaultRequest: huge, Default: huge}}},
	}
	Expect(k8s.Create(ctx, limits)).To(Succeed())
	Eventually(func(g Gomega) corev1.ResourceList {
		probe := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "probe"},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "probe", Image: operator.Image}}},
		}
		g.Expect(k8s.Create(ctx, probe, client.DryRunAll)).To(Succeed())
		return probe.Spec.Containers[0].Resources.Requests
	}).WithContext(ctx).WithTimeout(settle).Should(HaveKey(corev1.ResourceCPU), "the API server did not apply the LimitRange's default CPU request")
}
