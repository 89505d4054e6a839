package operator

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// Exercise 5: events, for people watching the site.
//
// An event is a short note about one object ("regarding") and, when there is one, another
// object it concerns ("related"), from a named controller. kubectl events --for
// staticsite/<name> lists the events regarding a site with their type, reason, object and note,
// but not their related object: the note is where people read what was changed.
// mgr.GetEventRecorder (see NewReconciler) gives a recorder for the events.k8s.io/v1 API; its
// Eventf takes regarding, related, a type (Normal or Warning), a reason (one word that tools
// can filter on) and an action (what the controller did), both CamelCase by convention, and a
// note for people (a format and its arguments). Events are sent in the background and may be
// merged or dropped: never read them back to decide anything.

// record reports a change the controller made to related on site's behalf: a Normal event
// regarding the site, with related as the related object, the change as its reason, its
// Action as the action, and a note such as "Created Deployment web" (r.KindOf gives the kind).
func (r *StaticSiteReconciler) record(site *v1alpha1.StaticSite, related client.Object, change Change) {
	// TODO(exercise 5): one Normal event, through r.Recorder, as described above. The stub
	// records nothing.
}

// recordFailure reports a failed reconcile: a Warning event regarding the site (no related
// object), reason ReconcileFailed, action Reconcile, the error as its note.
func (r *StaticSiteReconciler) recordFailure(site *v1alpha1.StaticSite, err error) {
	// TODO(exercise 5): one Warning event. The stub records nothing.
}
