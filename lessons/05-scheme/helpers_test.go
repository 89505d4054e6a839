package scheme_test

import (
	"sync/atomic"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	scheme "workshop.local/lessons/05-scheme"
)

// The kinds and resources the specs use most.
var (
	coreV1     = schema.GroupVersion{Version: "v1"}
	podKind    = coreV1.WithKind("Pod")
	deployKind = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	gadgetKind = scheme.GroupVersion.WithKind("Gadget")

	gadgetAlphaKind = scheme.GroupVersionV1alpha1.WithKind("Gadget")

	configMaps = coreV1.WithResource("configmaps")
	gadgets    = scheme.GroupVersion.WithResource("gadgets")
)

// coreOnlyScheme is a Scheme with core/v1 only, made by the specs so that exercises 3 and 4
// do not depend on your exercise 1.
func coreOnlyScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	Expect(corev1.AddToScheme(s)).To(Succeed())
	return s
}

// gadgetOnlyScheme is a Scheme that knows Gadgets and nothing else, made by the specs so that
// exercises 3 and 4 do not depend on your exercise 2.
func gadgetOnlyScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypes(scheme.GroupVersion, &scheme.Gadget{}, &scheme.GadgetList{})
	return s
}

// gadgetCRD makes the API server serve Gadgets: the resource "gadgets" in the lesson's group,
// namespaced, with a schema matching gadget_types.go. A CRD is cluster-scoped, so every spec
// shares this one; harness.EnsureCRD installs it once.
func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	spec := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"color":    str,
		"parts":    {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &str}},
		"settings": {Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &str}},
	}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets." + scheme.GroupVersion.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: scheme.GroupVersion.Group,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList",
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: scheme.GroupVersion.Version, Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": spec},
				}},
			}},
		},
	}
}

// newGadget is a Gadget with a slice and a map, the fields a shallow copy would share.
func newGadget(namespace, name string) *scheme.Gadget {
	return &scheme.Gadget{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: scheme.GadgetSpec{
			Color:    "teal",
			Parts:    []string{"spring", "gear"},
			Settings: map[string]string{"speed": "fast"},
		},
	}
}

// spyGadget is a Gadget that counts the writes to its apiVersion and kind, to catch code that
// writes into an object it was only given to read, even if it puts the old values back after:
// on an object from an informer's cache, another goroutine may read it in between. Its deep
// copies are not watched: writing to a copy of your own is fine.
type spyGadget struct {
	scheme.Gadget
	kindWrites *atomic.Int32
}

// newSpyGadget returns a watched Gadget and the Scheme that knows it as lesson05.workshop.local/v1 Gadget.
func newSpyGadget(name string) (*spyGadget, *runtime.Scheme) {
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(gadgetKind, &spyGadget{})
	return &spyGadget{Gadget: *newGadget("", name), kindWrites: new(atomic.Int32)}, s
}

func (g *spyGadget) GetObjectKind() schema.ObjectKind {
	return spyKind{ObjectKind: &g.TypeMeta, writes: g.kindWrites}
}

func (g *spyGadget) DeepCopyObject() runtime.Object {
	return &spyGadget{Gadget: *g.Gadget.DeepCopy()}
}

// spyKind counts SetGroupVersionKind calls, then passes them on.
type spyKind struct {
	schema.ObjectKind
	writes *atomic.Int32
}

func (k spyKind) SetGroupVersionKind(gvk schema.GroupVersionKind) {
	if k.writes != nil {
		k.writes.Add(1)
	}
	k.ObjectKind.SetGroupVersionKind(gvk)
}
