// Wrong (exercise 4): it uses ResourceVersionChangedPredicate for the parent.
// Every write, status included, changes the resourceVersion: the predicate drops only resyncs,
// so each status write still reconciles the site once more for nothing.

package sites

import (
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
	return predicate.ResourceVersionChangedPredicate{}
}
