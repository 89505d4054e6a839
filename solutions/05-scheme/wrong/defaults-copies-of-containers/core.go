// Wrong (exercise 1): it sets imagePullPolicy on copies of the containers, so the Pod's own containers keep an empty one.
// `for _, c := range containers` gives c, a copy of each container: writing c.ImagePullPolicy
// changes the copy, which is dropped at the end of the iteration. The Pod leaves Default with no
// pull policy, unlike what the API server stores. Index the slice, or take &containers[i].

package scheme

import (
	"slices"
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
// which Scheme.Default runs, and which the codecs' defaulting decoders run on what they decode.
// The API server's Scheme holds one for Pods, which fills in restartPolicy, imagePullPolicy and
// the rest when a request leaves them out, and one for PodLists, which defaults each Pod in it.
// k8s.io/api registers none: client-go's scheme knows every kind and defaults nothing.

// NewCoreScheme returns a new Scheme that knows the kinds of core/v1, and nothing else, and
// defaults Pods with defaultPod, whether a Pod comes alone or in a PodList.
func NewCoreScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	// AddToScheme also registers the kinds every group version shares (ListOptions, WatchEvent...).
	if err := corev1.AddToScheme(s); err != nil {
		return nil, err
	}
	// The Scheme finds a defaulting function by the exact Go type of the object, and hands it the
	// object as an any. A *PodList is a type of its own: without a function of its own, Default
	// (or a decoder) given a list of Pods would default none of them.
	s.AddTypeDefaultingFunc(&corev1.Pod{}, func(obj any) { defaultPod(obj.(*corev1.Pod)) })
	s.AddTypeDefaultingFunc(&corev1.PodList{}, func(obj any) {
		list := obj.(*corev1.PodList)
		// Index into the slice: `for _, pod := range` would default copies of the Pods.
		for i := range list.Items {
			defaultPod(&list.Items[i])
		}
	})
	return s, nil
}

// defaultPod fills in three of the fields the API server fills in when a Pod leaves them out,
// with the same values: restartPolicy, terminationGracePeriodSeconds and, in each container and
// init container, imagePullPolicy. A field that is set keeps its value, but for one: a negative
// grace period, which the API server turns into 1 second.
func defaultPod(pod *corev1.Pod) {
	if pod.Spec.RestartPolicy == "" {
		pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	defaultGracePeriod(pod)
	// Init containers pull images too. (So do ephemeral containers, but they are added later,
	// through a subresource, and have a type of their own.)
	defaultPullPolicies(pod.Spec.InitContainers)
	defaultPullPolicies(pod.Spec.Containers)
}

// defaultGracePeriod gives the Pod the API server's grace period. A pointer field is "not set"
// when nil: 0 is a value someone chose (kill at once), and it stays. A negative value is the one
// value the API server replaces: SetDefaults_Pod (k8s.io/kubernetes, pkg/apis/core/v1/defaults.go)
// turns it into 1 second, on a Pod only, before validation, which refuses negative grace periods.
func defaultGracePeriod(pod *corev1.Pod) {
	period := pod.Spec.TerminationGracePeriodSeconds
	switch {
	case period == nil:
		seconds := int64(corev1.DefaultTerminationGracePeriodSeconds)
		pod.Spec.TerminationGracePeriodSeconds = &seconds
	case *period < 0:
		seconds := int64(1)
		pod.Spec.TerminationGracePeriodSeconds = &seconds
	}
}

// defaultPullPolicies sets imagePullPolicy where it is empty: Always for the tag latest (which is
// what an image without tag or digest means), IfNotPresent otherwise.
func defaultPullPolicies(containers []corev1.Container) {
	for _, c := range containers {
		if c.ImagePullPolicy != "" {
			continue
		}
		c.ImagePullPolicy = corev1.PullIfNotPresent
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = corev1.PullAlways
		}
	}
}

// KnownKinds lists, sorted, the kinds s knows in the group version gv: the keys of the first map,
// for one group version. It is empty for a group version s has never heard of.
func KnownKinds(s *runtime.Scheme, gv schema.GroupVersion) []string {
	var kinds []string
	for kind := range s.KnownTypes(gv) {
		kinds = append(kinds, kind)
	}
	// Map order is random in Go; sorting makes the answer the same every time.
	slices.Sort(kinds)
	return kinds
}

// KindOf says which kind obj is, by its Go type: the second map. It works on objects whose
// apiVersion and kind fields are empty, which is how typed clients return them.
//
// A Go type the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func KindOf(s *runtime.Scheme, obj runtime.Object) (schema.GroupVersionKind, error) {
	// ObjectKinds looks up obj's Go type; it never reads obj's apiVersion and kind fields
	// (except for Unstructured, which has no Go type of its own).
	gvks, _, err := s.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	// A type registered in several group versions has several GVKs; the first is the one it
	// was registered with first. controller-runtime's apiutil.GVKForObject (exercise 4) is
	// stricter and refuses to guess.
	return gvks[0], nil
}

// NewObject returns a new, empty object of the kind gvk: a *corev1.Pod for v1/Pod.
//
// A kind the Scheme does not know gives an error for which runtime.IsNotRegisteredError is true.
func NewObject(s *runtime.Scheme, gvk schema.GroupVersionKind) (runtime.Object, error) {
	// New is reflect.New of the registered type: a zero value, with an empty TypeMeta too.
	return s.New(gvk)
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
