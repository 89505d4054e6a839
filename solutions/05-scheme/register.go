package scheme

import (
	"maps"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// Exercise 2: register your own kind, Gadget (gadget_types.go), in two versions of its group,
// with the functions that convert one version into the other.
//
// An API package, built-in or custom, ends by convention with the same few lines: its
// GroupVersion, a SchemeBuilder that collects the functions adding its types, and AddToScheme,
// the one function other code calls to teach a Scheme those types. k8s.io/api/core/v1 has them (register.go),
// and so will every operator you write (kubebuilder puts them in groupversion_info.go).
//
// A kind can exist in several versions of its group. The Scheme then holds one Go type per
// version and the conversion functions between them, and converts on request: Scheme.Convert,
// Scheme.ConvertToVersion, and the codecs' decoders and encoders that target a version.

// GroupVersion is the group and version of this lesson's own kinds.
var GroupVersion = schema.GroupVersion{Group: "lesson05.workshop.local", Version: "v1"}

// GroupVersionV1alpha1 is the group's older version, where a Gadget is a GadgetV1alpha1.
var GroupVersionV1alpha1 = schema.GroupVersion{Group: GroupVersion.Group, Version: "v1alpha1"}

var (
	// SchemeBuilder collects the functions that add this group's kinds to a Scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes, addConversionFuncs)
	// AddToScheme adds them. This is the function you pass around: to a manager's Scheme,
	// to a test's Scheme, to another SchemeBuilder.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers Gadget and GadgetList under GroupVersion, and GadgetV1alpha1 as the
// kind Gadget under GroupVersionV1alpha1.
func addKnownTypes(s *runtime.Scheme) error {
	// The Scheme takes each kind's name from its Go type name: Gadget, GadgetList.
	s.AddKnownTypes(GroupVersion, &Gadget{}, &GadgetList{})
	// Here the Go type name is not the kind's name, so the kind is given in full.
	s.AddKnownTypeWithName(GroupVersionV1alpha1.WithKind("Gadget"), &GadgetV1alpha1{})
	// Without the shared kinds, a client could not turn CreateOptions or ListOptions into query
	// parameters for these group versions.
	metav1.AddToGroupVersion(s, GroupVersion)
	metav1.AddToGroupVersion(s, GroupVersionV1alpha1)
	return nil
}

// addConversionFuncs registers the conversions between the two versions of a Gadget, one
// function per direction: the Scheme looks them up by the pair of Go types.
func addConversionFuncs(s *runtime.Scheme) error {
	if err := s.AddConversionFunc((*GadgetV1alpha1)(nil), (*Gadget)(nil), func(in, out any, _ conversion.Scope) error {
		convertV1alpha1ToV1(in.(*GadgetV1alpha1), out.(*Gadget))
		return nil
	}); err != nil {
		return err
	}
	return s.AddConversionFunc((*Gadget)(nil), (*GadgetV1alpha1)(nil), func(in, out any, _ conversion.Scope) error {
		convertV1ToV1alpha1(in.(*Gadget), out.(*GadgetV1alpha1))
		return nil
	})
}

// convertV1alpha1ToV1 fills out from in. Everything but the parts is the same in both versions:
// v1alpha1's "spring,gear" is v1's ["spring", "gear"], and "" is no parts at all.
// apiVersion and kind are not this function's job: Scheme.ConvertToVersion sets them on the
// object it returns (Scheme.Convert does not: it fills out and nothing more).
//
// The metadata and the map are copied because Scheme.Convert hands over its input as it is
// (ConvertToVersion converts a deep copy, so there sharing would be harmless).
func convertV1alpha1ToV1(in *GadgetV1alpha1, out *Gadget) {
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec.Color = in.Spec.Color
	out.Spec.Settings = maps.Clone(in.Spec.Settings)
	out.Spec.Parts = nil
	// strings.Split("", ",") is [""], one empty part: no parts must stay no parts.
	if in.Spec.Parts != "" {
		out.Spec.Parts = strings.Split(in.Spec.Parts, ",")
	}
}

// convertV1ToV1alpha1 fills out from in: the way back, so that v1 -> v1alpha1 -> v1 loses nothing.
func convertV1ToV1alpha1(in *Gadget, out *GadgetV1alpha1) {
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec.Color = in.Spec.Color
	out.Spec.Settings = maps.Clone(in.Spec.Settings)
	out.Spec.Parts = strings.Join(in.Spec.Parts, ",")
}

// NewGadgetScheme returns a new Scheme that knows every built-in kind (client-go's scheme) and
// Gadgets: what an operator's main.go builds before it starts a manager.
func NewGadgetScheme() (*runtime.Scheme, error) {
	// A Scheme of your own: client-go's scheme.Scheme is a package variable shared by the
	// whole process, and adding your kinds to it changes it for every other user.
	s := runtime.NewScheme()
	// A SchemeBuilder is just a list of AddToScheme functions; its AddToScheme runs them all
	// and stops at the first error.
	builder := runtime.NewSchemeBuilder(clientgoscheme.AddToScheme, AddToScheme)
	if err := builder.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}
