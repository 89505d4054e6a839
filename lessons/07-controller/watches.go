package mirror

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 2: a Controller, its watch, and the predicates that keep it quiet.
//
// controller.New gives a controller (a workqueue and workers that call the reconciler) and
// registers it with the manager, which starts it. Nothing reaches its queue until it Watches a
// source: source.Kind takes events for one kind from the manager's shared cache (an informer),
// runs them through the predicates, and hands those that pass to an event handler, which turns
// each into a reconcile.Request on the queue.

// ControllerName names the mirror controller in logs and metrics.
const ControllerName = "configmap-mirror"

// NewMirrorController creates a controller named ControllerName in mgr that calls r, and
// makes it watch ConfigMaps through WantsMirror: each event that passes enqueues a request
// for the ConfigMap itself.
func NewMirrorController(mgr manager.Manager, r reconcile.Reconciler) (controller.Controller, error) {
	// TODO(exercise 2): create the controller in mgr, then make it watch ConfigMaps from the
	// manager's cache: each event that passes WantsMirror enqueues the ConfigMap itself.
	return nil, errNotImplemented(2)
}

// WantsMirror lets through only the events the mirror controller has work for:
//   - create, delete and generic events of a ConfigMap that has a MirrorToAnnotation;
//   - update events where the old or the new ConfigMap has one, and the data, the binary data
//     or the annotation's value changed. A change to labels or to other annotations does not
//     change any mirror, so it is dropped.
func WantsMirror() predicate.TypedPredicate[*corev1.ConfigMap] {
	// TODO(exercise 2): decide, for each kind of event, whether the mirrors have work (see
	// above). The stub lets nothing through.
	return predicate.TypedFuncs[*corev1.ConfigMap]{
		CreateFunc:  func(event.TypedCreateEvent[*corev1.ConfigMap]) bool { return false },
		DeleteFunc:  func(event.TypedDeleteEvent[*corev1.ConfigMap]) bool { return false },
		UpdateFunc:  func(event.TypedUpdateEvent[*corev1.ConfigMap]) bool { return false },
		GenericFunc: func(event.TypedGenericEvent[*corev1.ConfigMap]) bool { return false },
	}
}
