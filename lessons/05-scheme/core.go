package scheme

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Exercise 1: a Scheme that knows only core/v1, the three questions every Scheme answers, and
// the defaulting functions a Scheme can hold.
//
// A runtime.Scheme is two maps kept in step:
//
//	GVK -> Go type     v1/Pod  -> corev1.Pod      "make me an empty object of this kind"
//	Go type -> GVK     corev1.Pod -> v1/Pod       "which kind is this object?"
//
// A Scheme starts empty (runtime.NewScheme). Each API package exports an AddToScheme function
// that fills in its kinds: k8s.io/api/core/v1 adds Pods, ConfigMaps, Namespaces and the rest of
// the core group. client-go's k8s.io/client-go/kubernetes/scheme package holds a Scheme with every
// built-in group already added; the specs compare yours with it.
//
// Besides the two maps, a Scheme holds a defaulting function per Go type (AddTypeDefaultingFunc),
// which Scheme.Default runs, and which the codecs run when they decode to a version. The API
// server's Scheme holds one for Pods, which fills in restartPolicy, imagePullPolicy and the
// rest when a request leaves them out. k8s.io/api registers none: client-go's scheme knows
// every kind and defaults nothing.

// NewCoreScheme returns a new Scheme that knows the kinds of core/v1, and nothing else, and
// defaults Pods with defaultPod.
func NewCoreScheme() (*runtime.Scheme, error) {
	// TODO(exercise 1): make an empty Scheme and add core/v1 to it with the AddToScheme
	// function of package k8s.io/api/core/v1. Then register defaultPod as the defaulting
	// function of *corev1.Pod (s.AddTypeDefaultingFunc: it hands the function an any).
	return nil, errNotImplemented(1)
}

// defaultPod fills in three of the fields the API server fills in when a Pod leaves them out,
// with the same values: restartPolicy, terminationGracePeriodSeconds and, in each container,
// imagePullPolicy. A field that is set keeps its value.
func defaultPod(pod *corev1.Pod) {
	// TODO(exercise 1): restartPolicy Always; terminationGracePeriodSeconds
	// corev1.DefaultTerminationGracePeriodSeconds (a pointer: nil is "not set"); imagePullPolicy
	// Always when imageTag(image) is "latest", IfNotPresent otherwise. Only where a field is
	// empty, and in the Pod's own containers, not in copies of them.
}

// KnownKinds lists, sorted, the kinds s knows in the group version gv: the keys of the first map,
// for one group version. It is empty for a group version s has never heard of.
func KnownKinds(s *runtime.Scheme, gv schema.GroupVersion) []string {
	// TODO(exercise 1): s.KnownTypes(gv) maps kind names to Go types; collect the names and
	// sort them (package slices).
	panic(errNotImplemented(1))
}

// KindOf says which kind obj is, by its Go type: the second map. It works on objects whose
// apiVersion and kind fields are empty, which is how typed clients return them.
//
// A Go type the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func KindOf(s *runtime.Scheme, obj runtime.Object) (schema.GroupVersionKind, error) {
	// TODO(exercise 1): s.ObjectKinds(obj) returns every GVK obj's type is registered under
	// (usually one), whether it is "unversioned", and an error. Return the first GVK.
	return schema.GroupVersionKind{}, errNotImplemented(1)
}

// NewObject returns a new, empty object of the kind gvk: a *corev1.Pod for v1/Pod.
//
// A kind the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func NewObject(s *runtime.Scheme, gvk schema.GroupVersionKind) (runtime.Object, error) {
	// TODO(exercise 1): ask the Scheme for a new object of that kind.
	return nil, errNotImplemented(1)
}

// imageTag returns the tag the API server reads in an image reference: the tag written after
// the name ("busybox:1.36" has 1.36), "latest" when the image names neither a tag nor a digest
// ("busybox", "registry.local:5000/busybox"), and "" when it names only a digest. It needs no edits.
func imageTag(image string) string {
	name, _, hasDigest := strings.Cut(image, "@")
	// A colon before the last slash belongs to a registry's port, not to a tag.
	last := name[strings.LastIndex(name, "/")+1:]
	if _, tag, ok := strings.Cut(last, ":"); ok {
		return tag
	}
	if hasDigest {
		return ""
	}
	return "latest"
}
