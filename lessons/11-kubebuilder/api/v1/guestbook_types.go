package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: json tags are required.  Any new fields you add must have json tags for the fields to be serialized.

// Exercise 1: the Guestbook API, and the rules the API server enforces for it (README.md).
//
// `make manifests` (controller-gen's crd generator) turns these types into the CRD of
// config/crd/bases/: each field a property of its OpenAPI schema (its doc comment the
// description `kubectl explain` shows), each `+kubebuilder:...` marker a rule, a default, a
// subresource or a column. `make generate` (controller-gen's object generator) writes the
// deepcopy functions of zz_generated.deepcopy.go. Run both after each change here.

// GuestbookSpec defines the desired state of Guestbook
type GuestbookSpec struct {
	// INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
	// Important: Run "make" to regenerate code after modifying this file
	// The following markers will use OpenAPI v3 schema to validate the value
	// More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

	// TODO(exercise 1): replace foo with title (required, 1 to 64 characters, cannot change once
	// set), replicas (1 to 5, 1 when left out), theme (light or dark, light when left out) and
	// entries (at most 10 strings of 1 to 140 characters each), with their markers.

	// foo is an example field of Guestbook. Edit guestbook_types.go to remove/update
	// +optional
	Foo *string `json:"foo,omitempty"`
}

// GuestbookStatus defines the observed state of Guestbook.
type GuestbookStatus struct {
	// INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
	// Important: Run "make" to regenerate code after modifying this file

	// TODO(exercise 1): observedGeneration (int64) and readyReplicas (int32), both optional.

	// For Kubernetes API conventions, see:
	// https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

	// conditions represent the current state of the Guestbook resource.
	// Each condition has a unique type and reflects the status of a specific aspect of the resource.
	//
	// Standard condition types include:
	// - "Available": the resource is fully functional
	// - "Progressing": the resource is being created or updated
	// - "Degraded": the resource failed to reach or maintain its desired state
	//
	// The status of each condition is one of True, False, or Unknown.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// TODO(exercise 1): printer columns Title, Replicas, Ready, Available and Age.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Guestbook is the Schema for the guestbooks API
type Guestbook struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is a standard object metadata
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec defines the desired state of Guestbook
	// +required
	Spec GuestbookSpec `json:"spec"`

	// status defines the observed state of Guestbook
	// +optional
	Status GuestbookStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// GuestbookList contains a list of Guestbook
type GuestbookList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Guestbook `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &Guestbook{}, &GuestbookList{})
		return nil
	})
}
