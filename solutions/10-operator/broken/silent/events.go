// Broken: it tells people nothing of what it does.
// It records no event at all (the starter of exercise 5).

package operator

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Exercise 5: events, for people watching the site.
//
// An event is a short note about one object ("regarding") and, when there is one, another
// object it concerns ("related"), from a named controller: kubectl events --for
// staticsite/<name> lists them. mgr.GetEventRecorder (see NewReconciler) gives a recorder for
// the events.k8s.io/v1 API; its Eventf takes regarding, related, a type (Normal or Warning), a
// reason (CamelCase, for machines), an action (CamelCase, what the controller did) and a note
// (for people, a format and its arguments). Events are sent in the background and may be
// merged or dropped: never read them back to decide anything.

// record reports a change the controller made to related on site's behalf: a Normal event
// regarding the site, with related as the related object, the change as its reason, its
// Action as the action, and a note such as "Created Deployment web" (r.KindOf gives the kind).
func (r *StaticSiteReconciler) record(site *StaticSite, related client.Object, change Change) {
	// TODO(exercise 5): r.Recorder.Eventf(regarding, related, type, reason, action, note, args...).
	// The stub records nothing.
}

// recordFailure reports a failed reconcile: a Warning event regarding the site, reason
// ReconcileFailed, the error as its note.
func (r *StaticSiteReconciler) recordFailure(site *StaticSite, err error) {
	// TODO(exercise 5): a Warning event. The stub records nothing.
}
