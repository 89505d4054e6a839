// Package v1alpha1 is the lesson14.workshop.local/v1alpha1 API: the Page kind. The comments
// that start with + are tags: the code generators of k8s.io/code-generator read them to decide
// what to write. Package tags go in this file: the generators' parser (gengo) reads a package's
// tags from its file named doc.go, and from no other.
//
// TODO(exercise 1): add the two package tags: one that makes deepcopy-gen write deep copy
// functions for every type of this package, and one that names the API group this package
// belongs to (lesson14.workshop.local), so the generated code knows it.
package v1alpha1
