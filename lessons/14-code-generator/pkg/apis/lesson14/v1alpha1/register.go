package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of Page; +groupName in doc.go says the same to the generators.
const GroupName = "lesson14.workshop.local"

// SchemeGroupVersion is the group and version of this package. The generated clientset sends
// its requests to /apis/<group>/<version> from it, and the listers name it in their errors.
//
// TODO(exercise 1): the group is GroupName, the version this package's name.
var SchemeGroupVersion = schema.GroupVersion{}

// Resource turns a resource name into a GroupResource of this group (the generated listers'
// NotFound errors use it). It needs no edits.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	// SchemeBuilder collects the functions that register this package's types.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers Page and PageList with a Scheme: the generated clientset's scheme
	// calls it (in an init function, where an error would panic), and so does any Scheme that
	// must encode or decode Pages.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes maps this group version's kinds to their Go types and adds the options types
// (ListOptions, GetOptions, ...) that every group version's requests carry.
//
// TODO(exercise 1): register Page and PageList under SchemeGroupVersion, and the meta types of
// the group version. (The stub registers nothing and returns nil: the generated clientset's
// scheme calls this in an init function, where an error would stop every spec.)
func addKnownTypes(scheme *runtime.Scheme) error {
	_ = scheme
	return nil
}
