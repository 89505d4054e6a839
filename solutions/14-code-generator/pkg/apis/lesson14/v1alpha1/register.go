package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of Page; +groupName in doc.go says the same to the generators.
const GroupName = "lesson14.workshop.local"

// SchemeGroupVersion is the group and version of this package. The generated clientset sends
// its requests to /apis/<group>/<version> from it, and the listers name it in their errors.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}

// Resource turns a resource name into a GroupResource of this group (the generated listers'
// NotFound errors use it).
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	// SchemeBuilder collects the functions that register this package's types.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers Page and PageList with a Scheme: the generated clientset's scheme
	// calls it, and so does any Scheme that must encode or decode Pages.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes maps this group version's kinds to their Go types, the object and its list,
// and adds the options types (ListOptions, GetOptions, ...) that every group version's requests
// carry.
func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &Page{}, &PageList{})
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
