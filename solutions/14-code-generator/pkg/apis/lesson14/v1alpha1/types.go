package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// A Page is a small web page that the lesson's controller renders into a ConfigMap (its child).
// The tags in the comment block just above a type are read by the generators:
//
//   - +genclient: client-gen writes a typed client for Page (Get, List, Watch, Create, Update,
//     UpdateStatus, Apply, ApplyStatus, Delete, Patch), lister-gen a lister, informer-gen an
//     informer; applyconfiguration-gen an apply configuration. Page has a Status field, so the
//     client gets the status subresource's methods (+genclient:noStatus would leave them out).
//   - +k8s:deepcopy-gen:interfaces=...runtime.Object: deepcopy-gen adds DeepCopyObject, which
//     makes *Page a runtime.Object, what a Scheme and every client want.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type Page struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PageSpec   `json:"spec"`
	Status PageStatus `json:"status,omitempty"`
}

// PageSpec is what the page should say.
type PageSpec struct {
	// Title is the page's title.
	Title string `json:"title,omitempty"`
	// Body is the page's text.
	Body string `json:"body,omitempty"`
	// Theme names the page's colours ("light", "dark").
	Theme string `json:"theme,omitempty"`
}

// PageStatus is what the controller last did; only the status subresource writes it.
type PageStatus struct {
	// ConfigMap is the name of the ConfigMap that holds the rendered page.
	ConfigMap string `json:"configMap,omitempty"`
	// ObservedGeneration is the .metadata.generation of the spec that ConfigMap renders.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// PageList is a list of Pages, what List returns. It has no +genclient: the client of Page
// lists them; it still needs DeepCopyObject to be a runtime.Object.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Page `json:"items"`
}
