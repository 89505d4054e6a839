// Wrong (exercise 2): it watches the settings' metadata but enqueues the settings ConfigMap itself.
// The reconciler is asked about a Website named site-settings, which does not exist, and the
// pages keep the old footer until their sites are reconciled for another reason. The handler
// decides which requests an event makes: the map function.

package sites

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
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
	return ctrl.NewControllerManagedBy(mgr).
		For(&Website{}).
		Owns(&corev1.ConfigMap{}, builder.OnlyMetadata).
		Owns(&appsv1.Deployment{}).
		WatchesMetadata(&corev1.ConfigMap{},
			&handler.EnqueueRequestForObject{},
			builder.WithPredicates(predicate.NewPredicateFuncs(IsSettings))).
		Build(r)
}

// PageMetadata reads the metadata of site's page ConfigMap through reader (the manager's
// client), from the metadata-only cache: no request to the API server, and no second, full
// ConfigMap informer. A missing page is the reader's NotFound error.
func PageMetadata(ctx context.Context, reader client.Reader, site *Website) (*metav1.PartialObjectMetadata, error) {
	page := &metav1.PartialObjectMetadata{}
	// A PartialObjectMetadata does not say which kind it is part of: say it, or the client
	// cannot tell which informer (and which resource) to read.
	page.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	if err := reader.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: PageName(site)}, page); err != nil {
		return nil, err
	}
	return page, nil
}
