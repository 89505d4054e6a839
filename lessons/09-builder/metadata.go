package sites

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 2: watches that cache only metadata.
//
// The controller of exercise 1 caches every ConfigMap of its namespaces whole, data and all,
// although it only needs to know *that* a page or the settings changed: the handlers read
// names, namespaces and owner references, nothing else. builder.OnlyMetadata (or
// WatchesMetadata) makes the Builder watch a metav1.PartialObjectMetadata of that kind instead:
// the cache's informer then lists and watches through the metadata client, and the API server
// sends only each object's metadata.
//
// The cache keeps one informer per kind and per form (typed, unstructured, metadata): a
// PartialObjectMetadata ConfigMap and a *corev1.ConfigMap are two informers, two lists, two
// watches. One full-object ConfigMap watch, or read through the manager's client, brings the
// whole objects back.

// NewLeanWebsiteController is NewWebsiteController (exercise 1, without options, name or parent
// predicate) with both ConfigMap watches, the owned pages and the settings, metadata-only.
// Websites and Deployments stay whole objects: the Website reconciler reads them whole (a
// site's spec, a Deployment's status).
func NewLeanWebsiteController(mgr manager.Manager, r reconcile.Reconciler) (controller.Controller, error) {
	// TODO(exercise 2): the chain of exercise 1 without name, options and parent predicate,
	// with the two ConfigMap watches metadata-only and the watches of what the reconciler
	// reads whole left whole.
	return nil, errNotImplemented(2)
}

// PageMetadata reads the metadata of site's page ConfigMap through reader (the manager's
// client), from the metadata-only cache: no request to the API server, and no second, full
// ConfigMap informer. A missing page is the reader's NotFound error.
func PageMetadata(ctx context.Context, reader client.Reader, site *Website) (*metav1.PartialObjectMetadata, error) {
	// TODO(exercise 2): Get a *metav1.PartialObjectMetadata, not a *corev1.ConfigMap (that
	// would start a second, full ConfigMap informer). Which kind is it part of?
	return nil, errNotImplemented(2)
}
