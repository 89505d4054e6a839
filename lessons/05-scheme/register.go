package scheme

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Exercise 2: register your own kind, Gadget (gadget_types.go), in a group version of its own.
//
// Every API package, built-in or custom, ends with the same few lines: its GroupVersion, a
// SchemeBuilder that collects the functions adding its types, and AddToScheme, the one function
// other code calls to teach a Scheme those types. k8s.io/api/core/v1 has them (register.go),
// and so will every operator you write (kubebuilder puts them in groupversion_info.go).

// GroupVersion is the group and version of this lesson's own kinds.
var GroupVersion = schema.GroupVersion{Group: "lesson05.workshop.local", Version: "v1"}

var (
	// SchemeBuilder collects the functions that add this group version's kinds to a Scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds them. This is the function you pass around: to a manager's Scheme,
	// to a test's Scheme, to another SchemeBuilder.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers Gadget and GadgetList under GroupVersion. The Scheme finds each kind's
// name from its Go type name, so Gadget becomes lesson05.workshop.local/v1, Kind=Gadget.
func addKnownTypes(s *runtime.Scheme) error {
	// TODO(exercise 2): register *Gadget and *GadgetList in GroupVersion (s.AddKnownTypes).
	// Then register in the same group version the kinds every group shares, ListOptions,
	// CreateOptions, WatchEvent and the rest: metav1.AddToGroupVersion does that. Clients
	// need them to turn options into query parameters for your group version.
	return errNotImplemented(2)
}

// NewGadgetScheme returns a Scheme that knows every built-in kind (client-go's scheme) and
// Gadgets: what an operator's main.go builds before it starts a manager.
func NewGadgetScheme() (*runtime.Scheme, error) {
	// TODO(exercise 2): make an empty Scheme, then add client-go's kinds (the AddToScheme of
	// package k8s.io/client-go/kubernetes/scheme) and your own (AddToScheme above). A
	// runtime.SchemeBuilder made of both functions adds them in one call.
	return nil, errNotImplemented(2)
}
