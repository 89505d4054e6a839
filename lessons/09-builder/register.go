package sites

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Registering Website with a Scheme, as lesson 05 taught. It needs no edits.

// GroupVersion is the group and version of the lesson's kinds.
var GroupVersion = schema.GroupVersion{Group: "lesson09.workshop.local", Version: "v1"}

// AddToScheme registers Website and WebsiteList (and the meta types every group version needs)
// with a Scheme. A manager's Scheme must know Website before the Builder can derive its kind
// (For), or an owner watch can find it in an owner reference (Owns).
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Website{}, &WebsiteList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
