// Wrong (exercise 4): it takes the first kind Scheme.ObjectKinds returns, even when the Go type is registered under several.
// A Go type can be registered under several kinds: metav1.DeleteOptions is DeleteOptions in every
// group version of client-go's scheme. The first one is then a guess, and it ignores the kind the
// object says it is. apiutil.GVKForObject keeps the object's own kind when it is one of them, and
// refuses to guess otherwise.

package scheme

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Exercise 4: convert between typed objects and Unstructured, finding the kind through the Scheme.
//
// An Unstructured is an object as a map[string]any, the shape of its JSON: what the dynamic
// client reads and writes, for any kind, with no Go type. runtime.DefaultUnstructuredConverter
// turns a typed object into that map and back, field by field by reflection, not through a JSON
// round trip of the whole object (a field type can write itself: metav1.Time has a
// ToUnstructured method, and a type with only a JSON marshaler of its own goes through that).
//
// The converter copies only what is in the struct. A typed object fresh from a typed client has
// an empty TypeMeta, so its map has no apiVersion and no kind. The API server would fill them in
// from the URL for a built-in kind, but it refuses a custom resource without them, and
// controller-runtime's client cannot even tell which resource to send a map that does not say
// what it is. The Scheme knows: controller-runtime's apiutil.GVKForObject (package
// sigs.k8s.io/controller-runtime/pkg/client/apiutil) asks it, and controller-runtime's client
// calls it for every object it is handed. Set the kind on the Unstructured, not on obj: obj may
// be shared, as an object from an informer's cache is.

// ToUnstructured converts a typed object to an Unstructured with apiVersion and kind set. obj
// itself is left as it was, never written to, not even for a moment.
//
// A Go type the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func ToUnstructured(s *runtime.Scheme, obj runtime.Object) (*unstructured.Unstructured, error) {
	gvks, _, err := s.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	gvk := gvks[0]
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	// For a typed object the converter builds a new map: setting the kind on it leaves obj's
	// TypeMeta untouched.
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// FromUnstructured converts an Unstructured to the typed object of its kind: a *corev1.ConfigMap
// for apiVersion v1, kind ConfigMap. u is left as it was.
//
// A kind the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func FromUnstructured(s *runtime.Scheme, u *unstructured.Unstructured) (runtime.Object, error) {
	// The Scheme's first map picks the Go type; the converter fills it. apiVersion and kind
	// are in the map, so this typed object, unlike a typed client's, keeps its TypeMeta.
	obj, err := s.New(u.GroupVersionKind())
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.UnstructuredContent(), obj); err != nil {
		return nil, err
	}
	return obj, nil
}
