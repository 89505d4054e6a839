// Package v1alpha1 is the StaticSite API, group lesson10.workshop.local, version v1alpha1: the Go
// types of the custom resource (staticsite_types.go, exercise 1), their registration with a
// Scheme (groupversion_info.go) and what controller-gen generates from them
// (zz_generated.deepcopy.go here, the CRD in ../../config/crd/). An API lives in a package of its
// own, named after its version, as kubebuilder lays it out (api/<version>/) and
// sample-controller too (pkg/apis/<group>/<version>/): the controller imports it, and so can any
// other program that reads or writes StaticSites, without the controller's code.
//
// You edit staticsite_types.go, then run `make generate`. The rest of this folder needs no
// edits.
//
// +groupName=lesson10.workshop.local
// +versionName=v1alpha1
package v1alpha1
