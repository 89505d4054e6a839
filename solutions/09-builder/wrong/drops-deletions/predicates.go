// Wrong (exercise 4): it compares generations by hand and drops deletions ("nothing left to do").
// A deleted Website must still be reconciled: that reconcile is where a controller notices it is
// gone (and, with a finalizer, cleans up). A nil func in predicate.Funcs lets events through.

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
			return e.ObjectOld.GetGeneration() != e.ObjectNew.GetGeneration()
		},
		DeleteFunc: func(event.DeleteEvent) bool { return false },
	}
}
