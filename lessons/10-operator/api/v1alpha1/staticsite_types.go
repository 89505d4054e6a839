package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Exercise 1: the API, in Go, with the rules the API server enforces.
//
// A CRD's schema is OpenAPI, written by controller-gen from these types: each field becomes a
// property (its doc comment the description `kubectl explain` shows), and `+kubebuilder:...`
// comments above a type or field (markers) add what Go types cannot say: bounds, allowed values,
// defaults, rules across fields (CEL), subresources, and the columns `kubectl get` prints. The
// API server then rejects a bad object before any controller sees it. After each change here,
// run `make generate`: it rewrites config/crd/ and zz_generated.deepcopy.go, and the specs
// install the CRD from config/crd/.

// StaticSite is a small web site: a page served by a number of web servers, reachable through a
// Service unless its exposure is None.
//
// TODO(exercise 1): a status subresource, and printer columns Replicas, Ready, Available, Age.
// ---
// (Lines after "---" stay out of the CRD's description.) Replicas is .spec.replicas, Ready
// .status.readyReplicas, Available the status of the condition of type Available, Age
// .metadata.creationTimestamp.
//
// +kubebuilder:object:root=true
type StaticSite struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   StaticSiteSpec   `json:"spec"`
	Status StaticSiteStatus `json:"status,omitempty"`
}

// Exposure says how a site is reached.
type Exposure string

const (
	// ExposureService puts a ClusterIP Service in front of the site's web servers.
	ExposureService Exposure = "Service"
	// ExposureNone makes no Service: the site is not reachable by name.
	ExposureNone Exposure = "None"
)

// StaticSiteSpec is what the site should be.
//
// TODO(exercise 1): a CEL rule (XValidation) across the fields below.
// ---
// A site whose exposure is Service needs at least one replica; when it has none, the API
// server should say "a site exposed through a Service needs at least one replica".
//
// +kubebuilder:object:generate=true
type StaticSiteSpec struct {
	// Replicas is how many web servers serve the page, from 0 to 5.
	//
	// TODO(exercise 1): bounds 0 to 5, and 1 when left out.
	// +optional
	Replicas int32 `json:"replicas"`

	// Page is the site's index.html.
	Page string `json:"page"`

	// Exposure is how the site is reached: Service (a ClusterIP Service) or None.
	//
	// TODO(exercise 1): only Service or None, and Service when left out.
	// +optional
	Exposure Exposure `json:"exposure,omitempty"`
}

// StaticSiteStatus is what the controller last saw.
//
// +kubebuilder:object:generate=true
type StaticSiteStatus struct {
	// ObservedGeneration is the metadata.generation of the spec the controller last acted on.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// ReadyReplicas is the Deployment's readyReplicas.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`

	// Conditions are Available, Progressing and Degraded, each a metav1.Condition.
	//
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// StaticSiteList is the kind the API server returns when you list StaticSites.
//
// +kubebuilder:object:root=true
type StaticSiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []StaticSite `json:"items"`
}
