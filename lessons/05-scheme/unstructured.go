package scheme

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Exercise 4: convert between typed objects and Unstructured, finding the kind through the Scheme.
//
// An Unstructured is an object as a map[string]any, the shape of its JSON: what the dynamic
// client reads and writes, for any kind, with no Go type. runtime.DefaultUnstructuredConverter
// turns a typed object into that map and back, field by field, without going through JSON.
//
// The converter copies only what is in the struct. A typed object fresh from a typed client has
// an empty TypeMeta, so its map has no apiVersion and no kind. The API server would fill them in
// from the URL for a built-in kind, but it refuses a custom resource without them, and
// controller-runtime's client cannot even tell which resource to send a map that does not say
// what it is. The Scheme knows: controller-runtime's apiutil.GVKForObject (package
// sigs.k8s.io/controller-runtime/pkg/client/apiutil) asks it, and is what controller-runtime's
// client calls before every request. Set the kind on the Unstructured, never on obj: obj may be
// shared, as an object from an informer's cache is.

// ToUnstructured converts a typed object to an Unstructured with apiVersion and kind set. obj
// itself is left as it was, never written to, not even for a moment.
//
// A Go type the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func ToUnstructured(s *runtime.Scheme, obj runtime.Object) (*unstructured.Unstructured, error) {
	// TODO(exercise 4): find obj's GVK with apiutil.GVKForObject, convert obj to a map with
	// runtime.DefaultUnstructuredConverter.ToUnstructured, wrap the map in an Unstructured
	// and set its GroupVersionKind (on the Unstructured: obj is not yours to write to).
	return nil, errNotImplemented(4)
}

// FromUnstructured converts an Unstructured to the typed object of its kind: a *corev1.ConfigMap
// for apiVersion v1, kind ConfigMap. u is left as it was.
//
// A kind the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func FromUnstructured(s *runtime.Scheme, u *unstructured.Unstructured) (runtime.Object, error) {
	// TODO(exercise 4): ask the Scheme for a new object of u's GroupVersionKind, then fill it
	// from u's content with runtime.DefaultUnstructuredConverter.FromUnstructured.
	return nil, errNotImplemented(4)
}
