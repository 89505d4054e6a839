// Wrong (exercise 1): it always reads the part before the slash as the group, so "v1" becomes group "v1" with no version.
// The core group has no name: its apiVersion is just the version. Cutting at a slash that is
// not there leaves everything in the first half, so every core object (Pods, ConfigMaps,
// Namespaces) is rejected for having no version.

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
	group, version, _ := strings.Cut(apiVersion, "/")
	gv := schema.GroupVersion{Group: group, Version: version}
	if gv.Version == "" {
		return schema.GroupVersionKind{}, errors.New("apiVersion has no version")
	}
	if kind == "" {
		return schema.GroupVersionKind{}, errors.New("kind is empty")
	}
	return gv.WithKind(kind), nil
}
