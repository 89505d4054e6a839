package owners

import (
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 3: owner watches, so that children heal.
//
// A Website's controller must hear about its children too: someone deletes the Deployment, or
// edits the page by hand, and no Website changes, so no Website event comes. An owner watch
// watches the children's kind and turns each child event into a request for the child's
// *owner*, found in its owner references: handler.EnqueueRequestForOwner. With
// handler.OnlyControllerOwner() it follows only the controller reference, the one that says
// "this Website manages me"; without it, any owner reference of the right kind would do.

// ControllerName names the Website controller in logs and metrics.
const ControllerName = "website"

// NewWebsiteController creates a controller named ControllerName in mgr that calls r, and
// makes it watch:
//   - Websites, each event enqueuing the Website itself;
//   - ConfigMaps and Deployments, each event enqueuing the Website that is the child's
//     controller (and nothing for a child without one).
//
// mgr's Scheme must know Websites.
func NewWebsiteController(mgr manager.Manager, r reconcile.Reconciler) (controller.Controller, error) {
	// TODO(exercise 3): make the controller, then one watch per kind, all fed from the
	// manager's cache: the Websites themselves, and each kind of child turned into a request
	// for its controlling Website.
	return nil, errNotImplemented(3)
}
