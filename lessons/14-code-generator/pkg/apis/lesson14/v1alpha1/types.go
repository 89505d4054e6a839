package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// A Page is a small web page that the lesson's controller renders into a ConfigMap (its child).
// The tags in the comment block just above a type are read by the generators.
//
// TODO(exercise 1): tag Page so that client-gen writes a typed client for it (lister-gen and
// informer-gen follow the same tag) and deepcopy-gen makes *Page a runtime.Object.
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

// PageList is a list of Pages, what List returns.
//
// TODO(exercise 1): does PageList need a tag too? (It is no kind of its own to get a client for.)
type PageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Page `json:"items"`
}
