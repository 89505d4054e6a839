// Wrong (exercise 4): it lets an update through only when spec.replicas changed.
// The spec has more than one field: a new page changes the spec (and the generation) but not the
// replicas, so the page is never published. The generation counts every change of the spec.

package sites

import (
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// Exercise 4: a spec-driven controller ignores writes to status.
//
// The Website reconciler acts on a site's spec and writes its status. Each status write is an
// update of the Website, and the informer reports it like any other: without a predicate, every
// status write reconciles the site once more, for nothing (the spec did not change). The API
// server counts changes of the spec in metadata.generation; with a status subresource, a write
// to status changes the resourceVersion but not the generation.

// SpecChanged is the predicate for the parent (For) of a controller that acts on the spec:
// it lets through creations, deletions and generic events, and updates that changed the spec.
// It drops updates that changed only the status or the metadata, and resyncs.
func SpecChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			before, oldOK := e.ObjectOld.(*Website)
			after, newOK := e.ObjectNew.(*Website)
			return oldOK && newOK && before.Spec.Replicas != after.Spec.Replicas
		},
	}
}
