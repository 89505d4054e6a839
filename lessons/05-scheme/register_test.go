package scheme_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	scheme "workshop.local/lessons/05-scheme"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 2: your own kind in a Scheme", harness.Exercise(2), func() {
	// withGadgets is a new Scheme after your AddToScheme ran on it.
	withGadgets := func() *runtime.Scheme {
		GinkgoHelper()
		s := runtime.NewScheme()
		Expect(scheme.AddToScheme(s)).To(Succeed())
		return s
	}

	It("registers Gadget and GadgetList in lesson05.workshop.local/v1, both ways", func() {
		s := withGadgets()
		gvks, _, err := s.ObjectKinds(&scheme.Gadget{})
		Expect(err).NotTo(HaveOccurred(), "the Scheme should know the Go type *Gadget")
		Expect(gvks).To(ConsistOf(gadgetKind))

		list, err := s.New(scheme.GroupVersion.WithKind("GadgetList"))
		Expect(err).NotTo(HaveOccurred(), "the Scheme should know the kind GadgetList")
		Expect(list).To(BeAssignableToTypeOf(&scheme.GadgetList{}))
	})

	It("registers in the same group version the kinds every group shares, as metav1.AddToGroupVersion does", func() {
		s := withGadgets()
		for _, kind := range []string{"ListOptions", "CreateOptions", "DeleteOptions", "WatchEvent"} {
			Expect(s.Recognizes(scheme.GroupVersion.WithKind(kind))).To(BeTrue(),
				"the Scheme should know %s in %s: did addKnownTypes call metav1.AddToGroupVersion?", kind, scheme.GroupVersion)
		}
	})

	It("makes Gadgets that keep the runtime.Object contract: a kind you can set, a deep copy you can change", func() {
		obj, err := withGadgets().New(gadgetKind)
		Expect(err).NotTo(HaveOccurred())
		obj.GetObjectKind().SetGroupVersionKind(gadgetKind)
		Expect(obj.GetObjectKind().GroupVersionKind()).To(Equal(gadgetKind))

		original := obj.(*scheme.Gadget)
		original.Spec = newGadget("", "").Spec
		clone := original.DeepCopyObject().(*scheme.Gadget)
		clone.Spec.Parts[0], clone.Spec.Settings["speed"] = "lever", "slow"
		Expect(original.Spec).To(Equal(newGadget("", "").Spec), "changing a deep copy must leave the original as it was")
	})

	It("NewGadgetScheme knows every built-in kind and yours", func() {
		s, err := scheme.NewGadgetScheme()
		Expect(err).NotTo(HaveOccurred())
		Expect(s).NotTo(BeNil(), "NewGadgetScheme returned no Scheme")
		Expect(s.Recognizes(podKind)).To(BeTrue(), "the Scheme should know v1 Pod: did you add client-go's kinds?")
		Expect(s.Recognizes(deployKind)).To(BeTrue(), "the Scheme should know apps/v1 Deployment: did you add client-go's kinds?")
		Expect(s.Recognizes(gadgetKind)).To(BeTrue(), "the Scheme should know your Gadget: did you add your AddToScheme?")
	})

	It("lets controller-runtime's client create, read and list Gadgets as Go structs", func(ctx SpecContext) {
		cluster.EnsureCRD(ctx, gadgetCRD())
		ns := cluster.Namespace(ctx, "lesson05")
		s, err := scheme.NewGadgetScheme()
		Expect(err).NotTo(HaveOccurred())
		c, err := client.New(cluster.Config, client.Options{Scheme: s})
		Expect(err).NotTo(HaveOccurred())

		// The client asks the Scheme which kind a *Gadget is, then which resource serves it.
		gadget := newGadget(ns, "clock")
		Expect(c.Create(ctx, gadget)).To(Succeed(), "the client could not create a Gadget with your Scheme")
		var got scheme.Gadget
		Expect(c.Get(ctx, client.ObjectKeyFromObject(gadget), &got)).To(Succeed())
		Expect(got.Spec).To(Equal(gadget.Spec))
		var list scheme.GadgetList
		Expect(c.List(ctx, &list, client.InNamespace(ns))).To(Succeed(), "the client could not list Gadgets with your Scheme")
		Expect(list.Items).To(HaveLen(1))

		// And the API server, asked directly, holds the Gadget.
		stored, err := cluster.Dynamic.Resource(gadgets).Namespace(ns).Get(ctx, "clock", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		color, _, _ := unstructured.NestedString(stored.Object, "spec", "color")
		Expect(color).To(Equal("teal"), "the Gadget the API server holds")
	}, SpecTimeout(harness.Timeout))
})
