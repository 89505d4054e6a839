package owners

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 2: converge the children, writing only what differs.
//
// controllerutil.CreateOrUpdate(ctx, c, obj, mutate) is read-compare-write in one call: it
// Gets obj by its namespace and name (overwriting whatever else obj held), calls mutate to
// set the fields you own on what it read, and then Creates obj if it did not exist, Updates
// it if mutate changed it (equality.Semantic.DeepEqual of before and after), or sends nothing.
// Everything you want in the object goes *inside* mutate; fields you do not set keep what is
// on the server, including the defaults the API server filled in. If mutate returns an error,
// CreateOrUpdate returns it and writes nothing.

// ConvergePage makes the site's page ConfigMap (PageName(site), in the site's namespace)
// exist, hold site.Spec.Page under PageKey, and be controlled by the site. It writes only
// when something differs, keeps what others put on the ConfigMap (labels, annotations, other
// keys), and reports what it did. A page controlled by someone else is not touched: the
// *controllerutil.AlreadyOwnedError is returned.
func ConvergePage(ctx context.Context, c client.Client, site *Website) (controllerutil.OperationResult, error) {
	// TODO(exercise 2): read, change what the site decides, write only if something differs
	// (see above). Start from a ConfigMap that has only its namespace and name, and set your
	// key of the data and the controller reference (Own, exercise 1) where they cannot be lost.
	return controllerutil.OperationResultNone, errNotImplemented(2)
}

// ConvergeDeployment makes the site's Deployment (named like the site, in its namespace)
// exist, run site.Spec.Replicas pods selected by SelectorLabels(site) from a template set by
// SetPodTemplate, and be controlled by the site. Like ConvergePage, it writes only when
// something differs and keeps what others (the Deployment controller, the API server's
// defaults) put on the Deployment.
func ConvergeDeployment(ctx context.Context, c client.Client, site *Website) (controllerutil.OperationResult, error) {
	// TODO(exercise 2): the same with an appsv1.Deployment: the replicas, the selector, the
	// pod template (SetPodTemplate) and the controller reference, and nothing the site does
	// not decide.
	return controllerutil.OperationResultNone, errNotImplemented(2)
}

// WebsiteReconciler converges the children of a Website.
type WebsiteReconciler struct {
	// Client reads and writes Websites and their children; its Scheme knows Websites.
	Client client.Client
}

var _ reconcile.Reconciler = &WebsiteReconciler{}

// Reconcile gets the Website named by req and converges its page and its Deployment. A
// Website that no longer exists ends the reconcile quietly: its children are the garbage
// collector's business. Any other error (reading the site, converging a child) is returned,
// so that the controller retries and the error shows.
func (r *WebsiteReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	// TODO(exercise 2): get the Website, then converge both children. Decide which errors
	// end the reconcile quietly and which go back to the controller.
	return reconcile.Result{}, errNotImplemented(2)
}
