// Wrong (exercise 2): it always adds the namespaces/<namespace> part, even for a cluster-scoped resource.
// A cluster-scoped resource (Namespaces, Nodes, ClusterRoles) has no namespace part: with an
// empty namespace the path becomes /api/v1/namespaces/namespaces/team-a or
// /apis/rbac.authorization.k8s.io/v1/namespaces/clusterroles/view, which serve nothing.

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
	if gvr.Group == "" {
		prefix = "/api"
	}
	parts := []string{prefix, gvr.Version}
	parts = append(parts, "namespaces", namespace)
	parts = append(parts, gvr.Resource)
	if name != "" {
		parts = append(parts, name)
	}
	// path.Join also guards against a stray slash doubling up.
	return path.Join(parts...)
}
