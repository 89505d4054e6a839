// Wrong (exercise 3): it sets apiVersion and kind on the caller's object and marshals it with encoding/json.
// The JSON is right, but the object it was given now carries a kind it did not have: a typed
// object from an informer's cache is shared, so every other reader sees the change (and races
// with the write). Code that later compares or patches that object finds a diff that is not there.

package scheme

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// Exercise 3: decode YAML into typed objects and encode typed objects to JSON, with a
// CodecFactory built on a Scheme.
//
// A serializer turns bytes into a Go object and back, for one format: JSON, YAML, protobuf.
// It cannot pick the Go type by itself: it reads apiVersion and kind from the bytes and asks the
// Scheme for a new object of that kind. serializer.NewCodecFactory(s) bundles a serializer per
// format, all backed by the Scheme s:
//
//	bytes --apiVersion, kind--> Scheme.New(gvk) --> fill the fields --> typed object
//	typed object --Scheme.ObjectKinds--> set apiVersion, kind --> bytes
//
// Decoding without a target object (Decode(data, nil, nil)), and encoding through a versioning
// encoder, work only for kinds the Scheme knows.

// Decode turns one YAML or JSON document into the typed object its apiVersion and kind name,
// as a program that reads manifests into Go structs does: a *corev1.ConfigMap for
// "apiVersion: v1, kind: ConfigMap". (kubectl apply reads them into Unstructured instead.)
//
// A kind the Scheme does not know gives an error for which runtime.IsNotRegisteredError is
// true; a document without a kind, one for which runtime.IsMissingKind is true.
func Decode(s *runtime.Scheme, data []byte) (runtime.Object, error) {
	// The universal deserializer tries each format the factory knows and decodes into the
	// version the bytes are in: no conversion, no defaulting, apiVersion and kind kept.
	obj, _, err := serializer.NewCodecFactory(s).UniversalDeserializer().Decode(data, nil, nil)
	return obj, err
}

// EncodeJSON writes obj as JSON with apiVersion and kind set, even when obj's own TypeMeta is
// empty, as it is for objects a typed client returns. obj itself is left as it was: it may be
// shared (an informer's cache hands the same object to every reader), so never write to it,
// not even for a moment: another goroutine may be reading it at that moment.
//
// A Go type the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func EncodeJSON(s *runtime.Scheme, obj runtime.Object) ([]byte, error) {
	// The Scheme says which group version obj's type belongs to (exercise 1's second map).
	gvks, _, err := s.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	// Say what the object is, then write it out.
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	return json.Marshal(obj)
}
