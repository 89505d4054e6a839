package scheme_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"

	scheme "workshop.local/lessons/05-scheme"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: typed and Unstructured", harness.Exercise(4), func() {
	It("converts a typed object to an Unstructured, with apiVersion and kind found through the Scheme", func() {
		web := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3)}}
		u, err := scheme.ToUnstructured(clientgoscheme.Scheme, web)
		Expect(err).NotTo(HaveOccurred())
		Expect(u.GroupVersionKind()).To(Equal(deployKind), "the Deployment's TypeMeta is empty, yet the Unstructured should say its kind: the Scheme knows it by its Go type")
		Expect(u.GetName()).To(Equal("web"))
		replicas, found, err := unstructured.NestedInt64(u.Object, "spec", "replicas")
		Expect(err).NotTo(HaveOccurred(), "numbers in an Unstructured are int64, as the converter writes them")
		Expect(found).To(BeTrue())
		Expect(replicas).To(BeEquivalentTo(3))
		Expect(web.TypeMeta).To(BeZero(), "ToUnstructured wrote apiVersion and kind into the typed object it was given, which may be shared: it should leave it as it was")
	})

	It("never writes to the typed object it converts, not even for a moment: it may be shared", func() {
		spy, s := newSpyGadget("clock")
		before := spy.Gadget.DeepCopy()
		u, err := scheme.ToUnstructured(s, spy)
		Expect(err).NotTo(HaveOccurred())
		Expect(u.GroupVersionKind()).To(Equal(gadgetKind))
		Expect(spy.kindWrites.Load()).To(BeZero(),
			"ToUnstructured wrote apiVersion and kind into the object it was given, even if it put them back after: set them on the Unstructured")
		Expect(&spy.Gadget).To(Equal(before), "ToUnstructured changed the object it was given")
	})

	It("refuses to guess the kind of a Go type registered under several kinds, unless the object says which", func() {
		// metav1.AddToGroupVersion registers DeleteOptions in every group version of client-go's scheme.
		options := &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DeleteOptions"}}
		u, err := scheme.ToUnstructured(clientgoscheme.Scheme, options)
		Expect(err).NotTo(HaveOccurred())
		Expect(u.GroupVersionKind()).To(Equal(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DeleteOptions"}),
			"the object says it is apps/v1 DeleteOptions, one of the kinds its Go type has: keep that one")

		_, err = scheme.ToUnstructured(clientgoscheme.Scheme, &metav1.DeleteOptions{})
		Expect(err).To(HaveOccurred(), "a *metav1.DeleteOptions is DeleteOptions in every group version: ToUnstructured cannot know which one is meant, and should say so with an error rather than pick one")
		Expect(err).NotTo(MatchError(ContainSubstring("not implemented")))
	})

	It("converts an Unstructured to the typed object of its kind", func() {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "settings"},
			"data":     map[string]any{"color": "blue"},
		}}
		before := u.DeepCopy()
		obj, err := scheme.FromUnstructured(clientgoscheme.Scheme, u)
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&corev1.ConfigMap{}), "an Unstructured v1 ConfigMap should become a *corev1.ConfigMap")
		Expect(obj.(*corev1.ConfigMap).Data).To(Equal(map[string]string{"color": "blue"}))
		Expect(u).To(Equal(before), "FromUnstructured must leave the Unstructured it was given as it was")
	})

	It("says a kind the Scheme does not know is not registered, both ways", func() {
		_, err := scheme.ToUnstructured(coreOnlyScheme(), &appsv1.Deployment{})
		Expect(runtime.IsNotRegisteredError(err)).To(BeTrue(), "ToUnstructured: want an error for which runtime.IsNotRegisteredError is true, got %v", err)

		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(deployKind)
		_, err = scheme.FromUnstructured(coreOnlyScheme(), u)
		Expect(runtime.IsNotRegisteredError(err)).To(BeTrue(), "FromUnstructured: want an error for which runtime.IsNotRegisteredError is true, got %v", err)
	})

	It("round-trips a ConfigMap: typed, to the dynamic client as Unstructured, read back by a typed client", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson05")
		settings := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"color": "blue"}}
		u, err := scheme.ToUnstructured(clientgoscheme.Scheme, settings)
		Expect(err).NotTo(HaveOccurred())
		_, err = cluster.Dynamic.Resource(configMaps).Namespace(ns).Create(ctx, u, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred(), "the API server refused the Unstructured ToUnstructured made: an object sent to it says what it is, with apiVersion and kind")

		got, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Data).To(Equal(settings.Data))
	}, SpecTimeout(harness.Timeout))

	It("round-trips your own kind: a typed Gadget to the cluster as Unstructured, and back to a typed Gadget", func(ctx SpecContext) {
		cluster.EnsureCRD(ctx, gadgetCRD())
		ns := cluster.Namespace(ctx, "lesson05")
		s := gadgetOnlyScheme()
		clock := newGadget(ns, "clock")
		u, err := scheme.ToUnstructured(s, clock)
		Expect(err).NotTo(HaveOccurred())
		_, err = cluster.Dynamic.Resource(gadgets).Namespace(ns).Create(ctx, u, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred(), "the API server refused the Unstructured ToUnstructured made: an object sent to it says what it is, with apiVersion and kind")

		stored, err := cluster.Dynamic.Resource(gadgets).Namespace(ns).Get(ctx, "clock", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		obj, err := scheme.FromUnstructured(s, stored)
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&scheme.Gadget{}), "an Unstructured Gadget should become a *scheme.Gadget")
		got := obj.(*scheme.Gadget)
		Expect(got.Spec).To(Equal(clock.Spec))
		Expect(got.UID).NotTo(BeEmpty(), "the Gadget read back should carry the metadata the API server set")
		Expect(got.TypeMeta).To(Equal(metav1.TypeMeta{APIVersion: "lesson05.workshop.local/v1", Kind: "Gadget"}),
			"converted from an Unstructured, a typed object keeps its apiVersion and kind")
	}, SpecTimeout(harness.Timeout))
})
