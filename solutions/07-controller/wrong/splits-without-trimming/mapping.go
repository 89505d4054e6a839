// Wrong (exercise 3): its index function splits the annotation on commas itself, without trimming.
// "team-a, team-b" is filed under "team-a" and " team-b": a lookup for team-b finds nothing, so
// that namespace's mirror is not made when it appears. Targets already parses the list the way
// the reconciler reads it; the index must agree with it.

package mirror

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
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
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return nil
	}
	return strings.Split(cm.Annotations[MirrorToAnnotation], ",")
}

// MirrorsInto returns the map function from a Namespace to a request for every ConfigMap that
// wants to be mirrored into it, found through TargetIndex in reader (the manager's cache).
func MirrorsInto(reader client.Reader) handler.TypedMapFunc[*corev1.Namespace, reconcile.Request] {
	return func(ctx context.Context, ns *corev1.Namespace) []reconcile.Request {
		var sources corev1.ConfigMapList
		if err := reader.List(ctx, &sources, client.MatchingFields{TargetIndex: ns.Name}); err != nil {
			// A map function cannot return an error: log it and enqueue nothing.
			log.FromContext(ctx).Error(err, "listing the ConfigMaps to mirror into a new namespace", "namespace", ns.Name)
			return nil
		}
		requests := make([]reconcile.Request, 0, len(sources.Items))
		for _, cm := range sources.Items {
			requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&cm)})
		}
		return requests
	}
}

// WatchNamespaces registers TargetIndex with the manager's cache, and makes c watch
// Namespaces: each namespace *created* enqueues MirrorsInto(the manager's client). Updates and
// deletions of namespaces are dropped by a predicate: they create no mirror.
func WatchNamespaces(ctx context.Context, mgr manager.Manager, c controller.Controller) error {
	if err := mgr.GetFieldIndexer().IndexField(ctx, &corev1.ConfigMap{}, TargetIndex, IndexTargets); err != nil {
		return err
	}
	onlyCreate := predicate.TypedFuncs[*corev1.Namespace]{
		CreateFunc:  func(event.TypedCreateEvent[*corev1.Namespace]) bool { return true },
		UpdateFunc:  func(event.TypedUpdateEvent[*corev1.Namespace]) bool { return false },
		DeleteFunc:  func(event.TypedDeleteEvent[*corev1.Namespace]) bool { return false },
		GenericFunc: func(event.TypedGenericEvent[*corev1.Namespace]) bool { return false },
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Namespace{},
		handler.TypedEnqueueRequestsFromMapFunc(MirrorsInto(mgr.GetClient())), onlyCreate))
}
