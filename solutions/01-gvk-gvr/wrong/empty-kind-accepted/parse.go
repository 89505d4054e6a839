// Wrong (exercise 1): it does not check the kind, so an object with no kind parses.
// An empty kind names no type: a Scheme cannot create it and a RESTMapper cannot map it. The
// error belongs here, where the object is read, not three calls later.

package gvkgvr

import (
	"errors"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Exercise 1: parse an object's apiVersion and kind into a GroupVersionKind.
//
// An object sent to or from the API server says what it is with two fields (the items of a
// list of built-in objects leave them out: the list's own pair covers them):
//
//	apiVersion: apps/v1      <- "group/version"; the core group has no name, so just "v1"
//	kind: Deployment
//
// ParseGVK splits them into a schema.GroupVersionKind.
func ParseGVK(apiVersion, kind string) (schema.GroupVersionKind, error) {
	// schema.ParseGroupVersion knows the two shapes ("v1" and "group/version") and rejects
	// anything with more than one slash.
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	if gv.Version == "" {
		return schema.GroupVersionKind{}, errors.New("apiVersion has no version")
	}
	return gv.WithKind(kind), nil
}
