// Wrong (exercise 2): it puts every group under /apis, the core group too.
// The core group is the one exception: it lives under /api, with no group part. With /apis
// the core group's paths come out as /apis/v1/..., which the API server answers with 404 Not
// Found for every Pod, ConfigMap and Namespace.

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
	prefix := "/apis/" + gvr.Group
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
