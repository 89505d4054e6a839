// Wrong (exercise 4): it takes a change of spec.replicas for a change of the spec.
// The spec has more than one field: a new page changes the spec (and the generation) but not the
// replicas, so the new page is not published until something else reconciles the site. The
// generation counts every change of the spec.

package sites

import (
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// Exercise 4: the parent's predicate: the spec changed, or someone asked.
//
// The Website reconciler acts on a site's spec and writes its status. Each status write is an
// update of the Website, and the informer reports it like any other: without a predicate, every
// status write reconciles the site once more, for nothing (the spec did not change). The API
// server counts changes of a custom resource's spec in metadata.generation; with a status
// subresource, a write to status changes the resourceVersion but not the generation, and so do
// changes of labels and annotations.
//
// A predicate that looks only at the generation has no door left for a person who wants the
// site reconciled now, without changing its spec (to put back a page that someone else edited,
// say). The usual door is an annotation whose value is a token, such as the time: setting it to
// a new value asks for one reconcile. Flux's reconcile.fluxcd.io/requestedAt works that way.

// RequestAnnotation asks for a reconcile of a Website when its value changes, for example:
//
//	kubectl annotate website alpha lesson09.workshop.local/requested-at="$(date +%s)" --overwrite
const RequestAnnotation = "lesson09.workshop.local/requested-at"

// SpecChangedOrRequested is the predicate for the parent (For) of a controller that acts on the
// spec. It lets through creations, deletions and generic events, and an update when the spec
// changed or when RequestAnnotation got a new, non-empty value. It drops every other update:
// status written, labels, other annotations, the request annotation removed or left as it was,
// and resyncs.
func SpecChangedOrRequested() predicate.Predicate {
	// Or lets an event through when one of its predicates does. Both let creations, deletions
	// and generic events through; they differ on updates.
	return predicate.Or(replicasChanged(), reconcileRequested())
}

// replicasChanged lets an update through when the site's replicas changed.
func replicasChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			before, oldOK := e.ObjectOld.(*Website)
			after, newOK := e.ObjectNew.(*Website)
			return oldOK && newOK && before.Spec.Replicas != after.Spec.Replicas
		},
	}
}

// reconcileRequested lets an update through when RequestAnnotation got a new, non-empty value:
// the value is a token, and only a new token is a new request.
func reconcileRequested() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			requested := e.ObjectNew.GetAnnotations()[RequestAnnotation]
			return requested != "" && requested != e.ObjectOld.GetAnnotations()[RequestAnnotation]
		},
	}
}
