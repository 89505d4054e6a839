package scheme

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
	// TODO(exercise 2): fill both maps for both versions. The Scheme names a kind after its Go
	// type unless you name the kind yourself, and the v1alpha1 Go type is not called Gadget.
	// Each group version also needs the kinds every group shares (ListOptions, CreateOptions,
	// WatchEvent...): clients turn options into query parameters for your group version with
	// them. metav1 registers them for you, one group version at a time.
	return errNotImplemented(2)
}

// addConversionFuncs registers the conversions between the two versions of a Gadget, one
// function per direction: the Scheme looks them up by the pair of Go types.
func addConversionFuncs(s *runtime.Scheme) error {
	// TODO(exercise 2): register one function per direction, named by the pair of Go types; each
	// gets both objects as any and does its work with the functions below. A failed
	// registration is an error to return.
	return errNotImplemented(2)
}

// convertV1alpha1ToV1 fills out from in. Everything but the parts is the same in both versions:
// v1alpha1's "spring,gear" is v1's ["spring", "gear"], and "" is no parts at all.
// apiVersion and kind are not this function's job: Scheme.ConvertToVersion sets them on the
// object it returns (Scheme.Convert does not: it fills out and nothing more).
func convertV1alpha1ToV1(in *GadgetV1alpha1, out *Gadget) {
	// TODO(exercise 2): the metadata and the spec, from in to out, the parts as a list. No parts
	// must stay no parts.
}

// convertV1ToV1alpha1 fills out from in: the way back, so that v1 -> v1alpha1 -> v1 loses nothing.
func convertV1ToV1alpha1(in *Gadget, out *GadgetV1alpha1) {
	// TODO(exercise 2): the metadata and the spec, from in to out, the parts as one string.
}

// NewGadgetScheme returns a new Scheme that knows every built-in kind (client-go's scheme) and
// Gadgets: what an operator's main.go builds before it starts a manager.
func NewGadgetScheme() (*runtime.Scheme, error) {
	// TODO(exercise 2): a Scheme of your own, filled with client-go's built-in kinds and with
	// yours (AddToScheme above). Not client-go's scheme.Scheme itself: that one is shared by
	// everything in the process.
	return nil, errNotImplemented(2)
}
