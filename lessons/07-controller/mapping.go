package mirror

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 3: events of another kind, mapped to the objects they concern.
//
// A source ConfigMap that names a namespace which does not exist yet gets no mirror there
// (exercise 1 skips it). When that namespace appears, nothing happens to the ConfigMap, so no
// ConfigMap event reconciles it: the mirror would wait for the next change to the source's data
// or targets, or a restart of the controller. The controller must also watch Namespaces and map
// a new namespace to the ConfigMaps that want to be mirrored into it.
//
// The map function runs in the informer's event delivery, for every namespace created in the
// cluster, and the next Namespace events of this watch wait for it: it should be quick, and
// should not call the API server. It asks the manager's cache, and a field index on the cache
// turns "which ConfigMaps list this namespace?" into a lookup.

// TargetIndex is the name of the cache index from each target namespace to the ConfigMaps
// that list it in their MirrorToAnnotation.
const TargetIndex = "lesson07.mirror-targets"

// IndexTargets is TargetIndex's index function: the keys under which the cache files a
// ConfigMap, one per namespace it wants to be mirrored into.
func IndexTargets(obj client.Object) []string {
	// TODO(exercise 3): the namespaces the ConfigMap wants mirrors in, read as the reconciler
	// reads them. An object that is not a ConfigMap has none.
	return nil
}

// MirrorsInto returns the map function from a Namespace to a request for every ConfigMap that
// wants to be mirrored into it, found through TargetIndex in reader (the manager's cache).
func MirrorsInto(reader client.Reader) handler.TypedMapFunc[*corev1.Namespace, reconcile.Request] {
	return func(ctx context.Context, ns *corev1.Namespace) []reconcile.Request {
		// TODO(exercise 3): List the ConfigMaps whose TargetIndex holds ns.Name, and return a
		// request for each. A map function cannot return an error: log it, return nil.
		log.FromContext(ctx).Error(errNotImplemented(3), "no map function yet")
		return nil
	}
}

// WatchNamespaces registers TargetIndex with the manager's cache, and makes c watch
// Namespaces: each namespace *created* enqueues MirrorsInto(the manager's client). Updates and
// deletions of namespaces are dropped by a predicate: they create no mirror.
func WatchNamespaces(ctx context.Context, mgr manager.Manager, c controller.Controller) error {
	// TODO(exercise 3): register TargetIndex with the manager's cache, then make c watch
	// Namespaces: each creation goes through MirrorsInto, every other event is dropped.
	return errNotImplemented(3)
}
