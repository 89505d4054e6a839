package scheme

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// This file declares the lesson's own kind, Gadget, in the group version lesson05.workshop.local/v1
// (see register.go). It needs no edits.
//
// A kind is a Go struct that follows the shape every Kubernetes object has:
//
//   - an embedded metav1.TypeMeta, serialized inline: apiVersion and kind. It gives the type its
//     GetObjectKind method, half of the runtime.Object interface.
//   - metav1.ObjectMeta under "metadata": name, namespace, labels, resourceVersion...
//   - spec (what you want) and, for most kinds, status (what there is).
//
// The other half of runtime.Object is DeepCopyObject. Nobody writes it by hand: the markers below
// (`+kubebuilder:...` comments) tell controller-gen what to generate into zz_generated.deepcopy.go,
// when `go generate` runs the directive below.

//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 object paths=.

// Gadget is a small custom kind: a colored thing made of parts.
//
// +kubebuilder:object:root=true
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is what a Gadget should be.
//
// +kubebuilder:object:generate=true
type GadgetSpec struct {
	// Color is a plain value: a shallow copy would already be independent.
	Color string `json:"color,omitempty"`
	// Parts is a slice and Settings a map: a shallow copy would share them with the original,
	// which is why every kind needs a *deep* copy.
	Parts    []string          `json:"parts,omitempty"`
	Settings map[string]string `json:"settings,omitempty"`
}

// GadgetList is the kind the API server returns when you list Gadgets. A kind you can list has a
// list kind, named <Kind>List by convention, and it must be registered too.
//
// +kubebuilder:object:root=true
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Gadget `json:"items"`
}

// GadgetV1alpha1 is the Gadget as the group's first version, v1alpha1, wrote it: its parts were
// one comma-separated string ("spring,gear"). v1 made them a list. Both versions describe the
// same kind, so a Scheme that knows both can convert one into the other (exercise 2).
//
// Its Go type name is not "Gadget", so it must be registered under the kind Gadget by name
// (Scheme.AddKnownTypeWithName): AddKnownTypes would call the kind "GadgetV1alpha1".
//
// +kubebuilder:object:root=true
type GadgetV1alpha1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetV1alpha1Spec `json:"spec,omitempty"`
}

// GadgetV1alpha1Spec is what a v1alpha1 Gadget should be.
//
// +kubebuilder:object:generate=true
type GadgetV1alpha1Spec struct {
	Color string `json:"color,omitempty"`
	// Parts is the list of parts joined with commas, "" for none.
	Parts    string            `json:"parts,omitempty"`
	Settings map[string]string `json:"settings,omitempty"`
}
