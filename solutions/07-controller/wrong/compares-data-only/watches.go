// Wrong (exercise 2): its update predicate compares Data, and forgets BinaryData.
// A ConfigMap has two data fields, and the mirrors copy both: an update that changes only the
// binary data is dropped, so the mirrors keep the old bytes until some other change comes.

package mirror

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
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
	c, err := controller.New(ControllerName, mgr, controller.Options{Reconciler: r})
	if err != nil {
		return nil, err
	}
	configMaps := source.Kind(mgr.GetCache(), &corev1.ConfigMap{},
		&handler.TypedEnqueueRequestForObject[*corev1.ConfigMap]{}, WantsMirror())
	if err := c.Watch(configMaps); err != nil {
		return nil, err
	}
	return c, nil
}

// WantsMirror lets through only the events the mirror controller has work for:
//   - create, delete and generic events of a ConfigMap that has a MirrorToAnnotation;
//   - update events where the old or the new ConfigMap has one, and the data, the binary data
//     or the annotation's value changed. A change to labels or to other annotations does not
//     change any mirror, so it is dropped.
func WantsMirror() predicate.TypedPredicate[*corev1.ConfigMap] {
	return predicate.TypedFuncs[*corev1.ConfigMap]{
		CreateFunc:  func(e event.TypedCreateEvent[*corev1.ConfigMap]) bool { return wantsMirror(e.Object) },
		DeleteFunc:  func(e event.TypedDeleteEvent[*corev1.ConfigMap]) bool { return wantsMirror(e.Object) },
		GenericFunc: func(e event.TypedGenericEvent[*corev1.ConfigMap]) bool { return wantsMirror(e.Object) },
		UpdateFunc: func(e event.TypedUpdateEvent[*corev1.ConfigMap]) bool {
			if !wantsMirror(e.ObjectOld) && !wantsMirror(e.ObjectNew) {
				return false
			}
			return mirroredChanged(e.ObjectOld, e.ObjectNew)
		},
	}
}

func wantsMirror(cm *corev1.ConfigMap) bool {
	_, ok := cm.Annotations[MirrorToAnnotation]
	return ok
}

// mirroredChanged says whether anything a mirror depends on differs between old and new.
func mirroredChanged(old, new *corev1.ConfigMap) bool {
	return old.Annotations[MirrorToAnnotation] != new.Annotations[MirrorToAnnotation] || !maps.Equal(old.Data, new.Data)
}
