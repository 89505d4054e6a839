package sites_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	sites "workshop.local/lessons/09-builder"
	"workshop.local/lessons/internal/harness"
)

// Failure messages for the two checks every SpecChangedOrRequested spec makes first: a predicate
// that lets everything through, or nothing, is a wall or a hole, not a filter.
const (
	dropsAll  = "SpecChangedOrRequested dropped an update that changed the spec (metadata.generation went from 1 to 2): a change of the spec must be reconciled"
	passesAll = "SpecChangedOrRequested let through an update that only wrote the status (same generation, new resourceVersion): is exercise 4 still the stub?"
)

var _ = Describe("Exercise 4: predicates on the parent", harness.Exercise(4), func() {
	Describe("SpecChangedOrRequested", func() {
		// site is a Website as the informer would deliver it: resourceVersion counts every write,
		// generation every change of the spec.
		site := func(generation int64, resourceVersion string, edit func(*sites.Website)) *sites.Website {
			s := &sites.Website{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "alpha", Generation: generation, ResourceVersion: resourceVersion},
				Spec:       sites.WebsiteSpec{Replicas: 1, Page: "<h1>alpha</h1>"},
				Status:     sites.WebsiteStatus{ObservedGeneration: generation - 1},
			}
			if edit != nil {
				edit(s)
			}
			return s
		}
		annotated := func(annotations map[string]string) func(*sites.Website) {
			return func(s *sites.Website) { s.Annotations = annotations }
		}
		old := site(1, "10", nil)
		later := site(5, "20", nil)
		requested := site(1, "10", annotated(map[string]string{sites.RequestAnnotation: "1700000000"}))
		statusWritten := site(1, "11", func(s *sites.Website) { s.Status = sites.WebsiteStatus{ObservedGeneration: 1, ReadyReplicas: 1} })
		specChanged := site(2, "11", func(s *sites.Website) { s.Spec.Replicas = 3 })

		It("lets creations, deletions and generic events through", func() {
			p := sites.SpecChangedOrRequested()
			Expect(p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: statusWritten})).To(BeFalse(), passesAll)
			Expect(p.Create(event.CreateEvent{Object: old})).To(BeTrue(), "a new Website must be reconciled")
			Expect(p.Delete(event.DeleteEvent{Object: old})).To(BeTrue(), "a deleted Website must be reconciled (its reconcile finds it gone)")
			Expect(p.Generic(event.GenericEvent{Object: old})).To(BeTrue(), "a generic event is an explicit request to reconcile")
		})

		DescribeTable("lets an update through only when the spec changed or a reconcile was requested",
			func(before, after *sites.Website, want bool, why string) {
				p := sites.SpecChangedOrRequested()
				Expect(p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: specChanged})).To(BeTrue(), dropsAll)
				Expect(p.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: statusWritten})).To(BeFalse(), passesAll)
				Expect(p.Update(event.UpdateEvent{ObjectOld: before, ObjectNew: after})).To(Equal(want), why)
			},
			Entry("the page changed", old, site(2, "11", func(s *sites.Website) { s.Spec.Page = "<h1>new</h1>" }), true,
				"the page is part of the spec: the API server bumped the generation, let the update through"),
			Entry("the replicas changed", old, site(2, "11", func(s *sites.Website) { s.Spec.Replicas = 5 }), true,
				"the replicas are part of the spec: let the update through"),
			Entry("the status was written", old, statusWritten, false,
				"a write to status changes the resourceVersion, not the generation: drop it, or every status write reconciles again"),
			Entry("the status was written, on a Website whose spec changed before", later, site(5, "21", func(s *sites.Website) { s.Status.ObservedGeneration = 5 }), false,
				"compare the old and the new generation: this update (generation 5 to 5, same spec) changed only the status"),
			Entry("a label was added", old, site(1, "11", func(s *sites.Website) { s.Labels = map[string]string{"team": "web"} }), false,
				"labels are metadata, not spec, and no request: drop the update"),
			Entry("another annotation was added", old, site(1, "11", annotated(map[string]string{"note": "x"})), false,
				"only RequestAnnotation asks for a reconcile: other annotations (kubectl's, other tools') change all the time, drop the update"),
			Entry("a reconcile was requested", old, site(1, "11", annotated(map[string]string{sites.RequestAnnotation: "1700000000"})), true,
				"RequestAnnotation was set: someone asks for a reconcile, let the update through"),
			Entry("a reconcile was requested again", requested, site(1, "11", annotated(map[string]string{sites.RequestAnnotation: "1700000600"})), true,
				"RequestAnnotation got a new value: each new value is a new request, let the update through"),
			Entry("the status was written on a Website with an old request", requested, site(1, "11", func(s *sites.Website) {
				s.Annotations = map[string]string{sites.RequestAnnotation: "1700000000"}
				s.Status.ReadyReplicas = 1
			}), false,
				"RequestAnnotation has the value it had: that request was answered before, compare its old and new value rather than ask whether it is there"),
			Entry("another annotation changed on a Website with an old request", requested, site(1, "11", annotated(map[string]string{sites.RequestAnnotation: "1700000000", "note": "x"})), false,
				"RequestAnnotation has the value it had, only another annotation changed: drop the update"),
			Entry("the request annotation was removed", requested, site(1, "11", nil), false,
				"removing RequestAnnotation asks for nothing: only a new, non-empty value is a request"),
			Entry("nothing changed (a resync)", requested, site(1, "10", annotated(map[string]string{sites.RequestAnnotation: "1700000000"})), false,
				"an informer's resync delivers the object it has as an update: same resourceVersion, same generation, same request, drop it"),
		)
	})

	It("keeps the Website controller from reconciling a site for writes that neither change its spec nor request a reconcile", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		mgr := newManager(cluster.Config, ns, nil)
		rec := harness.RecordReconciles(nil)
		_, err := sites.NewWebsiteController(mgr, rec, harness.FastRateLimiter(), sites.SpecChangedOrRequested())
		Expect(err).NotTo(HaveOccurred(), "NewWebsiteController (exercise 1) failed: this exercise gives it SpecChangedOrRequested as the parent's predicate")
		harness.StartManager(ctx, mgr)

		var alpha, beta *sites.Website
		expectReconciles(ctx, rec, "two Websites created", func() {
			alpha, beta = createSite(ctx, ns, "alpha"), createSite(ctx, ns, "beta")
		}, ns+"/alpha", ns+"/beta")
		expectReconciles(ctx, rec, "three writes to alpha's status, a label and an annotation on beta (SpecChangedOrRequested should drop them all)", func() {
			for ready := int32(1); ready <= 3; ready++ {
				change(ctx, alpha, true, func(s *sites.Website) { s.Status.ReadyReplicas = ready })
			}
			change(ctx, beta, false, func(s *sites.Website) {
				s.Labels = map[string]string{"team": "web"}
				s.Annotations = map[string]string{"note": "x"}
			})
		})
		expectReconciles(ctx, rec, "a reconcile of beta requested with RequestAnnotation", func() {
			change(ctx, beta, false, func(s *sites.Website) { s.Annotations[sites.RequestAnnotation] = "1700000000" })
		}, keyOf(beta))
		expectReconciles(ctx, rec, "beta's status written after the request (the request is answered, nothing new asked)", func() {
			change(ctx, beta, true, func(s *sites.Website) { s.Status.ReadyReplicas = 1 })
		})
		expectReconciles(ctx, rec, "alpha's page changed in its spec", func() {
			change(ctx, alpha, false, func(s *sites.Website) { s.Spec.Page = "<h1>new</h1>" })
		}, keyOf(alpha))
		expectReconciles(ctx, rec, "alpha deleted", func() {
			Expect(direct().Delete(ctx, alpha)).To(Succeed())
		}, keyOf(alpha))
		expectReconciles(ctx, rec, "beta's page created (a child's event: the parent's predicate does not see it)", func() {
			createPage(ctx, beta)
		}, keyOf(beta))
	}, SpecTimeout(harness.Timeout))
})
