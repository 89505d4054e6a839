package scheme_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	scheme "workshop.local/lessons/05-scheme"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 2: your own kind in a Scheme, in two versions", harness.Exercise(2), func() {
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

	It("registers the v1alpha1 Gadget as the kind Gadget of lesson05.workshop.local/v1alpha1, both ways", func() {
		s := withGadgets()
		gvks, _, err := s.ObjectKinds(&scheme.GadgetV1alpha1{})
		Expect(err).NotTo(HaveOccurred(), "the Scheme should know the Go type *GadgetV1alpha1")
		Expect(gvks).To(ConsistOf(gadgetAlphaKind), "GadgetV1alpha1 is the kind Gadget in v1alpha1, whatever its Go type is called")

		obj, err := s.New(gadgetAlphaKind)
		Expect(err).NotTo(HaveOccurred(), "the Scheme should know the kind %s", gadgetAlphaKind)
		Expect(obj).To(BeAssignableToTypeOf(&scheme.GadgetV1alpha1{}))
		Expect(s.Recognizes(scheme.GroupVersionV1alpha1.WithKind("ListOptions"))).To(BeTrue(),
			"the Scheme should know ListOptions in %s too: metav1.AddToGroupVersion for each group version", scheme.GroupVersionV1alpha1)
	})

	DescribeTable("converts a v1alpha1 Gadget to v1 and back, losing nothing",
		func(alphaParts string, parts []string) {
			s := withGadgets()
			alpha := &scheme.GadgetV1alpha1{
				ObjectMeta: metav1.ObjectMeta{Name: "clock", Namespace: "shop", Labels: map[string]string{"room": "hall"}},
				Spec:       scheme.GadgetV1alpha1Spec{Color: "teal", Parts: alphaParts, Settings: map[string]string{"speed": "fast"}},
			}
			out, err := s.ConvertToVersion(alpha, scheme.GroupVersion)
			Expect(err).NotTo(HaveOccurred(), "converting a v1alpha1 Gadget to v1 with your Scheme failed")
			Expect(out).To(BeAssignableToTypeOf(&scheme.Gadget{}))
			v1 := out.(*scheme.Gadget)
			Expect(v1.TypeMeta).To(Equal(metav1.TypeMeta{APIVersion: "lesson05.workshop.local/v1", Kind: "Gadget"}))
			Expect(v1.ObjectMeta).To(Equal(alpha.ObjectMeta), "the metadata should come across as it is")
			Expect(v1.Spec.Color).To(Equal("teal"))
			Expect(v1.Spec.Settings).To(Equal(map[string]string{"speed": "fast"}))
			if len(parts) == 0 {
				Expect(v1.Spec.Parts).To(BeEmpty(), "v1alpha1's parts %q mean no parts at all, not one empty part", alphaParts)
			} else {
				Expect(v1.Spec.Parts).To(Equal(parts), "v1alpha1's parts %q as a v1 list", alphaParts)
			}

			back, err := s.ConvertToVersion(v1, scheme.GroupVersionV1alpha1)
			Expect(err).NotTo(HaveOccurred(), "converting the v1 Gadget back to v1alpha1 with your Scheme failed: a Gadget converts both ways")
			Expect(back).To(BeAssignableToTypeOf(&scheme.GadgetV1alpha1{}))
			Expect(back.(*scheme.GadgetV1alpha1).Spec).To(Equal(alpha.Spec), "v1alpha1 -> v1 -> v1alpha1 should give the spec it started from")
			Expect(back.(*scheme.GadgetV1alpha1).ObjectMeta).To(Equal(alpha.ObjectMeta))
		},
		Entry("two parts", "spring,gear", []string{"spring", "gear"}),
		Entry("one part", "spring", []string{"spring"}),
		Entry("no parts at all: not one empty part", "", nil),
	)

	It("reads a v1alpha1 manifest as a v1 Gadget, through a decoder that converts", func() {
		manifest := []byte("apiVersion: lesson05.workshop.local/v1alpha1\nkind: Gadget\nmetadata:\n  name: clock\nspec:\n  color: teal\n  parts: spring,gear\n")
		// A decoder for a version decodes what the bytes say, then converts through the Scheme.
		decoder := serializer.NewCodecFactory(withGadgets()).UniversalDecoder(scheme.GroupVersion)
		obj, err := runtime.Decode(decoder, manifest)
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&scheme.Gadget{}), "a v1alpha1 manifest decoded for v1 should be a *Gadget")
		Expect(obj.(*scheme.Gadget).Spec.Parts).To(Equal([]string{"spring", "gear"}))
		Expect(obj.(*scheme.Gadget).Name).To(Equal("clock"))
	})

	It("NewGadgetScheme knows every built-in kind and yours", func() {
		s, err := scheme.NewGadgetScheme()
		Expect(err).NotTo(HaveOccurred())
		Expect(s).NotTo(BeNil(), "NewGadgetScheme returned no Scheme")
		Expect(s.Recognizes(podKind)).To(BeTrue(), "the Scheme should know v1 Pod, one of client-go's kinds")
		Expect(s.Recognizes(deployKind)).To(BeTrue(), "the Scheme should know apps/v1 Deployment, one of client-go's kinds")
		Expect(s.Recognizes(gadgetKind)).To(BeTrue(), "the Scheme should know your Gadget too")
	})

	It("NewGadgetScheme makes a Scheme of its own and leaves client-go's shared scheme.Scheme alone", func() {
		s, err := scheme.NewGadgetScheme()
		Expect(err).NotTo(HaveOccurred())
		Expect(s).NotTo(BeIdenticalTo(clientgoscheme.Scheme),
			"NewGadgetScheme returned client-go's scheme.Scheme, a package variable every part of the process shares: make a new one")
		Expect(clientgoscheme.Scheme.Recognizes(gadgetKind)).To(BeFalse(),
			"client-go's scheme.Scheme now knows Gadgets: NewGadgetScheme added them to a Scheme shared by the whole process")
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
