// Wrong (exercise 1): it splits apiVersion at the first slash only, so "apps/v1/extra" parses as version "v1/extra".
// strings.Cut stops at the first slash and keeps the rest: the version comes out as "v1/extra"
// and the object is accepted. The API server would reject it, but a controller that builds
// requests from it sends them to a path that does not exist. schema.ParseGroupVersion rejects
// more than one slash.

package gvkgvr

import (
	"errors"
	"strings"

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
	// The core group has no name: "v1" alone is a version.
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	gv := schema.GroupVersion{Group: group, Version: version}
	if gv.Version == "" {
		return schema.GroupVersionKind{}, errors.New("apiVersion has no version")
	}
	if kind == "" {
		return schema.GroupVersionKind{}, errors.New("kind is empty")
	}
	return gv.WithKind(kind), nil
}
