// Wrong (exercise 3): it watches the children with EnqueueRequestForObject, as it watches Websites.
// A changed page enqueues its own key, blog-page: the reconciler looks for a Website of that
// name, finds none, and the site that should heal the page is never told. (The Deployment's
// key happens to be the site's, only because it is named like its site.)

package owners

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
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
	c, err := controller.New(ControllerName, mgr, controller.Options{Reconciler: r})
	if err != nil {
		return nil, err
	}
	sites := source.Kind(mgr.GetCache(), &Website{}, &handler.TypedEnqueueRequestForObject[*Website]{})
	// The owner type is only used for its group and kind (from the scheme); the RESTMapper
	// says whether Websites are namespaced, so the request gets the child's namespace.
	pages := source.Kind(mgr.GetCache(), &corev1.ConfigMap{},
		&handler.TypedEnqueueRequestForObject[*corev1.ConfigMap]{})
	deployments := source.Kind(mgr.GetCache(), &appsv1.Deployment{},
		&handler.TypedEnqueueRequestForObject[*appsv1.Deployment]{})
	for _, src := range []source.Source{sites, pages, deployments} {
		if err := c.Watch(src); err != nil {
			return nil, err
		}
	}
	return c, nil
}
