package clients_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	clients "workshop.local/lessons/02-clients"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: the dynamic client and Unstructured", harness.Exercise(3), func() {
	var ns string

	BeforeEach(func(ctx SpecContext) {
		cluster.EnsureCRD(ctx, widgetCRD())
		ns = cluster.Namespace(ctx, "lesson02")
	}, NodeTimeout(harness.Timeout))

	Describe("CreateWidget", func() {
		It("creates a Widget, a kind with no Go type, from an Unstructured", func(ctx SpecContext) {
			created, err := clients.CreateWidget(ctx, cluster.Dynamic, ns, "small", 3)
			Expect(err).NotTo(HaveOccurred(), "creating a Widget: set apiVersion, kind, name, namespace and spec.size")
			Expect(created.GetUID()).NotTo(BeEmpty(), "return the Widget the server returned, not the one you built")

			got, err := cluster.Dynamic.Resource(widgets).Namespace(ns).Get(ctx, "small", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			size, found, err := unstructured.NestedInt64(got.Object, "spec", "size")
			Expect(err).NotTo(HaveOccurred(), "spec.size should be an integer (int64 in the Unstructured)")
			Expect(found).To(BeTrue(), "the stored Widget has no spec.size")
			Expect(size).To(BeEquivalentTo(3))
		}, SpecTimeout(harness.Timeout))

		It("returns the server's Invalid error for a Widget the CRD's schema refuses", func(ctx SpecContext) {
			_, err := clients.CreateWidget(ctx, cluster.Dynamic, ns, "empty", 0)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "spec.size must be at least 1: want the server's error, for which apierrors.IsInvalid is true; got %v", err)
		}, SpecTimeout(harness.Timeout))
	})

	Describe("WidgetSize", func() {
		It("reads spec.size out of the Unstructured", func(ctx SpecContext) {
			createWidget(ctx, ns, "large", map[string]any{"size": int64(7)})
			size, err := clients.WidgetSize(ctx, cluster.Dynamic, ns, "large")
			Expect(err).NotTo(HaveOccurred())
			Expect(size).To(BeEquivalentTo(7))
		}, SpecTimeout(harness.Timeout))

		It("returns the server's NotFound error for a Widget that does not exist", func(ctx SpecContext) {
			_, err := clients.WidgetSize(ctx, cluster.Dynamic, ns, "nothing")
			Expect(apierrors.IsNotFound(err)).To(BeTrue(), "want the server's error, for which apierrors.IsNotFound is true; got %v", err)
		}, SpecTimeout(harness.Timeout))

		It("says so when a Widget has no spec.size", func(ctx SpecContext) {
			createWidget(ctx, ns, "shapeless", map[string]any{})
			_, err := clients.WidgetSize(ctx, cluster.Dynamic, ns, "shapeless")
			Expect(err).To(MatchError(ContainSubstring("spec.size")), "a missing field is not a size of 0: return an error that mentions spec.size")
		}, SpecTimeout(harness.Timeout))
	})

	Describe("CreateConfigMap", func() {
		It("creates a typed ConfigMap through the dynamic client, and returns it typed", func(ctx SpecContext) {
			cm := &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns},
				Data:       map[string]string{"color": "blue"},
			}
			created, err := clients.CreateConfigMap(ctx, cluster.Dynamic, cm)
			Expect(err).NotTo(HaveOccurred(), "create the ConfigMap at the GVR of configmaps (core group, v1) in the namespace of cm")
			Expect(created.UID).NotTo(BeEmpty(), "convert the server's answer back, not your input")
			Expect(created.Data).To(Equal(cm.Data))
			Expect(cm.TypeMeta).To(BeZero(), "leave the caller's ConfigMap as it was: set apiVersion and kind on the Unstructured")

			stored, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred(), "the ConfigMap should exist in namespace %s", ns)
			Expect(stored.Data).To(Equal(cm.Data))
		}, SpecTimeout(harness.Timeout))
	})
})

// createWidget creates, with the spec's own client, a Widget with the given spec.
func createWidget(ctx context.Context, ns, name string, spec map[string]any) {
	GinkgoHelper()
	w := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": widgets.GroupVersion().String(),
		"kind":       "Widget",
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	}}
	_, err := cluster.Dynamic.Resource(widgets).Namespace(ns).Create(ctx, w, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "the spec could not create the Widget %s/%s", ns, name)
}
