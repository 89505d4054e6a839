package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Registering StaticSite with a Scheme, as lesson 05 taught (kubebuilder's name for this file is
// groupversion_info.go). It needs no edits.

// GroupVersion is the group and version of StaticSite: a new API, so v1alpha1 (Kubernetes'
// API versioning: alpha may still change, then beta, then v1). +groupName and +versionName in
// this package's doc.go say the same to controller-gen.
var GroupVersion = schema.GroupVersion{Group: "lesson10.workshop.local", Version: "v1alpha1"}

// AddToScheme registers StaticSite and StaticSiteList (and the meta types every group version
// needs) with a Scheme.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &StaticSite{}, &StaticSiteList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
