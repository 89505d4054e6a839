package gvkgvr_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"

	gvkgvr "workshop.local/lessons/01-gvk-gvr"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: every resource serving a kind", harness.Exercise(4), func() {
	scale := schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

	It("finds the scale subresources, built-in and custom, that serve autoscaling/v1 Scale", func(ctx SpecContext) {
		cluster.EnsureCRD(ctx, widgetCRD(lessonGroup))
		apps := func(r string) schema.GroupVersionResource {
			return schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: r}
		}
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), scale)
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ContainElements(
			apps("deployments/scale"), apps("replicasets/scale"), apps("statefulsets/scale"),
			schema.GroupVersionResource{Version: "v1", Resource: "replicationcontrollers/scale"},
			schema.GroupVersionResource{Group: lessonGroup, Version: "v1", Resource: "widgets/scale"},
		))
		Expect(served).To(HaveEach(HaveField("Resource", HaveSuffix("/scale"))), "only scale subresources serve Scale")
	}, SpecTimeout(harness.Timeout))

	It("finds a kind's main resource and the subresources that return the same kind", func(ctx SpecContext) {
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ContainElements(
			schema.GroupVersionResource{Version: "v1", Resource: "pods"},
			schema.GroupVersionResource{Version: "v1", Resource: "pods/status"},
		))
		Expect(served).NotTo(ContainElement(HaveField("Resource", "pods/eviction")), "pods/eviction serves policy/v1 Eviction, not Pod")
	}, SpecTimeout(harness.Timeout))

	It("tells apart two kinds of the same name in different groups", func(ctx SpecContext) {
		// core v1 Event and events.k8s.io/v1 Event are two kinds, served by two resources.
		coreEvents := schema.GroupVersionResource{Version: "v1", Resource: "events"}
		newEvents := schema.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Version: "v1", Kind: "Event"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ConsistOf(coreEvents), "core v1 Event is served by v1 events only; events.k8s.io/v1 Event is another kind")
		served, err = gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Group: "events.k8s.io", Version: "v1", Kind: "Event"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(ConsistOf(newEvents), "events.k8s.io/v1 Event is served by events.k8s.io/v1 events only")
	}, SpecTimeout(harness.Timeout))

	It("finds nothing, and no error, for a kind no resource serves", func(ctx SpecContext) {
		served, err := gvkgvr.ServedBy(ctx, cluster.Clientset.Discovery(), schema.GroupVersionKind{Group: "nowhere.workshop.local", Version: "v1", Kind: "Nothing"})
		Expect(err).NotTo(HaveOccurred())
		Expect(served).To(BeEmpty())
	}, SpecTimeout(harness.Timeout))
})
