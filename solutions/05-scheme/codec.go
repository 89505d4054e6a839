package scheme

import (
	"fmt"

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
	codecs := serializer.NewCodecFactory(s)
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, fmt.Errorf("the codec factory has no serializer for %s", runtime.ContentTypeJSON)
	}
	// The plain JSON serializer writes the struct as it is, empty TypeMeta included. The
	// versioning encoder around it converts to the group version asked for (Scheme conversion,
	// exercise 2) and sets apiVersion and kind. When obj is already in that version it does so by
	// writing them into the very object it is given, restoring the old values once it has
	// written the bytes. On a shared object (an informer's cache hands the same pointer to every
	// reader) that is a data race, so it gets a deep copy, which is ours to write to.
	encoder := codecs.EncoderForVersion(info.Serializer, gvks[0].GroupVersion())
	return runtime.Encode(encoder, obj.DeepCopyObject())
}
