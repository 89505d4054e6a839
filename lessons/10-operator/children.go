package operator

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// Exercise 2: the children, owned and idempotent (lesson 08, now in your own operator).
//
// A reconciler is called again and again for the same site: after each change of its spec,
// of a child, and after every failure. Each call must leave the children as they should be and
// write nothing when they already are. controllerutil.CreateOrUpdate reads the object, lets a
// function set the fields this controller owns, and writes only if that changed something. A
// controller reference on each child (SetControllerReference) brings the child's events back to
// this site (Owns in SetupWithManager) and lets the garbage collector delete the children with
// the site.

// ensureChildren makes site's page ConfigMap, Deployment and, for exposure Service, Service
// what DesiredPage, DesiredDeployment and DesiredService say, each controlled by site and
// carrying the site's labels beside its own, and deletes the Service of a site whose exposure
// is None. It reports each child it created, updated or deleted with r.record (exercise 5),
// and returns the Deployment as the API server has it, for the status (exercise 3).
func (r *StaticSiteReconciler) ensureChildren(ctx context.Context, site *v1alpha1.StaticSite) (*appsv1.Deployment, error) {
	// TODO(exercise 2): make each child what its Desired function says, with site as its
	// controller and the site's labels added to the child's own; set only the fields this
	// controller owns (the API server fills in the rest), so that a child already right is not
	// written. For exposure None, delete the Service only if site controls it. Record each
	// child created, updated or deleted, and nothing else.
	return nil, errNotImplemented(2)
}
