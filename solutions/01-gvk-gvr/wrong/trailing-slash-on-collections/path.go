// Wrong (exercise 2): it joins the parts with slashes by hand and always adds the name, so a collection path ends in a slash.
// strings.Join keeps empty parts, so an empty name leaves "/api/v1/namespaces/team-a/configmaps/".
// The API server happens to accept it, but it is not the path client-go requests: whatever
// compares or keys URLs as strings (a request log like the specs', an HTTP cache, a fake
// server in a test) sees two URLs for one collection. path.Join drops empty parts.

package gvkgvr

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Exercise 2: build the REST path of a resource, as client-go does for each request to one.
//
// The core group lives under /api, every named group under /apis/<group>:
//
//	/api/v1/namespaces/default/pods/web           a Pod (core group, namespaced)
//	/apis/apps/v1/namespaces/default/deployments  the Deployments of a namespace
//	/api/v1/nodes/node-1                          a Node (cluster-scoped: no namespace part)
//
// namespace is "" for cluster-scoped resources; name is "" for the whole collection.
func RESTPath(gvr schema.GroupVersionResource, namespace, name string) string {
	prefix := "/apis/" + gvr.Group
	if gvr.Group == "" {
		prefix = "/api"
	}
	parts := []string{prefix, gvr.Version}
	if namespace != "" {
		parts = append(parts, "namespaces", namespace)
	}
	parts = append(parts, gvr.Resource, name)
	return strings.Join(parts, "/")
}
