package scheme_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	scheme "workshop.local/lessons/05-scheme"
	"workshop.local/lessons/internal/harness"
)

const (
	configMapYAML = `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  color: blue
`
	deploymentYAML = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
`
	noKindYAML = `
apiVersion: v1
metadata:
  name: what-am-i
`
)

var _ = Describe("Exercise 3: codecs, YAML in and JSON out", harness.Exercise(3), func() {
	It("decodes a YAML manifest into the typed object of its kind, apiVersion and kind kept", func() {
		obj, err := scheme.Decode(coreOnlyScheme(), []byte(configMapYAML))
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&corev1.ConfigMap{}), "a v1 ConfigMap manifest should decode to a *corev1.ConfigMap")
		cm := obj.(*corev1.ConfigMap)
		Expect(cm.Name).To(Equal("settings"))
		Expect(cm.Data).To(Equal(map[string]string{"color": "blue"}))
		Expect(cm.TypeMeta).To(Equal(metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}), "decoding without conversion keeps apiVersion and kind")
	})

	It("decodes any kind its Scheme knows: a Deployment with client-go's scheme", func() {
		obj, err := scheme.Decode(clientgoscheme.Scheme, []byte(deploymentYAML))
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&appsv1.Deployment{}))
		Expect(obj.(*appsv1.Deployment).Spec.Replicas).To(HaveValue(BeEquivalentTo(3)))
	})

	DescribeTable("says why it cannot decode a document",
		func(doc string, is func(error) bool, want string) {
			_, err := scheme.Decode(coreOnlyScheme(), []byte(doc))
			Expect(is(err)).To(BeTrue(), "want an error for which %s is true, got %v", want, err)
			GinkgoWriter.Printf("Decode: %v\n", err)
		},
		Entry("a kind the Scheme does not know", deploymentYAML, runtime.IsNotRegisteredError, "runtime.IsNotRegisteredError"),
		Entry("no kind at all", noKindYAML, runtime.IsMissingKind, "runtime.IsMissingKind"),
	)

	It("encodes a typed object to JSON with apiVersion and kind set, and leaves the object as it was", func() {
		settings := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"color": "blue"}}
		data, err := scheme.EncodeJSON(coreOnlyScheme(), settings)
		Expect(err).NotTo(HaveOccurred())
		var got map[string]any
		Expect(json.Unmarshal(data, &got)).To(Succeed(), "EncodeJSON should write JSON, got %s", data)
		Expect(got).To(HaveKeyWithValue("apiVersion", "v1"), "the JSON should say what the object is")
		Expect(got).To(HaveKeyWithValue("kind", "ConfigMap"), "the JSON should say what the object is")
		Expect(got).To(HaveKeyWithValue("data", map[string]any{"color": "blue"}))
		Expect(settings.TypeMeta).To(BeZero(), "EncodeJSON must not write apiVersion and kind into the object it was given")
	})

	It("never writes to the object it encodes, not even for a moment: it may be shared", func() {
		spy, s := newSpyGadget("clock")
		before := spy.Gadget.DeepCopy()
		data, err := scheme.EncodeJSON(s, spy)
		Expect(err).NotTo(HaveOccurred())
		var got metav1.TypeMeta
		Expect(json.Unmarshal(data, &got)).To(Succeed(), "EncodeJSON should write JSON, got %s", data)
		Expect(got).To(Equal(metav1.TypeMeta{APIVersion: "lesson05.workshop.local/v1", Kind: "Gadget"}))
		Expect(spy.kindWrites.Load()).To(BeZero(),
			"EncodeJSON wrote apiVersion and kind into the object it was given, even if it put them back after: "+
				"the versioning encoder writes into the object it encodes, so give it a deep copy")
		Expect(&spy.Gadget).To(Equal(before), "EncodeJSON changed the object it was given")
	})

	It("encodes your own kind with its own group version", func() {
		data, err := scheme.EncodeJSON(gadgetOnlyScheme(), newGadget("", "clock"))
		Expect(err).NotTo(HaveOccurred())
		var got metav1.TypeMeta
		Expect(json.Unmarshal(data, &got)).To(Succeed(), "EncodeJSON should write JSON, got %s", data)
		Expect(got).To(Equal(metav1.TypeMeta{APIVersion: "lesson05.workshop.local/v1", Kind: "Gadget"}))
	})

	It("refuses to encode a Go type the Scheme does not know", func() {
		_, err := scheme.EncodeJSON(coreOnlyScheme(), &appsv1.Deployment{})
		Expect(runtime.IsNotRegisteredError(err)).To(BeTrue(), "want an error for which runtime.IsNotRegisteredError is true, got %v", err)
	})

	It("writes JSON the API server accepts, and reads what it sends back", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson05")
		settings := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"color": "blue"}}
		body, err := scheme.EncodeJSON(coreOnlyScheme(), settings)
		Expect(err).NotTo(HaveOccurred())

		rest := cluster.Clientset.CoreV1().RESTClient()
		collection := "/api/v1/namespaces/" + ns + "/configmaps"
		_, err = rest.Post().AbsPath(collection).SetHeader("Content-Type", runtime.ContentTypeJSON).Body(body).DoRaw(ctx)
		Expect(err).NotTo(HaveOccurred(), "the API server refused the JSON EncodeJSON wrote: %s", body)

		raw, err := rest.Get().AbsPath(collection, "settings").SetHeader("Accept", runtime.ContentTypeJSON).DoRaw(ctx)
		Expect(err).NotTo(HaveOccurred())
		obj, err := scheme.Decode(coreOnlyScheme(), raw)
		Expect(err).NotTo(HaveOccurred(), "Decode could not read what the API server sent: %s", raw)
		Expect(obj).To(BeAssignableToTypeOf(&corev1.ConfigMap{}))
		Expect(obj.(*corev1.ConfigMap).Data).To(Equal(settings.Data))
	}, SpecTimeout(harness.Timeout))
})
