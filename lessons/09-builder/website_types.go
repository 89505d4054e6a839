package sites

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// This file declares the lesson's own kind, Website, in lesson09.workshop.local/v1 (see
// register.go). It needs no edits. Lesson 05 showed what each part of a kind is for.

// Website is a small web site: a page (kept in a ConfigMap) served by a number of replicas
// (a Deployment). Its CRD has a status subresource: writes to status go through
// .../websites/<name>/status and do not change metadata.generation (exercise 4).
type Website struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WebsiteSpec   `json:"spec,omitempty"`
	Status WebsiteStatus `json:"status,omitempty"`
}

// WebsiteSpec is what the site should be.
type WebsiteSpec struct {
	// Replicas is how many web servers serve the page.
	Replicas int32 `json:"replicas,omitempty"`
	// Page is the site's index.html.
	Page string `json:"page,omitempty"`
}

// WebsiteStatus is what the controller last saw.
type WebsiteStatus struct {
	// ObservedGeneration is the metadata.generation of the spec the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// ReadyReplicas is the Deployment's readyReplicas.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
}

// WebsiteList is the kind the API server returns when you list Websites.
type WebsiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Website `json:"items"`
}
