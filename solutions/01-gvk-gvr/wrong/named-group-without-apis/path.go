// Wrong (exercise 2): it starts a named group's path with the group itself, without the /apis prefix.
// Named groups live under /apis/<group>: /apps/v1/... is no API path at all, so every request
// for a Deployment or a ClusterRole gets 404 Not Found.

package gvkgvr

import (
	"path"

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
	prefix := "/" + gvr.Group
	if gvr.Group == "" {
		prefix = "/api"
	}
	parts := []string{prefix, gvr.Version}
	if namespace != "" {
		parts = append(parts, "namespaces", namespace)
	}
	parts = append(parts, gvr.Resource)
	if name != "" {
		parts = append(parts, name)
	}
	// path.Join also guards against a stray slash doubling up.
	return path.Join(parts...)
}
