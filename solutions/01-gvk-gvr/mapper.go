package gvkgvr

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// Exercise 3a: a RESTMapper built from the cluster's discovery information.
//
// The server is the authority on which resource serves a kind and whether it is namespaced:
// CRDs add kinds at run time, each with a plural and a scope of its own. A good mapper asks
// discovery once, caches the answer, and can be reset to ask again.
func NewMapper(cfg *rest.Config) (meta.ResettableRESTMapperWithContext, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	// The deferred mapper reads discovery on first use, through the in-memory cache, and keeps
	// the answer until it is reset.
	return restmapper.NewDeferredDiscoveryRESTMapperWithContext(memory.NewMemCacheClientWithContext(dc)), nil
}

// Exercise 3b: map a kind to the resource that serves it, and to its scope.
//
// A kind the cached discovery has not seen may have been added since (a CRD installed after
// the mapper's first lookup), so on a "no match" we reset the cache and ask once more. A kind
// that is still unknown after that is not served, or its group version failed to answer
// discovery (the mapper keeps what the other group versions sent).
func MapKind(ctx context.Context, mapper meta.ResettableRESTMapperWithContext, gvk schema.GroupVersionKind) (schema.GroupVersionResource, meta.RESTScopeName, error) {
	mapping, err := mapper.RESTMappingWithContext(ctx, gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		mapper.ResetWithContext(ctx)
		mapping, err = mapper.RESTMappingWithContext(ctx, gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return schema.GroupVersionResource{}, "", err
	}
	return mapping.Resource, mapping.Scope.Name(), nil
}
