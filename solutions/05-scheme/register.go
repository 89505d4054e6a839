package scheme

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
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
	s.AddKnownTypes(GroupVersion, &Gadget{}, &GadgetList{})
	// Without the shared kinds, a client could not send CreateOptions or ListOptions to this
	// group version, nor decode the WatchEvents a watch on Gadgets streams back.
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// NewGadgetScheme returns a Scheme that knows every built-in kind (client-go's scheme) and
// Gadgets: what an operator's main.go builds before it starts a manager.
func NewGadgetScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	// A SchemeBuilder is just a list of AddToScheme functions; its AddToScheme runs them all
	// and stops at the first error.
	builder := runtime.NewSchemeBuilder(clientgoscheme.AddToScheme, AddToScheme)
	if err := builder.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}
