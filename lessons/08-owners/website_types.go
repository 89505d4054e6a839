package owners

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// This file declares the lesson's own kind, Website, and registers it; it needs no edits.
// Lesson 05 showed how such a file is made: a Go struct with TypeMeta and ObjectMeta, a deep
// copy (zz_generated.deepcopy.go), and AddToScheme. The specs install the matching
// CustomResourceDefinition (helpers_test.go), so the API server serves Websites.

// GroupVersion is the group and version of Websites.
var GroupVersion = schema.GroupVersion{Group: "lesson08.workshop.local", Version: "v1"}

var (
	// SchemeBuilder collects the functions that add this group's kinds to a Scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds Website and WebsiteList to a Scheme: a manager's, or a client's.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Website{}, &WebsiteList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// Website is a small web site: some HTML, served by a number of replicas. Its controller makes
// two children in its namespace, both controlled by it (see website.go): a ConfigMap named
// PageName(site) that holds the page, and a Deployment named like the site that serves it.
type Website struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WebsiteSpec `json:"spec,omitempty"`
}

// WebsiteSpec is what a Website should be.
type WebsiteSpec struct {
	// Replicas is how many pods serve the site.
	Replicas int32 `json:"replicas"`
	// Page is the site's HTML (index.html).
	Page string `json:"page,omitempty"`
}

// WebsiteList is the kind the API server returns when you list Websites.
type WebsiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Website `json:"items"`
}
