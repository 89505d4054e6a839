package operator

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// Exercise 3: status that says what the controller saw, written only when it changed.
//
// Status is the controller's report: which generation of the spec it acted on
// (observedGeneration), what it counted (readyReplicas), and conditions. A condition has a
// type, a status (True, False or Unknown), a reason (one word for machines, CamelCase by
// convention), a message for people, the generation it describes (its own observedGeneration)
// and the time its status last changed. A site has three conditions: Available (it works) and
// Progressing (it is changing), as a Deployment has, and Degraded (something is wrong).
// meta.SetStatusCondition adds or updates one condition in a list and keeps its
// lastTransitionTime unless its status changed. The status goes through the status subresource
// (Client.Status()), and only when it differs: a write nobody needs is load on the API server
// and, for a controller without lesson 09's predicate, another reconcile.

// updateStatus sets site's status from what this reconcile saw: observedGeneration the site's
// generation; readyReplicas the Deployment's ready web servers; Available True when the
// Deployment has all the site's replicas ready (and at least one); Progressing True while the
// Deployment has not yet caught up with its spec; Degraded True, with reconcileErr's text as its
// message, when the reconcile failed. Each condition carries the site's generation too.
// deployment is nil when the reconcile failed before it. It writes the status through the
// status subresource, and only when it changed.
func (r *StaticSiteReconciler) updateStatus(ctx context.Context, site *v1alpha1.StaticSite, deployment *appsv1.Deployment, reconcileErr error) error {
	// TODO(exercise 3): keep a copy of the status as it was; set observedGeneration, and, when
	// there is a Deployment, readyReplicas, Available and Progressing; set Degraded in any
	// case; write through the status subresource only when the status differs from the copy.
	// The stub writes nothing.
	return nil
}
